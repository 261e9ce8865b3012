// The sampling kernels (reyes-sample.wgsl) for a camera without a lens. They use no workgroup memory:
// WGSL zero-fills a workgroup's memory before it runs, behind a barrier, and a barrier costs a
// workgroup far more than its work where a grid holds a few micropolygons (SwiftShader runs such a
// workgroup as coroutines: a ball of fine hair sampled in minutes instead of seconds).
// @include reyes-sample.wgsl

// With MOTION_MOVES false too (reyes-motion.wgsl), a still frame's kernels leave out every blurred
// path, which is most of what lavapipe compiles.
const LENS = false;

fn shareLensStrata(m: u32) {}

fn lensStratum(j: u32) -> LensStratum {
  return lensStratumOf(j);
}
