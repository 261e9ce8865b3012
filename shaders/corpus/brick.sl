/* brick: running-bond bricks in s and t with mortar edges antialiased by filterstep, the brick
 * colour varied per brick by cell noise, and a slight bump in the mortar grooves.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
surface brick(float Ka = 1, Kd = 1; color brickcolor = color(.6, .15, .1), mortarcolor = color(.55, .55, .5);
              float brickwidth = .25, brickheight = .08, mortarthickness = .01)
{
    float bmwidth = brickwidth + mortarthickness, bmheight = brickheight + mortarthickness;
    float mwf = mortarthickness * .5 / bmwidth, mhf = mortarthickness * .5 / bmheight;
    float ss = s / bmwidth, tt = t / bmheight;
    float row = floor(tt);
    if (mod(row * .5, 1) > .25) ss += .5;
    float sbrick = floor(ss);
    ss -= sbrick;
    tt -= row;
    float w = filterstep(mwf, ss) - filterstep(1 - mwf, ss);
    float h = filterstep(mhf, tt) - filterstep(1 - mhf, tt);
    color bc = brickcolor * (.75 + .5 * float cellnoise(sbrick + .5, row + .5));
    color Ct = mix(mortarcolor, bc, w * h);
    normal Nf = faceforward(normalize(N), I);
    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(Nf));
}
