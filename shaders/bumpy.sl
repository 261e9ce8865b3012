/* bumpy: displacement by a texture map (no map: a flat surface). */
displacement bumpy(float Km = 1; string texturename = "")
{
    float amp = 0;
    if (texturename != "")
        amp = Km * float texture(texturename, s, t);
    P += amp * normalize(N);
    N = calculatenormal(P);
}
