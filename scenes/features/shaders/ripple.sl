/* ripple: sinusoidal displacement along the normal, in s and t (a feature-scene shader). */
displacement ripple(float Km = .05, frequency = 8)
{
    float h = sin(s * frequency * 2 * PI) * sin(t * frequency * PI);
    P += Km * h * normalize(N);
    N = calculatenormal(P);
}
