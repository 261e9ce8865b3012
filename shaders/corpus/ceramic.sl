/* ceramic: a glazed ceramic: a coloured clay body under a clear glaze, the glaze thickness varying
 * with noise, a sharp glaze highlight over a broader body highlight.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface ceramic(float Ka = .3, Kd = .7, Ks = .6, glazeroughness = .03, bodyroughness = .3;
                color glazecolor = color(.15, .35, .55); float pooling = .6)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    float thick = pooling * smoothstep(.3, .7, noise(transform("shader", P) * 3));
    color body = mix(Cs, glazecolor, thick);
    Oi = Os;
    Ci = Os * (body * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, V, glazeroughness)
               + .2 * Ks * specular(Nf, V, bodyroughness));
}
