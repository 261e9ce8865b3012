/* hexagons: tiles in staggered rows (as a honeycomb lays them out) in s and t with grout lines; each
 * tile gets a colour from cell noise of its centre.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface hexagons(float Ka = 1, Kd = .8, frequency = 8, groutwidth = .08; color groutcolor = color(.85, .85, .8))
{
    float x = s * frequency, y = t * frequency / .8660254;
    float row = floor(y);
    float xs = x - .5 * mod(row, 2);
    float col = floor(xs);
    float fx = xs - col - .5, fy = y - row - .5;
    float d = max(abs(fx) * 2, abs(fy) * 2);
    float tile = 1 - smoothstep(1 - groutwidth * 2, 1 - groutwidth, d);
    color Ct = mix(groutcolor, Cs * (.5 + color cellnoise(col + .5, row + .5)), tile);
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(faceforward(normalize(N), I)));
}
