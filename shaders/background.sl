/*
 * background: an imager that puts a colour behind the picture (RenderMan Interface 3.2, section 12.5).
 * The filtered colour is premultiplied by coverage, so the background shows through by 1 - alpha and
 * the result is opaque. As in Aqsis, "bgcolor" and "background" are both colours and multiply.
 *
 * Written for webgpu-reyes; MIT licence, as the rest of the project (see package.json).
 */
imager background(color bgcolor = 1, background = 1)
{
    Ci += (1 - alpha) * bgcolor * background;
    Oi = 1;
    alpha = 1;
}
