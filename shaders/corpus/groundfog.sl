/* groundfog: fog lying on the ground: its density falls off exponentially with height above a
 * ground plane in world space, integrated along the view ray in closed form.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
volume groundfog(float density = .6, falloff = 1.5, groundheight = -1; color fogcolor = color(.8, .82, .85))
{
    point Pw = transform("world", P);
    point Ew = transform("camera", "world", point(0, 0, 0));
    float h0 = ycomp(Ew) - groundheight, h1 = ycomp(Pw) - groundheight;
    float len = length(Pw - Ew);
    float dh = h1 - h0;
    float integral;
    if (abs(dh) > 1e-4)
        integral = density * len * (exp(-falloff * h0) - exp(-falloff * h1)) / (falloff * dh);
    else
        integral = density * len * exp(-falloff * h0);
    float f = 1 - exp(-max(integral, 0));
    Ci = mix(Ci, fogcolor * Oi, f);
}
