// Motion blur and depth of field for the kernels that bound and sample pieces
// (`// @include reyes-motion.wgsl`, after reyes-surface.wgsl; they declare `prims` (the records) and
// `userCorners` (their auxiliary blocks)). A grid is diced and shaded where its primitive is at its
// first time sample; a record that moves within the shutter carries a motion block
// (src/layout/motion-block.ts, packed by src/reyes/motion/motion-keys.ts): the key count, then per
// key its shutter time u in [0, 1] and the camera-space matrix that takes a diced position to that
// time, and for a deforming record its shape at each key. A diced point at (u, v) is at key k where
// the key's matrix takes it after the deformation has moved it by the key shape's surface at (u, v)
// less the record's (the same offset for a displaced point). Between keys a point moves linearly.
// The thin lens (src/reyes/motion/thin-lens.ts) moves a camera-space point seen through lens
// position L by L·(z / focalDistance − 1) in x and y.
// @layout primitive-record

// @layout motion-block
const NO_MOTION: u32 = 0xffffffffu;

// Specialisation (convert-frame.ts motionConstants): a frame without deforming records, or without
// records of more than two motion keys, leaves that code out of its kernels. Evaluating key shapes
// inlines every primitive kind's surface; kept in needlessly it made lavapipe take minutes, not
// seconds, to compile the sampling kernels.
override MOTION_DEFORMS: bool = true;
override MOTION_MANY_KEYS: bool = true;
// False where no record moves within the shutter: every record is then still at compile time, and
// the moving paths of bound/split and sampling fold away.
override MOTION_MOVES: bool = true;

/** Float offset in userCorners of record p's motion block, or NO_MOTION. */
fn motionBlock(p: u32) -> u32 {
  if (!MOTION_MOVES) { return NO_MOTION; }
  let word = bitcast<u32>(prims[p * REC_FLOATS + REC_MOTION]);
  if (word == 0u) { return NO_MOTION; }
  return bitcast<u32>(prims[p * REC_FLOATS + REC_AUX]) + word - 1u;
}

fn motionKeyCount(block: u32) -> u32 { return u32(userCorners[block + MOTION_BLOCK_COUNT]); }

fn motionKeyTime(block: u32, k: u32) -> f32 { return userCorners[block + MOTION_BLOCK_KEYS + k * MOTION_KEY_FLOATS + MOTION_KEY_TIME]; }

/** The column-major matrix at userCorners[at]. */
fn auxMatrix(at: u32) -> mat4x4f {
  var m: mat4x4f;
  for (var c = 0u; c < 4u; c++) {
    m[c] = vec4f(userCorners[at + c * 4u], userCorners[at + c * 4u + 1u], userCorners[at + c * 4u + 2u], userCorners[at + c * 4u + 3u]);
  }
  return m;
}

/** Key k's matrix: it takes a diced point (moved by the key's shape) to camera space at the key. */
fn motionKeyMatrix(block: u32, k: u32) -> mat4x4f {
  return auxMatrix(block + MOTION_BLOCK_KEYS + k * MOTION_KEY_FLOATS + MOTION_KEY_MATRIX);
}

/** Point p through matrix m, divided by w. */
fn transformPoint(m: mat4x4f, p: vec3f) -> vec3f {
  let h = m * vec4f(p, 1.0);
  return h.xyz / h.w;
}

/** Key k's camera-space point for diced point p. */
fn motionKeyPoint(block: u32, k: u32, p: vec3f) -> vec3f {
  return transformPoint(motionKeyMatrix(block, k), p);
}

/** Whether the record of this motion block deforms (carries a shape per key). */
fn motionDeforms(block: u32) -> bool {
  return MOTION_DEFORMS && block != NO_MOTION && bitcast<u32>(userCorners[block + MOTION_BLOCK_SHAPES]) != 0u;
}

/** How far key k's shape moves the diced point of record prim at (u, v) (camera space at the diced
 * time): the key shape's surface there less the record's; nothing where it does not deform. The two
 * surfaces are evaluated at one call site in a loop, which keeps the compiled kernel small. */
fn keyDeformation(prim: u32, block: u32, k: u32, uv: vec2f) -> vec3f {
  var moved = vec3f(0.0);
  // @if MOTION_DEFORMS
  if (!motionDeforms(block)) { return moved; }
  let shape = block + bitcast<u32>(userCorners[block + MOTION_BLOCK_SHAPES]) + k * KEY_SHAPE_FLOATS;
  var q: array<vec3f, 2>;
  for (var s = 0u; s < 2u; s++) {
    var m = objectToCamera(prim);
    var at = prim * REC_FLOATS + REC_GEOMETRY;
    if (s == 1u) {
      m = auxMatrix(shape + KEY_SHAPE_MATRIX);
      at = (shape + KEY_SHAPE_GEOMETRY) | SHAPE_IN_AUX;
    }
    var shape = loadShape(recU(prim, REC_KIND), at);
    q[s] = evalCamera(&shape, m, uv.x, uv.y);
  }
  moved = q[1] - q[0];
  // @endif
  return moved;
}

/** Diced point p at (u, v) of record prim at key k. */
fn keyedPoint(prim: u32, block: u32, k: u32, p: vec3f, uv: vec2f) -> vec3f {
  return motionKeyPoint(block, k, p + keyDeformation(prim, block, k, uv));
}

/** Diced point p at (u, v) of record prim at shutter time t (linear between the keys, held outside them). */
fn movedPoint(prim: u32, block: u32, p: vec3f, uv: vec2f, t: f32) -> vec3f {
  if (block == NO_MOTION) { return p; }
  let n = motionKeyCount(block);
  var k = 0u;
  while (k + 2u < n && motionKeyTime(block, k + 1u) <= t) { k++; }
  if (n < 2u) { return keyedPoint(prim, block, 0u, p, uv); }
  let t0 = motionKeyTime(block, k);
  let t1 = motionKeyTime(block, k + 1u);
  let f = select(0.0, clamp((t - t0) / (t1 - t0), 0.0, 1.0), t1 > t0);
  var ends: array<vec3f, 2>;
  for (var e = 0u; e < 2u; e++) { ends[e] = keyedPoint(prim, block, k + e, p, uv); }
  return mix(ends[0], ends[1], f);
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
