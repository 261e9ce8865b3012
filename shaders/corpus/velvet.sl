/* velvet: a soft cloth: backscattering toward lights behind the viewer, a grazing-angle sheen, and
 * a dim diffuse base.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface velvet(float Ka = .05, Kd = .1, Ks = .1, backscatter = .1, edginess = 10, roughness = .1;
               color sheen = color(.9, .6, .9))
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color shiny = 0;
    illuminance(P, Nf, PI / 2) {
        vector Ln = normalize(L);
        float cosine = max(Ln . V, 0);
        shiny += pow(cosine, 1 / roughness) * backscatter * Cl * sheen;
        cosine = max(Nf . V, 0);
        float sine = sqrt(1 - cosine * cosine);
        shiny += pow(sine, edginess) * (Ln . Nf) * Cl * sheen;
    }
    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * shiny);
}
