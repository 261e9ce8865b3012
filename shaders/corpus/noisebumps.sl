/* noisebumps: bumps from signed noise of the object-space position; displaces only the normal
 * when truedisp is 0, the position too otherwise.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
displacement noisebumps(float Km = .1, frequency = 6, truedisp = 1)
{
    point PO = transform("object", P);
    float h = 2 * noise(PO * frequency) - 1;
    point Pd = P + Km * h * normalize(N);
    N = calculatenormal(Pd);
    if (truedisp != 0) P = Pd;
}
