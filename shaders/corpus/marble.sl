/* marble: veins from a sine of x plus turbulence summed over a uniform number of octaves, each
 * octave faded out by its filter width (a derivative inside the loop), coloured through a spline.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
#define filterwidthp(p) max(sqrt(area(p)), 1e-6)

surface marble(float Ka = 1, Kd = .8, Ks = .4, roughness = .1; float veinfreq = 4, octaves = 6, sharpness = 8;
               color basecolor = color(.92, .9, .85), veincolor = color(.3, .28, .32))
{
    point PP = transform("shader", P) * 2;
    float turb = 0, amp = 1, i;
    for (i = 0; i < octaves; i += 1) {
        float fw = filterwidthp(PP);
        turb += amp * abs(2 * noise(PP) - 1) * (1 - smoothstep(.2, .6, fw));
        amp *= .5;
        PP *= 2;
    }
    float x = sin((xcomp(transform("shader", P)) + turb) * veinfreq * PI) * .5 + .5;
    x = pow(x, 1 / (1 + sharpness * .1));
    color Ct = spline(x, veincolor, veincolor, mix(veincolor, basecolor, .6), basecolor, basecolor, basecolor);
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, V, roughness));
}
