/* shadowedspot: a spotlight that darkens points in shadow, from a shadow map when one is named
 * (shadow() with blur and bias) and from an analytic blocker sphere otherwise.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
light shadowedspot(float intensity = 1; color lightcolor = 1; point from = point "shader" (0, 0, 0);
                   point to = point "shader" (0, 0, 1); float coneangle = radians(30), conedeltaangle = radians(5);
                   string shadowname = ""; float blur = .01, bias = .05; color shadowcolor = 0)
{
    uniform vector A = normalize(to - from);
    illuminate(from, A, coneangle) {
        float cosangle = (L . A) / length(L);
        float atten = smoothstep(cos(coneangle), cos(coneangle - conedeltaangle), cosangle) / (L . L);
        float inshadow = 0;
        if (shadowname != "")
            inshadow = shadow(shadowname, Ps, "blur", blur, "bias", bias);
        Cl = mix(intensity * lightcolor, shadowcolor, inshadow) * atten;
    }
}
