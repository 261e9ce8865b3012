/* arealike: a rectangular area light approximated by a uniform grid of point emitters: the light
 * sums their contributions (a constant number of samples) and shines from the rectangle's centre.
 * Part of the webgpu-reyes shader corpus. MIT licence (the project's); written for this project. */
light arealike(float intensity = 1; color lightcolor = 1; point center = point "shader" (0, 0, 0);
               vector xside = vector "shader" (1, 0, 0), yside = vector "shader" (0, 1, 0); float nsamples = 3)
{
    uniform vector nrm = normalize(xside ^ yside);
    illuminate(center) {
        color sum = 0;
        float i, j;
        for (i = 0; i < nsamples; i += 1) {
            for (j = 0; j < nsamples; j += 1) {
                point q = center + xside * ((i + .5) / nsamples - .5) + yside * ((j + .5) / nsamples - .5);
                vector d = Ps - q;
                sum += abs(normalize(d) . nrm) / (d . d);
            }
        }
        Cl = intensity * lightcolor * sum / (nsamples * nsamples);
    }
}
