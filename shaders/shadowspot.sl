/* shadowspot: a spotlight attenuated by a shadow map. */
light shadowspot(float intensity = 1; color lightcolor = 1; point from = point "shader" (0, 0, 0); point to = point "shader" (0, 0, 1);
                 float coneangle = radians(30), conedeltaangle = radians(5), beamdistribution = 2;
                 string shadowname = ""; float samples = 16, width = 1)
{
    uniform vector A = (to - from) / length(to - from);
    float cosangle, atten;
    illuminate(from, A, coneangle) {
        cosangle = L . A / length(L);
        atten = pow(cosangle, beamdistribution) / (L . L);
        atten *= smoothstep(cos(coneangle), cos(coneangle - conedeltaangle), cosangle);
        if (shadowname != "")
            atten *= 1 - shadow(shadowname, Ps, "samples", samples, "width", width);
        Cl = atten * intensity * lightcolor;
    }
}
