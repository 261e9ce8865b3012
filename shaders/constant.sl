/* constant: the object's colour, unlit (RenderMan Interface 3.2, appendix A). */
surface constant()
{
    Oi = Os;
    Ci = Os * Cs;
}
