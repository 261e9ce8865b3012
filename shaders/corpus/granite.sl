/* granite: speckled stone from a fractal sum of noise with a constant number of octaves.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface granite(float Ka = .3, Kd = .8, Ks = .2, roughness = .3; float scale = 8)
{
    point PP = transform("shader", P) * scale;
    float sum = 0, freq = 1, i;
    for (i = 0; i < 6; i += 1) {
        sum += abs(.5 - noise(PP * freq * 4)) / freq;
        freq *= 2;
    }
    color Ct = Cs * clamp(sum * 1.2, 0, 1) + color(.1, .09, .1) * noise(PP * 20);
    normal Nf = faceforward(normalize(N), I);
    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, -normalize(I), roughness));
}
