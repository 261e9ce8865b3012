/* slidelight: a projector: a spotlight whose colour comes from a slide, a texture indexed by the
 * projected position in the beam, or a procedural stripe pattern without one.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
light slidelight(float intensity = 1, fieldofview = radians(40); point from = point "shader" (0, 0, 0);
                 point to = point "shader" (0, 0, 1); string slidename = ""; float stripes = 6)
{
    uniform vector A = normalize(to - from);
    uniform vector up = abs(ycomp(A)) > .9 ? vector(1, 0, 0) : vector(0, 1, 0);
    uniform vector xaxis = normalize(A ^ up);
    uniform vector yaxis = xaxis ^ A;
    uniform float spread = 1 / tan(fieldofview / 2);
    illuminate(from, A, fieldofview / 2) {
        float sl = .5 + .5 * spread * (L . xaxis) / (L . A);
        float tl = .5 + .5 * spread * (L . yaxis) / (L . A);
        color slide;
        if (slidename != "") slide = color texture(slidename, sl, tl);
        else slide = mix(color(1, .3, .2), color(.2, .5, 1), step(.5, mod(sl * stripes, 1)));
        Cl = intensity * slide / (L . L);
    }
}
