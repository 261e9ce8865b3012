/* depthfade: a depth cue: linear fade of colour and opacity toward a background between a near and
 * a far depth in camera space.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
volume depthfade(float mindistance = 2, maxdistance = 8; color background = 0)
{
    float d = clamp((zcomp(P) - mindistance) / (maxdistance - mindistance), 0, 1);
    Ci = mix(Ci, background, d);
    Oi = mix(Oi, color(1), d * .5);
}
