/* expfog: exponential fog: the surface colour fades to the fog colour with the distance the light
 * travels through the fog, 1 - exp(-distance / halfway scaled).
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
volume expfog(float distance = 8; color background = color(.6, .65, .7))
{
    float d = 1 - exp(-length(I) / distance);
    Ci = mix(Ci, background * Oi, d);
}
