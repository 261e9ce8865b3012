/* leather: a pebbled leather grain from cellular noise bumps (the normal recomputed in the surface),
 * with a soft sheen.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface leather(float Ka = 1, Kd = .7, Ks = .25, roughness = .25, Km = .01, cellsize = .04;
                color leathercolor = color(.35, .2, .1))
{
    point PP = transform("shader", P) / cellsize;
    point cell = point(floor(xcomp(PP)) + .5, floor(ycomp(PP)) + .5, floor(zcomp(PP)) + .5);
    vector jitter = (vector cellnoise(cell) - .5) * .6;
    float d = length(PP - (cell + jitter));
    float pebble = 1 - smoothstep(.2, .6, d);
    N = calculatenormal(P + Km * pebble * normalize(N));
    normal Nf = faceforward(normalize(N), I);
    Oi = Os;
    Ci = Os * (leathercolor * (.7 + .3 * pebble) * (Ka * ambient() + Kd * diffuse(Nf))
               + Ks * specular(Nf, -normalize(I), roughness));
}
