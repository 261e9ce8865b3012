/* dents: dents pushed into the surface: the magnitude is the cube of a turbulence sum (constant
 * octave count), so dents are sparse and sharp; the normal follows the displaced point.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
displacement dents(float Km = .4, frequency = 3)
{
    point PP = transform("shader", P) * frequency;
    float size = 1, magnitude = 0, i;
    for (i = 0; i < 5; i += 1) {
        magnitude += abs(.5 - noise(PP * size)) / size;
        size *= 2;
    }
    P -= normalize(N) * magnitude * magnitude * magnitude * Km;
    N = calculatenormal(P);
}
