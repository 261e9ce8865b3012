/* randomtint: each object gets one random tint (a uniform random colour, the same for the whole
 * object) over a matte base, plus a varying random speckle.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface randomtint(float Ka = 1, Kd = .8, speckle = .1)
{
    uniform color tint = color(random(), random(), random());
    color Ct = Cs * (.4 + .6 * tint) * (1 - speckle * float random());
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
