/* screen: a metal screen of wires along s and t; the holes between them are transparent, with
 * antialiased edges from filterstep over the wire width.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface screen(float Ks = .5, Kd = .5, Ka = .1, roughness = .1, density = .25, frequency = 20;
               color specularcolor = 1)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    float ss = mod(s * frequency, 1), tt = mod(t * frequency, 1);
    float hole = (filterstep(density * .5, ss) - filterstep(1 - density * .5, ss))
               * (filterstep(density * .5, tt) - filterstep(1 - density * .5, tt));
    Oi = Os * (1 - hole);
    Ci = Oi * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) + specularcolor * Ks * specular(Nf, V, roughness));
}
