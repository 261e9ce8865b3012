/* wood: rings of light and dark wood around the shader-space z axis, the ring radius perturbed
 * by noise and the grain by a second, finer noise; plastic-style lighting.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface wood(float Ka = 1, Kd = .75, Ks = .3, roughness = .2;
             color lightwood = color(.69, .44, .25), darkwood = color(.35, .22, .08);
             float ringscale = 12, grainy = 1, swirl = .35)
{
    point PP = transform("shader", P);
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    point Pr = PP + swirl * vector noise(PP * 2);
    float r = sqrt(xcomp(Pr) * xcomp(Pr) + ycomp(Pr) * ycomp(Pr)) * ringscale;
    r += noise(r) * .5;
    float ring = mod(r, 1);
    ring = smoothstep(0, .8, ring) - smoothstep(.83, 1, ring);
    float grain = noise(point(xcomp(PP) * 4, ycomp(PP) * 4, zcomp(PP) * 48));
    color Ct = mix(darkwood, lightwood, ring * (1 - grainy * .4 * grain));
    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, V, roughness));
}
