/* stucco: a rough plaster wall: the surface bumps its own normal (N written in a surface shader)
 * by thresholded noise and lights it as matte.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface stucco(float Ka = 1, Kd = .9, Km = .04, power = 5, frequency = 10)
{
    point PP = transform("shader", P);
    float magnitude = pow(noise(PP * frequency), power);
    N = calculatenormal(P + Km * magnitude * normalize(N));
    normal Nf = faceforward(normalize(N), I);
    Oi = Os;
    Ci = Os * Cs * (Ka * ambient() + Kd * diffuse(Nf));
}
