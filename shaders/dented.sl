/* dented: displacement by a sum of noise octaves (turbulence) in shader space. */
displacement dented(float Km = 1)
{
    float size = 1, magnitude = 0, i;
    point P2 = transform("shader", P);
    for (i = 0; i < 6; i += 1) {
        magnitude += abs(.5 - noise(P2 * size)) / size;
        size *= 2;
    }
    P = P - normalize(N) * (magnitude * magnitude * magnitude) * Km;
    N = calculatenormal(P);
}
