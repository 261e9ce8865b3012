/*
 * skyramp: an imager (a feature-scene shader) that puts a vertical gradient behind the picture,
 * from "top" at the first row to "bottom" at the last, reading the pixel's raster position P and the
 * resolution from option("Format"). Uncovered pixels become opaque.
 */
imager skyramp(color top = color(0.2, 0.4, 0.9), bottom = color(0.9, 0.8, 0.6))
{
    float format[3];
    option("Format", format);
    float y = ycomp(P) / format[1];
    Ci += (1 - alpha) * mix(top, bottom, y);
    Oi = 1;
}
