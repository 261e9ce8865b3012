/* fresnelplastic: plastic whose specular and reflection strength follow the Fresnel factor, so
 * the highlight brightens at grazing angles.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface fresnelplastic(float Ka = 1, Kd = .5, Ks = .5, roughness = .1, eta = 1.4; color specularcolor = 1)
{
    normal Nf = faceforward(normalize(N), I);
    vector In = normalize(I);
    float kr, kt;
    fresnel(In, Nf, 1 / eta, kr, kt);
    Oi = Os;
    Ci = Os * (Cs * kt * (Ka * ambient() + Kd * diffuse(Nf)) + specularcolor * (Ks + kr) * specular(Nf, -In, roughness));
}
