/* spots: polka dots on a plastic base: a grid of discs in s and t, the edge of each disc
 * antialiased with smoothstep over the filter width of the distance.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface spots(float Ka = 1, Kd = .7, Ks = .3, roughness = .15, frequency = 6, radius = .3;
              color spotcolor = color(.9, .85, .1))
{
    float ss = mod(s * frequency, 1) - .5, tt = mod(t * frequency, 1) - .5;
    float d = sqrt(ss * ss + tt * tt);
    float fw = abs(Du(d) * du) + abs(Dv(d) * dv);
    float inside = 1 - smoothstep(radius - fw, radius + fw, d);
    color Ct = mix(Cs, spotcolor, inside);
    normal Nf = faceforward(normalize(N), I);
    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, -normalize(I), roughness));
}
