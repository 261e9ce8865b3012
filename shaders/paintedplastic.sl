/* paintedplastic: plastic whose colour is multiplied by a texture map. */
surface paintedplastic(float Ka = 1, Kd = .5, Ks = .5, roughness = .1; color specularcolor = 1; string texturename = "")
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color Ct = Cs;
    if (texturename != "")
        Ct *= color texture(texturename);
    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) + specularcolor * Ks * specular(Nf, V, roughness));
}
