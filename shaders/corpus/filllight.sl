/* filllight: a soft fill: an ambient term plus a weak distant light from a direction, so the
 * shadowed side of an object is not black; the fill colour is cooler than the key.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
light filllight(float intensity = .4, ambientfraction = .3; color lightcolor = color(.7, .8, 1);
                point from = point "shader" (0, 0, 0), to = point "shader" (0, 0, 1))
{
    solar(to - from, 0) {
        Cl = intensity * (1 - ambientfraction) * lightcolor;
    }
}
