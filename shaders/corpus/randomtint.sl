/* randomtint: a uniform random colour tints a matte base: one value per shading grid (uniform
 * values are computed once per grid), so the picture shows how the surface was diced; plus a
 * varying random speckle per point.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface randomtint(float Ka = 1, Kd = .8, speckle = .1)
{
    uniform color tint = color(random(), random(), random());
    color Ct = Cs * (.4 + .6 * tint) * (1 - speckle * float random());
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
