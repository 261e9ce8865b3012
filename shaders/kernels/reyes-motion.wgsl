// Motion blur and depth of field for the kernels that bound and sample pieces
// (`// @include reyes-motion.wgsl`; they declare `prims` (the records) and `userCorners` (their
// auxiliary blocks)). A grid is diced and shaded where its primitive is at its first time sample;
// a record that moves within the shutter carries a motion block (src/reyes/motion/motion-keys.ts):
// the key count, then per key its shutter time u in [0, 1] and the camera-space matrix that takes
// a diced position to that time. Between keys a point moves linearly. The thin lens
// (src/reyes/motion/thin-lens.ts) moves a camera-space point seen through lens position L by
// L·(z / focalDistance − 1) in x and y.
// @layout primitive-record

// @layout motion-block
const NO_MOTION: u32 = 0xffffffffu;

/** Float offset in userCorners of record p's motion block, or NO_MOTION. */
fn motionBlock(p: u32) -> u32 {
  let word = bitcast<u32>(prims[p * REC_FLOATS + REC_MOTION]);
  if (word == 0u) { return NO_MOTION; }
  return bitcast<u32>(prims[p * REC_FLOATS + REC_AUX]) + word - 1u;
}

fn motionKeyCount(block: u32) -> u32 { return u32(userCorners[block + MOTION_BLOCK_COUNT]); }

fn motionKeyTime(block: u32, k: u32) -> f32 { return userCorners[block + MOTION_BLOCK_KEYS + k * MOTION_KEY_FLOATS + MOTION_KEY_TIME]; }

/** Key k's camera-space point for diced point p. */
fn motionKeyPoint(block: u32, k: u32, p: vec3f) -> vec3f {
  let b = block + MOTION_BLOCK_KEYS + k * MOTION_KEY_FLOATS + MOTION_KEY_MATRIX;
  var m: mat4x4f;
  for (var c = 0u; c < 4u; c++) {
    m[c] = vec4f(userCorners[b + c * 4u], userCorners[b + c * 4u + 1u], userCorners[b + c * 4u + 2u], userCorners[b + c * 4u + 3u]);
  }
  let h = m * vec4f(p, 1.0);
  return h.xyz / h.w;
}

/** Diced point p at shutter time u (linear between the keys, held outside them). */
fn movedPoint(block: u32, p: vec3f, u: f32) -> vec3f {
  if (block == NO_MOTION) { return p; }
  let n = motionKeyCount(block);
  var k = 0u;
  while (k + 2u < n && motionKeyTime(block, k + 1u) <= u) { k++; }
  if (n < 2u) { return motionKeyPoint(block, 0u, p); }
  let t0 = motionKeyTime(block, k);
  let t1 = motionKeyTime(block, k + 1u);
  let f = select(0.0, clamp((u - t0) / (t1 - t0), 0.0, 1.0), t1 > t0);
  return mix(motionKeyPoint(block, k, p), motionKeyPoint(block, k + 1u, p), f);
}

/** How far lens position `lens` (camera units) moves a camera-space point at depth z in x and y,
 * with the plane at depth `focalDistance` in focus. */
fn throughLensShift(z: f32, lens: vec2f, focalDistance: f32) -> vec2f {
  return lens * (z / focalDistance - 1.0);
}

/** How far, in camera x and y, the lens of radius `radius` moves a point at depth z. */
fn lensSpread(z: f32, radius: f32, focalDistance: f32) -> f32 {
  return radius * abs(z / focalDistance - 1.0);
}
