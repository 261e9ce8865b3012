/* vignette: darkens the picture toward its corners: a smooth falloff of brightness with the
 * distance from the centre of the frame, in raster units relative to the frame's diagonal.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
imager vignette(float innerradius = .3, outerradius = .75, strength = .8)
{
    float res[3];
    option("Format", res);
    float x = xcomp(P) / max(res[0], 1) - .5, y = ycomp(P) / max(res[1], 1) - .5;
    float r = sqrt(x * x + y * y) / .7071068;
    Ci *= 1 - strength * smoothstep(innerradius, outerradius, r);
}
