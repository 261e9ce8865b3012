/* threads: screw threads: the surface moved outward along a helix of frequency in t, the profile
 * a rounded sawtooth; the thread fades out near the ends of t.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
displacement threads(float Km = .08, frequency = 10, phase = 0, offset = 0, dampzone = .05)
{
    float x = mod(frequency * t + s + phase, 1);
    float profile = smoothstep(0, .5, x) - smoothstep(.5, 1, x);
    float damp = smoothstep(0, dampzone, t) * (1 - smoothstep(1 - dampzone, 1, t));
    P += normalize(N) * Km * (profile + offset) * damp;
    N = calculatenormal(P);
}
