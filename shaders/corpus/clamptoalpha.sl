/* clamptoalpha: keeps premultiplied colour legal: every channel is clamped to the pixel's alpha
 * (a colour brighter than its coverage would otherwise glow at edges), then scaled by a gain.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
imager clamptoalpha(float gain = 1)
{
    Ci = gain * color(min(comp(Ci, 0), alpha), min(comp(Ci, 1), alpha), min(comp(Ci, 2), alpha));
}
