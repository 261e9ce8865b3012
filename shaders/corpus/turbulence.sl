/* turbulence: coloured turbulence with a derivative inside the octave loop: each octave is
 * antialiased by its own filter width, Du/Dv of the running sum shade its slope.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
#define filterwidthp(p) max(sqrt(area(p)), 1e-6)

surface turbulence(float Ka = 1, Kd = .8, octaves = 5, scale = 4; color c1 = color(.9, .5, .1), c2 = color(.1, .2, .6))
{
    point PP = transform("shader", P) * scale;
    float sum = 0, amp = 1, i, slope = 0;
    for (i = 0; i < octaves; i += 1) {
        float fw = filterwidthp(PP);
        sum += amp * abs(2 * noise(PP) - 1) * (1 - smoothstep(.25, .5, fw));
        slope += abs(Du(sum) * du) + abs(Dv(sum) * dv);
        amp *= .5;
        PP *= 2;
    }
    color Ct = mix(c1, c2, clamp(sum, 0, 1)) * (1 - clamp(slope * 4, 0, .5));
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
