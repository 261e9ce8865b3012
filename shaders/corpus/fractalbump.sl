/* fractalbump: plastic bumped by fractal noise; the bump height is summed over a parameter number
 * of octaves and the new normal is the derivative of the displaced point after the loop.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface fractalbump(float Ka = 1, Kd = .6, Ks = .4, roughness = .15, Km = .03, octaves = 5, freq = 6)
{
    point PP = transform("shader", P) * freq;
    float sum = 0, f = 1, i;
    for (i = 0; i < octaves; i += 1) {
        sum += (2 * noise(PP * f) - 1) / f;
        f *= 2;
    }
    normal Nb = calculatenormal(P + Km * sum * normalize(N));
    normal Nf = faceforward(normalize(Nb), I);
    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, -normalize(I), roughness));
}
