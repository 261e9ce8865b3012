/* clouds: soft white clouds on blue, from a fractal sum that adds octaves only while they are
 * coarser than a pixel: the trip count varies over the surface, the filter width is taken before.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
#define filterwidthp(p) max(sqrt(area(p)), 1e-6)

surface clouds(float Ka = 1, Kd = .6, scale = 3, coverage = .45, maxoctaves = 8;
               color skycolor = color(.25, .45, .85), cloudcolor = 1)
{
    point PP = transform("shader", P) * scale;
    float fw = filterwidthp(PP), sum = 0, amp = 1, octave = 0;
    while (octave < maxoctaves && fw < .5) {
        sum += amp * (2 * noise(PP) - 1);
        amp *= .5;
        PP *= 2;
        fw *= 2;
        octave += 1;
    }
    float c = smoothstep(coverage - .5, coverage + .3, sum * .5 + .5);
    Oi = Os;
    Ci = Os * mix(skycolor, cloudcolor, c) * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
