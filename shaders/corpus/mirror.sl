/* mirror: a perfect mirror: the reflected ray traced (black without ray tracing) or looked up in a
 * reflection environment map, plus a small diffuse part so the shape still reads.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface mirror(float Ka = .1, Kd = .2, Ks = 1, Kr = 1, roughness = .05; string reflname = "raytrace")
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    vector R = reflect(normalize(I), Nf);
    color Cr = environment(reflname, R);
    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) + Kr * Cr + Ks * specular(Nf, V, roughness));
}
