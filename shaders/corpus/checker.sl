/* checker: a checkerboard in s and t, antialiased: each axis' square wave is box-filtered over the
 * filter width of s (t), so small checks fade to the average colour instead of aliasing.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
#define filterwidth(x) max(abs(Du(x) * du) + abs(Dv(x) * dv), 1e-6)

float filteredpulsetrain(float edge, period, x, dx)
{
    float w = dx / period;
    float x0 = x / period - w / 2, x1 = x0 + w;
    float nedge = edge / period;
    float i0 = floor(x0) * (1 - nedge) + max(0, x0 - floor(x0) - nedge);
    float i1 = floor(x1) * (1 - nedge) + max(0, x1 - floor(x1) - nedge);
    return (i1 - i0) / max(w, 1e-6);
}

surface checker(float Ka = 1, Kd = .8, frequency = 8; color blackcolor = color(.05, .05, .05))
{
    float fs = filteredpulsetrain(.5, 1, s * frequency, filterwidth(s) * frequency);
    float ft = filteredpulsetrain(.5, 1, t * frequency, filterwidth(t) * frequency);
    float check = fs * ft + (1 - fs) * (1 - ft);
    color Ct = mix(blackcolor, Cs, check);
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
