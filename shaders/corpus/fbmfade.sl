/* fbmfade: fractal noise that stops adding octaves where they get finer than a pixel: the filter
 * width of each octave's point is taken inside the loop, and the loop runs until it passes a
 * threshold, so the trip count varies over the surface (the compiler runs the loop masked).
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
#define filterwidthp(p) max(sqrt(area(p)), 1e-6)

surface fbmfade(float Ka = 1, Kd = .8, scale = 4, maxoctaves = 10, cutoff = .4;
                color lowcolor = color(.2, .35, .15), highcolor = color(.85, .8, .55))
{
    point PP = transform("shader", P) * scale;
    float sum = 0, amp = 1, octave = 0, fw = 0;
    while (octave < maxoctaves && fw < cutoff) {
        fw = filterwidthp(PP);
        sum += amp * (2 * noise(PP) - 1) * (1 - smoothstep(cutoff * .5, cutoff, fw));
        amp *= .5;
        PP *= 2;
        octave += 1;
    }
    color Ct = mix(lowcolor, highcolor, smoothstep(-.6, .6, sum));
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
