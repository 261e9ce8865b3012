/* wireframe: lines along constant u and v (the parametric grid of the surface), each line one
 * filter width wide so it stays visible at any distance, over a dimmed shaded base.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface wireframe(float Ka = .3, Kd = .7, frequency = 10, linewidth = 1.5; color linecolor = color(0, .9, .4))
{
    float uu = u * frequency, vv = v * frequency;
    float wu = linewidth * max(abs(Du(uu) * du) + abs(Dv(uu) * dv), 1e-4);
    float wv = linewidth * max(abs(Du(vv) * du) + abs(Dv(vv) * dv), 1e-4);
    float du0 = min(mod(uu, 1), 1 - mod(uu, 1)), dv0 = min(mod(vv, 1), 1 - mod(vv, 1));
    float line = max(1 - smoothstep(0, wu, du0), 1 - smoothstep(0, wv, dv0));
    Oi = Os;
    Ci = Os * mix(Cs * .4 * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I))), linecolor, line);
}
