// The sampling kernels (reyes-sample.wgsl) for a camera with a lens (depth of field).
// @include reyes-sample.wgsl

const LENS = true;

// Each blur stratum's lens cell and lens box, the same for every micropolygon: found once per
// workgroup (shareLensStrata) for the first LENS_STRATA_SHARED strata, by each micropolygon for any
// past them. Workgroup memory rather than a table in a buffer: the colour pass already binds 8
// storage buffers, the least an adapter may offer.
const LENS_STRATA_SHARED: u32 = 256u;
var<workgroup> lensStrata: array<LensStratum, LENS_STRATA_SHARED>;

/** Fills lensStrata; every invocation of the workgroup calls it (it holds a barrier). */
fn shareLensStrata(m: u32) {
  if (params.lensRadius > 0.0) {
    for (var j = m; j < min(samplesX() * samplesY(), LENS_STRATA_SHARED); j += SAMPLE_LANES) {
      lensStrata[j] = lensStratumOf(j);
    }
    workgroupBarrier();
  }
}

fn lensStratum(j: u32) -> LensStratum {
  if (j < LENS_STRATA_SHARED) { return lensStrata[j]; }
  return lensStratumOf(j);
}
