/* terrain: a planet-like surface: altitude from fractal noise over a uniform number of octaves
 * picks water, sand, grass, rock or snow; steep slopes (from the bumped normal) show rock.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface terrain(float Ka = 1, Kd = .8, octaves = 6, scale = 2, sealevel = .05, Km = .04)
{
    point PP = transform("shader", P) * scale;
    float alt = 0, amp = .5, i;
    for (i = 0; i < octaves; i += 1) {
        alt += amp * (2 * noise(PP) - 1);
        amp *= .5;
        PP *= 2.03;
    }
    normal Nb = normalize(calculatenormal(P + Km * max(alt, sealevel) * normalize(N)));
    float steep = 1 - abs(Nb . normalize(N));
    color Ct;
    if (alt < sealevel) Ct = color(.05, .15, .45);
    else if (alt < sealevel + .03) Ct = color(.76, .7, .5);
    else if (alt < .3) Ct = mix(color(.15, .45, .1), color(.45, .4, .35), smoothstep(.1, .3, steep));
    else Ct = mix(color(.45, .4, .35), color(.95, .95, 1), smoothstep(.35, .45, alt));
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(faceforward(Nb, I)));
}
