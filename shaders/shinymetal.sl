/* shinymetal: metal plus a reflection map. */
surface shinymetal(float Ka = 1, Ks = 1, Kr = 1, roughness = .1; string texturename = "")
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    vector D = reflect(I, normalize(Nf));
    D = vtransform("world", D);
    color Cr = 0;
    if (texturename != "")
        Cr = Kr * color environment(texturename, D);
    Oi = Os;
    Ci = Os * Cs * (Ka * ambient() + Ks * specular(Nf, V, roughness) + Cr);
}
