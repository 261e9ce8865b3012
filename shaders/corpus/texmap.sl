/* texmap: painted plastic: the surface colour from a texture map (channels picked by name), its
 * alpha as opacity, the texture coordinates scaled and offset; without a map, Cs and a stripe.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface texmap(float Ka = 1, Kd = .6, Ks = .4, roughness = .1; string texturename = "";
               float sscale = 1, tscale = 1, soffset = 0, toffset = 0)
{
    float ss = s * sscale + soffset, tt = t * tscale + toffset;
    color Ct = Cs * (.6 + .4 * step(.5, mod(ss * 6, 1)));
    float alpha = 1;
    if (texturename != "") {
        Ct = color texture(texturename, ss, tt, "blur", 0);
        alpha = float texture(texturename[3], ss, tt, "fill", 1);
    }
    normal Nf = faceforward(normalize(N), I);
    Oi = Os * alpha;
    Ci = Oi * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, -normalize(I), roughness));
}
