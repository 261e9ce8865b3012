/* barnspot: a spotlight with a soft cone and four barn doors that crop the beam to a rectangle in
 * the light's own coordinates; the doors' edges are softened by smoothstep.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
light barnspot(float intensity = 1; color lightcolor = 1; point from = point "shader" (0, 0, 0);
               point to = point "shader" (0, 0, 1); float coneangle = radians(30), conedeltaangle = radians(5);
               float beamdistribution = 2, barnleft = .3, barnright = .3, barntop = .2, barnbottom = .4, barnedge = .05)
{
    uniform vector A = normalize(to - from);
    uniform vector up = abs(ycomp(A)) > .9 ? vector(1, 0, 0) : vector(0, 1, 0);
    uniform vector xaxis = normalize(A ^ up);
    uniform vector yaxis = xaxis ^ A;
    illuminate(from, A, coneangle) {
        float dist = length(L);
        float cosangle = (L . A) / dist;
        float x = (L . xaxis) / (L . A), y = (L . yaxis) / (L . A);
        float doors = smoothstep(-barnleft - barnedge, -barnleft, x) * (1 - smoothstep(barnright, barnright + barnedge, x))
                    * smoothstep(-barnbottom - barnedge, -barnbottom, y) * (1 - smoothstep(barntop, barntop + barnedge, y));
        float atten = pow(cosangle, beamdistribution) / (dist * dist)
                    * smoothstep(cos(coneangle), cos(coneangle - conedeltaangle), cosangle);
        Cl = intensity * lightcolor * atten * doors;
    }
}
