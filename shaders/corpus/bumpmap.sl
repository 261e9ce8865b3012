/* bumpmap: plastic with its normal bumped by a height map (texture) or, without one, by a
 * procedural pattern of ripples; the bumped normal comes from calculatenormal.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface bumpmap(float Ka = 1, Kd = .6, Ks = .4, roughness = .1, Km = .02, ripples = 12; string bumpname = "")
{
    float h;
    if (bumpname != "")
        h = float texture(bumpname, s, t);
    else
        h = sin(ripples * 2 * PI * s) * sin(ripples * PI * t);
    normal Nb = calculatenormal(P + Km * h * normalize(N));
    normal Nf = faceforward(normalize(Nb), I);
    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, -normalize(I), roughness));
}
