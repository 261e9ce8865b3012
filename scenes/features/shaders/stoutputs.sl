/* Output variables for Displays: the texture coordinates as colours and their product. The
 * picture itself is foo, so the colour Display shows the same gradient. */
surface stoutputs(output varying color foo = 0; output varying color bar = 0; output varying float qux = 0)
{
    foo = color(s, t, 0.5);
    bar = color(t, s, 0.25);
    qux = s * t;
    Oi = Os;
    Ci = Os * foo;
}
