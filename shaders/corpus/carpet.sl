/* carpet: a pile carpet: fibre tips from high-frequency noise, a darker nap where the fibres lean
 * away from the viewer, and a matte base.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface carpet(float Ka = .5, Kd = .9, nap = 5, scuff = .6, fibrefreq = 60; color pilecolor = color(.45, .05, .1))
{
    normal Nn = normalize(N);
    normal Nf = faceforward(Nn, I);
    vector V = -normalize(I);
    point PP = transform("shader", P);
    float tips = noise(PP * fibrefreq);
    float lean = pow(abs(Nf . V), nap * (.5 + scuff * noise(PP * 3)));
    color Ct = pilecolor * (.5 + .7 * tips) * (.4 + .6 * lean);
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(Nf));
}
