/* envmetal: polished metal reflecting an environment map (the reflection vector in world space),
 * with the metal's colour tinting highlights and reflection; a procedural sky without a map.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface envmetal(float Ka = .5, Ks = .8, Kr = .6, roughness = .06; string envname = "")
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    vector R = vtransform("world", reflect(-V, Nf));
    color Cr;
    if (envname != "")
        Cr = color environment(envname, R);
    else
        Cr = mix(color(.3, .25, .2), color(.5, .7, 1), smoothstep(-.2, .3, ycomp(normalize(R))));
    Oi = Os;
    Ci = Os * Cs * (Ka * ambient() + Ks * specular(Nf, V, roughness) + Kr * Cr);
}
