/* ripples: water ripples: a sum of circular waves from a uniform number of centres placed by
 * cell noise, the amplitude falling with distance.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
displacement ripples(float Km = .03, waves = 4, wavelength = .15, falloff = 2)
{
    point PS = transform("shader", P);
    float h = 0, k;
    for (k = 0; k < waves; k += 1) {
        point centre = (point cellnoise(k + .5) - .5) * 2;
        float d = distance(PS, centre);
        h += sin(2 * PI * d / wavelength) * exp(-falloff * d);
    }
    P += Km * h * normalize(N);
    N = calculatenormal(P);
}
