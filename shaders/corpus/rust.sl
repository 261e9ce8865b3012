/* rust: a metal surface with patches of rust where fractal noise passes a threshold; the metal is
 * shiny, the rust rough and matte, the edge antialiased with filterstep.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface rust(float Ka = 1, Kd = .7, Ks = .8, roughness = .08, rustiness = .5, freq = 4;
             color rustcolor = color(.45, .18, .06))
{
    point PP = transform("shader", P) * freq;
    float n = 0, f = 1, i;
    for (i = 0; i < 4; i += 1) {
        n += noise(PP * f) / f;
        f *= 2;
    }
    n = n / 1.875;
    float r = filterstep(1 - rustiness, n);
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color metal = Cs * (Ka * ambient() + Ks * specular(Nf, V, roughness));
    color rusty = rustcolor * (.6 + .4 * noise(PP * 12)) * (Ka * ambient() + Kd * diffuse(Nf));
    Oi = Os;
    Ci = Os * mix(metal, rusty, r);
}
