/* strata: layered sedimentary rock: height in shader space, perturbed by noise, looks up a colour
 * in a bspline colour spline, and the layers are darkened by a second spline of float weights.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface strata(float Ka = 1, Kd = .8, sscale = 3, perturb = .15)
{
    point PP = transform("shader", P);
    float h = ycomp(PP) * sscale + perturb * (2 * noise(PP * 4) - 1);
    float x = mod(h, 1);
    color layer = spline("bspline", x, color(.55, .35, .2), color(.8, .65, .45), color(.6, .45, .3),
                         color(.9, .85, .7), color(.5, .3, .2), color(.7, .5, .35), color(.55, .35, .2));
    float shade = spline("catmull-rom", x, .8, .8, 1, .7, 1, .9, .8, .8);
    Oi = Os;
    Ci = Os * layer * shade * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
