/* occlusionmatte: matte shading darkened by ambient occlusion from occlusion() (0 without ray
 * tracing, so the surface renders as plain matte) and an indirect diffuse term.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface occlusionmatte(float Ka = 1, Kd = .8, Kocc = 1, samples = 16, maxdist = 10)
{
    normal Nf = faceforward(normalize(N), I);
    float occ = occlusion(P, Nf, samples, "maxdist", maxdist);
    color indirect = indirectdiffuse(P, Nf, samples);
    Oi = Os;
    Ci = Os * Cs * ((Ka * ambient() + indirect) * (1 - Kocc * occ) + Kd * diffuse(Nf));
}
