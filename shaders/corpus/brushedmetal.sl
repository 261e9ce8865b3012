/* brushedmetal: an anisotropic metal (Ward-style): the highlight is stretched along the brushing
 * direction, taken from dPdu, with separate roughnesses across and along the grooves.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface brushedmetal(float Ka = .3, Ks = 1, xroughness = .4, yroughness = .06; color specularcolor = 1)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    vector xdir = normalize(dPdu - (dPdu . Nf) * Nf);
    vector ydir = Nf ^ xdir;
    color spec = 0;
    illuminance(P, Nf, PI / 2) {
        vector Ln = normalize(L);
        float nl = Ln . Nf;
        float nv = max(V . Nf, 1e-4);
        vector H = normalize(V + Ln);
        float hx = (H . xdir) / xroughness, hy = (H . ydir) / yroughness, hn = H . Nf;
        float rho = exp(-2 * (hx * hx + hy * hy) / (1 + hn)) / sqrt(max(nl * nv, 1e-4));
        spec += Cl * nl * rho / (4 * xroughness * yroughness);
    }
    Oi = Os;
    Ci = Os * Cs * (Ka * ambient() + Ks * specularcolor * spec);
}
