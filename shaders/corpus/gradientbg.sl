/* gradientbg: a background imager: where the picture is empty (alpha below 1) a vertical gradient
 * from a top colour to a bottom colour shows through, composited under the image.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
imager gradientbg(color topcolor = color(.15, .2, .45), bottomcolor = color(.85, .75, .6))
{
    float res[3];
    option("Format", res);
    float y = ycomp(P) / max(res[1], 1);
    color bg = mix(topcolor, bottomcolor, clamp(y, 0, 1));
    Ci += (1 - alpha) * bg;
    Oi = 1;
    alpha = 1;
}
