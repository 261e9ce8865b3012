/* glass: a thin glass surface: fresnel-weighted reflection and refraction from trace() (which a
 * renderer without ray tracing answers with black), an environment map where one is named, and a
 * strong specular highlight; mostly transparent.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface glass(float Ka = .2, Kd = 0, Ks = .8, Kr = 1, Kt = 1, roughness = .05, eta = 1.5;
              color transmitcolor = color(.9, .95, 1); string envname = "")
{
    normal Nf = faceforward(normalize(N), I);
    vector In = normalize(I);
    vector V = -In;
    float kr, kt;
    vector R, T;
    fresnel(In, Nf, 1 / eta, kr, kt, R, T);
    color Crefl = trace(P, R);
    color Crefr = trace(P, T);
    if (envname != "")
        Crefl += environment(envname, vtransform("world", R));
    Oi = Os * (.2 + .8 * kr);
    Ci = Ka * ambient() * Cs + Kr * kr * Crefl + Kt * kt * transmitcolor * Crefr + Ks * specular(Nf, V, roughness);
}
