/* toon: cel shading: the diffuse term quantised into a few bands, a hard highlight, and a dark
 * silhouette line where the surface turns away from the viewer.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface toon(float Kd = 1, bands = 3, highlight = .92, outline = .25; color inkcolor = 0)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    float d = 0;
    illuminance(P, Nf, PI / 2) {
        d += normalize(L) . Nf * comp(Cl, 0);
    }
    float band = floor(clamp(d, 0, .999) * bands) / (bands - 1);
    float spec = 0;
    illuminance(P, Nf, PI / 2) {
        vector H = normalize(normalize(L) + V);
        spec = max(spec, step(highlight, Nf . H));
    }
    float edge = 1 - smoothstep(outline * .6, outline, Nf . V);
    Oi = Os;
    Ci = Os * mix(Cs * Kd * (.25 + .75 * band) + spec, inkcolor, edge);
}
