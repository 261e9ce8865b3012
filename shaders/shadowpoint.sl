/* shadowpoint: a point light with six shadow maps, one per world axis direction. */
light shadowpoint(float intensity = 1; color lightcolor = 1; point from = point "shader" (0, 0, 0);
                  string sfpx = "", sfnx = "", sfpy = "", sfny = "", sfpz = "", sfnz = ""; float samples = 16, width = 1)
{
    illuminate(from) {
        vector Lw = vtransform("world", L);
        float Lx = xcomp(Lw), Ly = ycomp(Lw), Lz = zcomp(Lw);
        float ax = abs(Lx), ay = abs(Ly), az = abs(Lz);
        float unshadowed = 1;
        if (ax > ay && ax > az) {
            if (Lx > 0 && sfpx != "") unshadowed = 1 - shadow(sfpx, Ps, "samples", samples, "width", width);
            else if (Lx <= 0 && sfnx != "") unshadowed = 1 - shadow(sfnx, Ps, "samples", samples, "width", width);
        } else if (ay > az) {
            if (Ly > 0 && sfpy != "") unshadowed = 1 - shadow(sfpy, Ps, "samples", samples, "width", width);
            else if (Ly <= 0 && sfny != "") unshadowed = 1 - shadow(sfny, Ps, "samples", samples, "width", width);
        } else {
            if (Lz > 0 && sfpz != "") unshadowed = 1 - shadow(sfpz, Ps, "samples", samples, "width", width);
            else if (Lz <= 0 && sfnz != "") unshadowed = 1 - shadow(sfnz, Ps, "samples", samples, "width", width);
        }
        Cl = unshadowed * intensity * lightcolor / (L . L);
    }
}
