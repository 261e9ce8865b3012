// Sampling of shaded grids. One workgroup per grid, its invocations taking its micropolygons in
// turn (SAMPLE_LANES). A micropolygon is the quad of vertices (i, j), (i+1, j), (i, j+1),
// (i+1, j+1), split in two triangles. Each micropolygon covers the subpixels its raster bound
// touches within the sample region (its cells; fewer for a moving one, see stratum); a subpixel's
// sample location is jittered by a hash of its coordinates (reyes-jitter.wgsl).
//   countSamples: the samples each invocation's micropolygons cover (and, to a counter, test)
//   writeSamples: at the scanned offsets, one sample point per covered sample: key (depth bits,
//                 subpixel index) and colour/opacity
//   opaqueClear / opaqueDepth / opaqueColour / opaqueResolve: the opaque fast path, with atomics
//                 on the subpixel framebuffer (no sample points). The depth pass keeps each
//                 subpixel's nearest depth (atomicMin) and an owner candidate (the micropolygon that
//                 last lowered it, installed by compare-exchange while its depth is the nearest:
//                 becomeCandidate) with its colour, sealed (seal); where a micropolygon meets the
//                 nearest depth (atomicMin hands back its own depth) it marks the subpixel TIED and
//                 appends a tie entry (the opaque-owners layout). opaqueColour then takes each
//                 subpixel once, one invocation per pixel (COLOUR_PIXELS): the candidate's colour
//                 where its seal holds, else the candidate sampled again, or at a TIED subpixel its
//                 tie entries' micropolygons; run again over the tie entries (CHECK_TIES), it finds
//                 ties whose mark a candidate's late store overwrote. What that cannot resolve
//                 (and every tie) widens the tail's walk box, is marked TIED and counted, and the
//                 host walks the micropolygons meeting the box again (opaqueResolve): as the owner
//                 pass (params.mode RESOLVE_OWNERS) giving a TIED subpixel to the lowest
//                 micropolygon id reaching the nearest depth, then as the colour pass
//                 (RESOLVE_COLOURS), which writes that owner's colour and primitive record. The depth
//                 pass adds the sample points it tests (as the count pass counts them) to a counter.
// A sample point's payload carries its primitive record in the colour's w: record + 1, negated for
// a matte (reyes-composite.wgsl reads both); the opacity's w holds its CSG leaf (sample-point.ts).
// Compiled through reyes-sample-pinhole.wgsl or reyes-sample-lens.wgsl (sample.ts picks by camera),
// which define LENS, shareLensStrata and lensStratum.

override MAXV: u32 = 256u;
override OFF_P: u32;
override OFF_NG: u32;
override OFF_CI: u32;
override OFF_OI: u32;
override OFF_U: u32;
override OFF_V: u32;
// OFF_CI names an output variable rather than Ci: its value is multiplied by Oi, so compositing
// weights it by opacity front to back as it does the (premultiplied) colour.
override OUTPUT_VARIABLE: bool = false;
// What the frame's records and camera use (sample.ts, sampleFeatureConstants): a frame without
// trim curves, ClippingPlanes or level-of-detail ranges compiles kernels without their tests.
override TRIMS: bool = true;
override CLIP_PLANES: bool = true;
override DETAIL_LEVELS: bool = true;
// A blurred frame's pixel samples per axis (sample.ts, blurStrataConstants; 0 in a still frame,
// where params holds them): constant, they fold the blur strata's permutation and its divisions
// (reyes-jitter.wgsl), which took a fifth of the blurred depth pass on lavapipe.
override BLUR_NX: u32 = 0u;
override BLUR_NY: u32 = 0u;
// @include reyes-jitter.wgsl
// @layout primitive-record
// @layout ready-piece
// @layout sample-point
// @layout opaque-owners
// @include reyes-surface.wgsl
// @include reyes-motion.wgsl
// @include reyes-trim.wgsl
// @layout clip-planes
// @layout sample-kernel

// SampleParams (src/layout/sample-params.ts)
// @layout sample-params

@group(0) @binding(0) var<uniform> params: SampleParams;
@group(0) @binding(1) var<storage, read> prims: array<f32>;
@group(0) @binding(2) var<storage, read> readyList: array<u32>;
@group(0) @binding(3) var<storage, read> grids: array<f32>;
@group(0) @binding(4) var<storage, read_write> counts: array<u32>;
@group(0) @binding(5) var<storage, read> offsets: array<u32>;
@group(0) @binding(6) var<storage, read_write> keys: array<u32>;
@group(0) @binding(8) var<storage, read_write> payload: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> depthBuffer: array<atomic<u32>>;
@group(0) @binding(10) var<storage, read_write> ownerBuffer: array<atomic<u32>>;
@group(0) @binding(11) var<storage, read_write> colorBuffer: array<vec4f>;
@group(0) @binding(12) var<storage, read_write> idBuffer: array<u32>;
@group(0) @binding(13) var<storage, read_write> sampleCounter: array<atomic<u32>>;
@group(0) @binding(14) var<storage, read> userCorners: array<f32>;  // the records' auxiliary blocks (motion)
// Bound by every pass that builds micropolygons, also where the frame's specialisation
// (kernel-specialise.ts) leaves none of its reads: the entries name it (bindsAux), so that their
// 'auto' layouts keep it.
fn bindsAux() { _ = arrayLength(&userCorners); }
// The depth buffer again, for the passes after the one that writes it (plain loads: atomic ones cost
// more on CPU drivers).
@group(0) @binding(16) var<storage, read> nearestDepth: array<u32>;
// The depth and primitive record buffers as opaqueClear writes them, four subpixels a store (the
// buffers hold whole vec4s: stages/sample.ts subpixelSlots); plain stores: atomic ones cost more
// on CPU drivers, and lavapipe stores lane by lane, a vec4 at the cost of a word.
@group(0) @binding(20) var<storage, read_write> clearedDepth: array<vec4u>;
@group(0) @binding(23) var<storage, read_write> clearedIds: array<vec4u>;
// Per grid, the nearest camera depth of its vertices and its subpixel bound (gridNearest), and the
// grids a sampling region's passes take, in the order they take them: nearest first for the opaque
// path's depth pass, the grids' own order for the count and write passes (stages/sample.ts
// orderNearestFirst, regionGrids).
@group(0) @binding(21) var<storage, read_write> gridNearestDepth: array<f32>;
@group(0) @binding(24) var<storage, read_write> gridSubpixels: array<vec4i>;
@group(0) @binding(22) var<storage, read> nearestFirst: array<u32>;

// The opaque path's owner words (opaque-owners layout), cleared to NO_OWNER: a candidate, the
// complement of an id; TIED, to be resolved from the tie list or by the owner walk, which raises it
// to walked(id) of the lowest id (atomicMax); LISTED, resolved by opaqueColour from the tie list.
// Micropolygon ids (grid * MAXV + micropolygon) stay below WALK_IDS.
const NO_OWNER: u32 = 0u;
const TIED: u32 = 1u;
const LISTED: u32 = 2u;
const WALKED: u32 = 0x40000000u;
const WALK_IDS: u32 = 0x40000000u;
const CANDIDATES: u32 = 0x80000000u;
// params.mode: opaqueResolve's walks, and opaqueColour's passes over pixels and over tie entries.
const RESOLVE_OWNERS: u32 = 0u;
const RESOLVE_COLOURS: u32 = 1u;
const RESOLVE_ALL_OWNERS: u32 = 2u;
const COLOUR_PIXELS: u32 = 0u;
const CHECK_TIES: u32 = 1u;

/** The pixel samples per axis: the pipeline's constants where the frame is blurred. */
fn samplesX() -> u32 {
  return select(params.nx, BLUR_NX, BLUR_NX != 0u);
}

fn samplesY() -> u32 {
  return select(params.ny, BLUR_NY, BLUR_NY != 0u);
}

/** The owner word the owner walk gives micropolygon `id`: higher for a lower id. */
fn walked(id: u32) -> u32 {
  return WALKED | (WALK_IDS - 1u - id);
}

/** With depth of field, a blur stratum's lens cell and the box (x0, y0, x1, y1) of its lens positions
 * on the unit disk, the same for every micropolygon (lensStratum finds them). */
struct LensStratum {
  cell: vec2f,
  box: vec4f,
}

fn lensStratumOf(j: u32) -> LensStratum {
  let cell = lensCell(j, samplesX(), samplesY());
  return LensStratum(cell, lensCellBox(cell, samplesX(), samplesY()));
}

struct Micropolygon {
  valid: bool,
  r: array<vec3f, 4>,       // raster x, y and camera depth of corners 00, 10, 01, 11
  ci: array<vec3f, 4>,
  oi: array<vec3f, 4>,
  flags: u32,
  lod: vec2f,               // the importance interval [lo, hi) of the samples it draws (level of detail)
  lo: vec2i,                // subpixel bound within the region (inclusive)
  hi: vec2i,
  // Moving (motion block at `motion`) or seen through a lens: r is placed per sample point from
  // the camera-space corners p, and the bound covers every time and lens position.
  blurred: bool,
  prim: u32,
  motion: u32,
  p: array<vec3f, 4>,
  uv: array<vec2f, 4>,      // the corners' surface parameters (where a deforming record's shapes are evaluated)
  // With at most two motion keys (at shutter open and close), each corner's homogeneous raster
  // (x, y, w) and camera depth at both: a sample places the corners by interpolating them, which
  // is exact (projection is linear before the divide) and reads no matrices.
  keys: u32,
  open: array<vec4f, 4>,
  close: array<vec4f, 4>,
  spread: vec2f,            // the most the lens moves a corner, in raster pixels
  trim: u32,                // the record's trim block (reyes-trim.wgsl), or NO_TRIM
  st: array<vec2f, 4>,      // with a trim block, the corners' parameters in the record
  zmin: f32,                // the nearest camera depth of its corners at any time
}

fn load3(base: u32, offset: u32, k: u32) -> vec3f {
  return vec3f(grids[base + offset + k], grids[base + offset + MAXV + k], grids[base + offset + 2u * MAXV + k]);
}

/** How many micropolygons grid g has. The kernels' invocations past them return before building
 * one: a Micropolygon is large, and a grid of curves or points fills a few of a workgroup's lanes. */
fn micropolygonCount(g: u32) -> u32 {
  return (readyList[g * PIECE_WORDS + PIECE_NU] - 1u) * (readyList[g * PIECE_WORDS + PIECE_NV] - 1u);
}

/** Micropolygon m (< micropolygonCount(g)) of grid g; its corners' colour only when `shaded` (the
 * passes that find depth or coverage alone neither load nor keep it), their opacity only when
 * `opacity` too (the opaque path's colour is Ci alone, but for an output variable: see OFF_CI). */
fn micropolygon(g: u32, m: u32, shaded: bool, opacity: bool) -> Micropolygon {
  var mp: Micropolygon;
  mp.valid = false;
  let nu = readyList[g * PIECE_WORDS + PIECE_NU];
  let nv = readyList[g * PIECE_WORDS + PIECE_NV];
  let prim = readyList[g * PIECE_WORDS + PIECE_PRIM];
  mp.flags = bitcast<u32>(prims[prim * REC_FLOATS + REC_FLAGS]);
  mp.lod = vec2f(prims[prim * REC_FLOATS + REC_LOD], prims[prim * REC_FLOATS + REC_LOD + 1u]);
  let i = m % (nu - 1u);
  let j = m / (nu - 1u);
  let base = readyList[g * PIECE_WORDS + PIECE_GRID_BASE];
  let corners = array<u32, 4>(j * nu + i, j * nu + i + 1u, (j + 1u) * nu + i, (j + 1u) * nu + i + 1u);
  mp.trim = NO_TRIM;
  // @if TRIMS
  if (TRIMS) { mp.trim = trimBlock(prim); }
  if (mp.trim != NO_TRIM) {
    let piece = g * PIECE_WORDS;
    let uv0 = vec2f(bitcast<f32>(readyList[piece + PIECE_U0]), bitcast<f32>(readyList[piece + PIECE_V0]));
    let uv1 = vec2f(bitcast<f32>(readyList[piece + PIECE_U1]), bitcast<f32>(readyList[piece + PIECE_V1]));
    let step = (uv1 - uv0) / vec2f(f32(nu - 1u), f32(nv - 1u));
    for (var c = 0u; c < 4u; c++) { mp.st[c] = uv0 + vec2f(f32(i + (c & 1u)), f32(j + (c >> 1u))) * step; }
    // Only micropolygons a trim loop crosses test their sample points.
    let cover = trimCover(mp.trim, min(min(mp.st[0], mp.st[1]), min(mp.st[2], mp.st[3])), max(max(mp.st[0], mp.st[1]), max(mp.st[2], mp.st[3])));
    if (cover == TRIM_REMOVED) { return mp; }
    if (cover == TRIM_KEPT) { mp.trim = NO_TRIM; }
  }
  // @endif
  var zmin = 3.0e38;
  var zmax = -3.0e38;
  var rlo = vec2f(3.0e38);
  var rhi = vec2f(-3.0e38);
  mp.prim = prim;
  mp.motion = motionBlock(prim);
  mp.blurred = mp.motion != NO_MOTION || (LENS && params.lensRadius > 0.0);
  // Every key of the motion (the diced position alone when it does not move), the lens's spread
  // around each: the moved and lensed corners of any sample lie within (a segment between keys
  // projects inside its ends' projections, and for one lens position the lens moves it linearly).
  var keyCount = 1u;
  // @if MOTION_MOVES
  keyCount = select(1u, motionKeyCount(mp.motion), mp.motion != NO_MOTION);
  // @endif
  mp.keys = keyCount;
  let pixelsPerUnit = abs(vec2f(params.cameraToRaster[0].x, params.cameraToRaster[1].y));
  for (var c = 0u; c < 4u; c++) {
    mp.p[c] = load3(base, OFF_P, corners[c]);
    mp.uv[c] = vec2f(grids[base + OFF_U + corners[c]], grids[base + OFF_V + corners[c]]);
    if (shaded) {
      mp.ci[c] = load3(base, OFF_CI, corners[c]);
      if (opacity) { mp.oi[c] = load3(base, OFF_OI, corners[c]); }
    }
  }
  for (var k = 0u; k < keyCount; k++) {
    // Each key's matrix is read once for the four corners (keyedPoint reads it per point).
    var key: mat4x4f;
    // @if MOTION_MOVES
    if (mp.motion != NO_MOTION) { key = motionKeyMatrix(mp.motion, k); }
    // @endif
    for (var c = 0u; c < 4u; c++) {
      var p = mp.p[c];
      // @if MOTION_MOVES
      if (mp.motion != NO_MOTION) { p = transformPoint(key, p + keyDeformation(prim, mp.motion, k, mp.uv[c])); }
      // @endif
      let h = params.cameraToRaster * vec4f(p, 1.0);
      if (h.w <= 0.0) { return mp; }
      let xy = h.xy / h.w;
      let spread = lensSpread(p.z, params.lensRadius, params.focalDistance) * pixelsPerUnit / h.w;
      mp.r[c] = vec3f(xy, p.z);
      if (k == 0u) { mp.open[c] = vec4f(h.xyw, p.z); }
      if (k + 1u == keyCount) { mp.close[c] = vec4f(h.xyw, p.z); }
      zmin = min(zmin, p.z);
      zmax = max(zmax, p.z);
      rlo = min(rlo, xy - spread);
      rhi = max(rhi, xy + spread);
      mp.spread = max(mp.spread, spread);
    }
  }
  if (zmax < params.near || zmin > params.far) { return mp; }
  mp.zmin = zmin;
  // One-sided: a sample is culled by the winding of the triangle it falls in (triangle), which
  // parts the front of a closed surface from its back exactly (corner 0's normal alone culled whole
  // micropolygons near contours that partly face the eye: pinholes). A micropolygon is dropped here
  // where neither triangle faces the eye; a moving or lensed one, whose winding may change within
  // the shutter or across the lens, where its normal at corner 0 faces away.
  if ((mp.flags & FLAG_TWO_SIDED) == 0u) {
    if (mp.blurred) {
      let eye = select(load3(base, OFF_P, corners[0]), vec3f(0.0, 0.0, 1.0), params.perspective == 0u);
      if (dot(load3(base, OFF_NG, corners[0]), eye) > 0.0) { return mp; }
    } else if (facesAway(&mp, 0u, 1u, 3u) && facesAway(&mp, 0u, 3u, 2u)) { return mp; }
  }
  let scale = vec2f(f32(samplesX()), f32(samplesY()));
  let origin = vec2i(params.originX, params.originY);
  let lo = max(vec2i(floor(rlo * scale)), origin);
  let hi = min(vec2i(floor(rhi * scale)), origin + vec2i(i32(params.width), i32(params.height)) - vec2i(1));
  if (any(hi < lo)) { return mp; }
  mp.lo = lo;
  mp.hi = hi;
  mp.valid = true;
  return mp;
}

struct Hit {
  covered: bool,
  back: bool,               // the triangle is seen from behind (its Ng faces away from the eye)
  depth: f32,
  ci: vec3f,
  oi: vec3f,
}

fn edge(a: vec2f, b: vec2f, p: vec2f) -> f32 {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

/** `edge` computed from the endpoints in one fixed order, so that b → a gives exactly the negated
 * value: two triangles that share an edge see the same number for a sample point. */
fn edgeValue(a: vec2f, b: vec2f, p: vec2f) -> f32 {
  if (a.x < b.x || (a.x == b.x && a.y < b.y)) { return edge(a, b, p); }
  return -edge(b, a, p);
}

/** Whether p lies on the positive side of directed edge a → b. A point exactly on the line counts
 * as moved by (ε, ε²): of the triangles that share an edge or a vertex, exactly one takes it. */
fn inside(a: vec2f, b: vec2f, p: vec2f) -> bool {
  let e = edgeValue(a, b, p);
  if (e != 0.0) { return e > 0.0; }
  let d = b - a;
  if (d.y != 0.0) { return d.y < 0.0; }
  return d.x > 0.0;
}

/** Whether the camera-space point seen at raster position q at depth z is on the clipped side of a
 * ClippingPlane (per sample point, so clipped edges are exact). cameraToRaster only scales and offsets x
 * and y (w = z in perspective, 1 in orthographic), so the point follows from q and z. */
fn clipped(q: vec2f, z: f32) -> bool {
  if (!CLIP_PLANES || params.clipCount == 0u) { return false; }
  let m = params.cameraToRaster;
  let w = m[2].w * z + m[3].w;
  let p = vec3f((q.x * w - m[2].x * z - m[3].x) / m[0].x, (q.y * w - m[2].y * z - m[3].y) / m[1].y, z);
  for (var k = 0u; k < params.clipCount; k++) {
    let plane = params.clipPlanes[k];
    if (dot(plane.xyz, p) + plane.w > 0.0) { return true; }
  }
  return false;
}

/** Whether triangle (a, b, c) of the micropolygon, at its diced raster corners, is seen from behind
 * or edge-on (as `triangle` judges a sample's). */
fn facesAway(mp: ptr<function, Micropolygon>, a: u32, b: u32, c: u32) -> bool {
  let area = edge((*mp).r[a].xy, (*mp).r[b].xy, (*mp).r[c].xy);
  return abs(area) < 1.0e-12 || ((area < 0.0) != (((*mp).flags & FLAG_FLIP_NORMAL) != 0u));
}

/** Coverage of the sample at raster position q by triangle (a, b, c) of the micropolygon. */
fn triangle(mp: ptr<function, Micropolygon>, r: ptr<function, array<vec3f, 4>>, a: u32, b: u32, c: u32, q: vec2f) -> Hit {
  var hit: Hit;
  hit.covered = false;
  let pa = (*r)[a].xy;
  let pb = (*r)[b].xy;
  let pc = (*r)[c].xy;
  let area = edge(pa, pb, pc);
  if (abs(area) < 1.0e-12) { return hit; }
  // Edges walked counter-clockwise (positive area), so the interior is on each one's positive side.
  if (area > 0.0) {
    if (!inside(pa, pb, q) || !inside(pb, pc, q) || !inside(pc, pa, q)) { return hit; }
  } else if (!inside(pb, pa, q) || !inside(pc, pb, q) || !inside(pa, pc, q)) { return hit; }
  let wa = clamp(edgeValue(pb, pc, q) / area, 0.0, 1.0);
  let wb = clamp(edgeValue(pc, pa, q) / area, 0.0, 1.0 - wa);
  let wc = 1.0 - wa - wb;
  hit.depth = wa * (*r)[a].z + wb * (*r)[b].z + wc * (*r)[c].z;
  if (hit.depth < params.near || hit.depth > params.far) { return hit; }
  // @if CLIP_PLANES
  if (clipped(q, hit.depth)) { return hit; }
  // @endif
  // Trimmed per sample point at its parameters within the micropolygon.
  // @if TRIMS
  if ((*mp).trim != NO_TRIM && trimmedAway((*mp).trim, wa * (*mp).st[a] + wb * (*mp).st[b] + wc * (*mp).st[c])) { return hit; }
  // @endif
  // Raster y points down, so a triangle whose dPdu × dPdv faces the eye winds with positive area.
  hit.back = (area < 0.0) != (((*mp).flags & FLAG_FLIP_NORMAL) != 0u);
  if (hit.back && ((*mp).flags & FLAG_TWO_SIDED) == 0u) { return hit; }
  hit.covered = true;
  if (((*mp).flags & FLAG_SMOOTH) != 0u) {
    hit.ci = wa * (*mp).ci[a] + wb * (*mp).ci[b] + wc * (*mp).ci[c];
    hit.oi = wa * (*mp).oi[a] + wb * (*mp).oi[b] + wc * (*mp).oi[c];
  } else {
    hit.ci = 0.25 * ((*mp).ci[0] + (*mp).ci[1] + (*mp).ci[2] + (*mp).ci[3]);
    hit.oi = 0.25 * ((*mp).oi[0] + (*mp).oi[1] + (*mp).oi[2] + (*mp).oi[3]);
  }
  if (OUTPUT_VARIABLE) { hit.ci *= hit.oi; }
  return hit;
}

/** The level-of-detail importance of subpixel (sx, sy) in [0, 1): a hash of its coordinates apart from
 * the jitter's, the same for every primitive, so representations whose importance intervals
 * partition [0, 1) share out the samples (src/reyes/convert/level-of-detail.ts). */
fn detailImportance(sx: i32, sy: i32) -> f32 {
  return f32(hashU32(hashU32(bitcast<u32>(sx) + 0x632be5abu) ^ bitcast<u32>(sy)) >> 8u) / 16777216.0;
}

/** The sample of `cell` in stratum `st`, at its shutter time where the micropolygon moves and its
 * lens position where the camera has a lens (reyes-jitter.wgsl). The micropolygon goes by pointer:
 * a copy of its corner arrays per call makes the kernel many times larger and slower to compile
 * (lavapipe took minutes per pipeline). */
fn sampleAt(mp: ptr<function, Micropolygon>, st: ptr<function, Stratum>, cell: Cell) -> Hit {
  var none: Hit;
  none.covered = false;
  let sx = cell.subpixel.x;
  let sy = cell.subpixel.y;
  // @if DETAIL_LEVELS
  if (DETAIL_LEVELS && ((*mp).lod.x > 0.0 || (*mp).lod.y < 1.0)) {
    let importance = detailImportance(sx, sy);
    if (importance < (*mp).lod.x || importance >= (*mp).lod.y) { return none; }
  }
  // @endif
  let q = (vec2f(f32(sx), f32(sy)) + jitter(sx, sy)) / vec2f(f32(samplesX()), f32(samplesY()));
  var r = (*mp).r;
  // @if MOTION_MOVES || LENS
  if ((*mp).blurred) {
    // Outside the stratum's box the micropolygon cannot cover the sample: skip placing its corners.
    if (any(q < (*st).box.xy) || any(q > (*st).box.zw)) { return none; }
    var time = 0.0;
    var lens = vec2f(0.0);
    if ((*mp).motion != NO_MOTION) { time = stratumTime(cell.pixel, (*st).j, strata(mp)); }
    if (params.lensRadius > 0.0) { lens = lensPosition(cell.pixel, (*st).j, (*st).lensCell, samplesX(), samplesY()); }
    if (!placeCorners(mp, time, lens, &r)) { return none; }
  }
  // @endif
  let first = triangle(mp, &r, 0u, 1u, 3u, q);
  if (first.covered) { return first; }
  return triangle(mp, &r, 0u, 3u, 2u, q);
}

/** The raster corners where a sample sees the micropolygon: moved to the sample's shutter time and
 * seen through its lens position (unit disk; reyes-jitter.wgsl); false where a corner gets behind
 * the eye. */
fn placeCorners(mp: ptr<function, Micropolygon>, time: f32, lensOnDisk: vec2f, r: ptr<function, array<vec3f, 4>>) -> bool {
  var visible = true;
  let lens = params.lensRadius * lensOnDisk;
  let pixelsPerUnit = vec2f(params.cameraToRaster[0].x, params.cameraToRaster[1].y);
  for (var c = 0u; c < 4u; c++) {
    var h: vec4f;
    if (!MOTION_MANY_KEYS || (*mp).keys <= 2u) {
      h = mix((*mp).open[c], (*mp).close[c], time);
    } else {
      let p = movedPoint((*mp).prim, (*mp).motion, (*mp).p[c], (*mp).uv[c], time);
      h = vec4f((params.cameraToRaster * vec4f(p, 1.0)).xyw, p.z);
    }
    // The lens moves the camera-space point by lens·(z / focalDistance − 1) in x and y.
    if (params.lensRadius > 0.0) { h = vec4f(h.xy + pixelsPerUnit * throughLensShift(h.w, lens, params.focalDistance), h.zw); }
    if (h.z <= 0.0) { visible = false; }
    (*r)[c] = vec3f(h.xy / h.z, h.w);
  }
  return visible;
}

// The cells a micropolygon visits: the subpixels of its bound when it is still and seen through a
// pinhole (one pass); when it moves or is seen through a lens, for each blur stratum j the pixels
// its bound over that stratum's times and lens cell touches, a pixel standing for its one subpixel
// in stratum j (reyes-jitter.wgsl), and only where that subpixel lies within the bound. So a
// blurred micropolygon tests about as many samples as a still one, not all of its blurred bound.
// What is the same for every pixel of a stratum (its box, lens cell) is found once per stratum, the
// corners' images at a time shared by the strata that meet there, the lens strata once per dispatch
// (shareLensStrata), each pixel's hash once per cell. Skipping a cell saves little on SIMD hardware
// (lavapipe included): the lanes of a group walk together and test whenever one of them does, so
// what counts is how many cells the walk visits (tight boxes) and what each visit costs.

fn strata(mp: ptr<function, Micropolygon>) -> u32 {
  return select(1u, samplesX() * samplesY(), (*mp).blurred);
}

/** Stratum j of a micropolygon's walk. */
struct Stratum {
  j: u32,
  box: vec4f,               // raster box (x0, y0, x1, y1) of the corners at its times and lens positions
  cells: vec4i,             // the cells to visit (x0, y0, x1, y1, inclusive): pixels, or subpixels when still
  lensCell: vec2f,          // its lens cell (lensCell), with depth of field
}

/** A visited cell: its subpixel (x = NO_CELL where it is not tested) and, blurred, its pixel's hash. */
struct Cell {
  subpixel: vec2i,
  pixel: u32,
}

/** Each corner of a blurred micropolygon at shutter time t: its raster position and how far the
 * lens moves it per unit of lens position on the disk, (x, y, shift x, shift y) (placeCorners). */
fn cornerImages(mp: ptr<function, Micropolygon>, t: f32) -> array<vec4f, 4> {
  var images: array<vec4f, 4>;
  if (!(*mp).blurred) { return images; }
  // @if MOTION_MOVES || LENS
  let pixelsPerUnit = vec2f(params.cameraToRaster[0].x, params.cameraToRaster[1].y);
  for (var c = 0u; c < 4u; c++) {
    let h = mix((*mp).open[c], (*mp).close[c], t);
    let shift = pixelsPerUnit * params.lensRadius * (h.w / params.focalDistance - 1.0);
    images[c] = vec4f(h.xy, shift) / h.z;
  }
  // @endif
  return images;
}

/** Stratum j of the micropolygon, `first` holding its corner images (cornerImages) at the stratum's
 * first time, replaced by those at its last (the next stratum's first). Its box holds the corners at
 * every time and lens position of the stratum: corners move linearly in homogeneous raster space,
 * and for one lens position the lens moves them linearly too (placeCorners), so over the stratum
 * each stays within its boxes at the stratum's first and last time. The box is padded by a
 * thousandth of a pixel so that rounding in placeCorners cannot take a covered sample outside it. */
fn stratum(mp: ptr<function, Micropolygon>, j: u32, first: ptr<function, array<vec4f, 4>>) -> Stratum {
  var st: Stratum;
  st.j = j;
  if (!(*mp).blurred) {
    st.cells = vec4i((*mp).lo, (*mp).hi);
    return st;
  }
  // @if MOTION_MOVES || LENS
  let n = vec2f(f32(samplesX()), f32(samplesY()));
  // The stratum's lens positions: within lensMid ± lensHalf on the unit disk.
  var lensMid = vec2f(0.0);
  var lensHalf = vec2f(0.0);
  if (params.lensRadius > 0.0) {
    let stratum = lensStratum(j);
    st.lensCell = stratum.cell;
    let lens = stratum.box;
    lensMid = 0.5 * (lens.xy + lens.zw);
    lensHalf = 0.5 * (lens.zw - lens.xy);
  }
  if (MOTION_MANY_KEYS && (*mp).keys > 2u) {
    st.box = vec4f(vec2f((*mp).lo) / n, vec2f((*mp).hi + vec2i(1)) / n);
  } else {
    var last = *first;
    if ((*mp).motion != NO_MOTION) { last = cornerImages(mp, f32(j + 1u) / f32(strata(mp))); }
    var lo = vec2f(3.0e38);
    var hi = vec2f(-3.0e38);
    for (var c = 0u; c < 4u; c++) {
      for (var e = 0u; e < 2u; e++) {
        let image = select((*first)[c], last[c], e == 1u);
        let centre = image.xy + image.zw * lensMid;
        let reach = abs(image.zw) * lensHalf;
        lo = min(lo, centre - reach);
        hi = max(hi, centre + reach);
      }
    }
    *first = last;
    let pad = vec2f(1.0e-3) + 1.0e-6 * max(abs(lo), abs(hi));
    st.box = vec4f(lo - pad, hi + pad);
  }
  // Pixels of the bound's subpixels, rounded down (the filter margin's subpixels are negative).
  let bl = vec2i(floor(vec2f((*mp).lo) / n));
  let bh = vec2i(floor(vec2f((*mp).hi) / n));
  st.cells = vec4i(max(bl, vec2i(floor(st.box.xy))), min(bh, vec2i(floor(st.box.zw))));
  // @endif
  return st;
}

/** A cell's subpixel outside the sample region or the stratum's box. Subpixel coordinates may be
 * negative (the region's filter margin left of and above the image), so the marker is no
 * coordinate a region can hold. */
const NO_CELL: i32 = -2147483647;

/** Cell (x, y) of stratum `st`: for a blurred micropolygon pixel (x, y)'s subpixel in the stratum,
 * not tested (NO_CELL) where it lies outside the sample region or its square misses the stratum's
 * box. */
fn cellAt(mp: ptr<function, Micropolygon>, st: ptr<function, Stratum>, x: i32, y: i32) -> Cell {
  var cell: Cell;
  cell.subpixel = vec2i(x, y);
  if (!(*mp).blurred) { return cell; }
  // @if MOTION_MOVES || LENS
  let pixel = pixelHash(x, y);
  let s = stratumSubpixel(pixel, x, y, (*st).j, samplesX(), samplesY());
  let n = vec2f(f32(samplesX()), f32(samplesY()));
  let square = vec2f(s) / n;
  // The micropolygon's subpixel bound lies within the region.
  if (any(s < (*mp).lo) || any(s > (*mp).hi) || any(square + 1.0 / n <= (*st).box.xy) || any(square > (*st).box.zw)) {
    cell.subpixel = vec2i(NO_CELL);
    return cell;
  }
  cell.subpixel = s;
  cell.pixel = pixel;
  // @endif
  return cell;
}

/** The samples the micropolygon covers (x) and tests (y, its cells within the region). */
fn coveredCells(mp: ptr<function, Micropolygon>) -> vec2u {
  var count = vec2u(0u);
  var ends = cornerImages(mp, 0.0);
  for (var j = 0u; j < strata(mp); j++) {
    var st = stratum(mp, j, &ends);
    for (var y = st.cells.y; y <= st.cells.w; y++) {
      for (var x = st.cells.x; x <= st.cells.z; x++) {
        let cell = cellAt(mp, &st, x, y);
        if (cell.subpixel.x == NO_CELL) { continue; }
        count.y++;
        if (sampleAt(mp, &st, cell).covered) { count.x++; }
      }
    }
  }
  return count;
}

/** Whether the micropolygon lies wholly behind a subpixel's nearest depth (bits `nearest`): its
 * samples there need no test. With a margin, for the rounding of a depth interpolated between
 * its corners. */
fn hidden(mp: ptr<function, Micropolygon>, nearest: u32) -> bool {
  let depth = bitcast<f32>(nearest);
  return (*mp).zmin - depth > 1.0e-5 * abs(depth);
}

fn localSubpixel(sx: i32, sy: i32) -> u32 {
  return u32(sy - params.originY) * params.width + u32(sx - params.originX);
}

/** Invocations per sampling workgroup (one workgroup per grid), each taking every SAMPLE_LANES-th
 * micropolygon. Fewer than a grid's vertices: grids of curves, points and small patches hold a few
 * micropolygons, and idle lanes still cost a CPU driver their setup (SwiftShader: about 1 ms a
 * workgroup of MAXV lanes). */
// SAMPLE_LANES and COLOUR_LANES: the sample-kernel layout (src/layout/sample-params.ts).

// The count and write passes' sample points go per (grid, lane): lane l of grid g writes those of
// its micropolygons (l, l + SAMPLE_LANES, ...) one after another from offsets[g * SAMPLE_LANES + l],
// the scan of the count pass's counts in that layout (a word per lane, not per micropolygon slot: a
// third of the scan and of the memory). Only covered samples are counted and written: the count
// pass tests each sample as the write pass does (and adds the samples it tests to the counter), so
// the composite stage neither stores nor sorts the misses, about half of the cells tested. The
// write pass keeps within the lane's count all the same, and fills what it leaves of it with
// misses: two kernels compiled apart may round a sample on an edge apart.

@compute @workgroup_size(SAMPLE_LANES)
fn countSamples(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) lane: u32) {
  let w = group.x + group.y * groups.x;
  if (w >= params.gridCount) { return; }
  let g = nearestFirst[w];
  shareLensStrata(lane);
  bindsAux();
  var count = vec2u(0u);
  for (var m = lane; m < micropolygonCount(g); m += SAMPLE_LANES) {
    var mp = micropolygon(g, m, false, false);
    if (mp.valid) { count += coveredCells(&mp); }
  }
  counts[g * SAMPLE_LANES + lane] = count.x;
  // Per invocation rather than summed in workgroup memory first (see opaqueDepthOf).
  if (count.y > 0u) { atomicAdd(&sampleCounter[0], count.y); }
}

@compute @workgroup_size(SAMPLE_LANES)
fn writeSamples(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) lane: u32) {
  let w = group.x + group.y * groups.x;
  if (w >= params.gridCount) { return; }
  let g = nearestFirst[w];
  shareLensStrata(lane);
  bindsAux();
  var at = offsets[g * SAMPLE_LANES + lane];
  let end = at + counts[g * SAMPLE_LANES + lane];
  for (var m = lane; m < micropolygonCount(g); m += SAMPLE_LANES) { at = writeMicropolygonSamples(g, m, at, end); }
  for (; at < end; at++) { writeMiss(at); }
}

/** A sample point that composites to nothing (its key all-ones, sorted last). */
fn writeMiss(at: u32) {
  keys[at * SAMPLE_KEY_WORDS + SAMPLE_KEY_DEPTH] = 0xffffffffu;
  keys[at * SAMPLE_KEY_WORDS + SAMPLE_KEY_SUBPIXEL] = 0xffffffffu;
}

/** writeSamples for micropolygon m of grid g, its covered sample points from `first`, before `end`;
 * returns where the next micropolygon's start. */
fn writeMicropolygonSamples(g: u32, m: u32, first: u32, end: u32) -> u32 {
  var mp = micropolygon(g, m, true, true);
  if (!mp.valid) { return first; }
  var at = first;
  let record = f32(readyList[g * PIECE_WORDS + PIECE_PRIM] + 1u);
  let tag = select(record, -record, (mp.flags & FLAG_MATTE) != 0u);
  // The CSG leaf (sample-point.ts), negated on a back face: compositing tracks what each ray is inside.
  let leaf = f32(bitcast<u32>(prims[readyList[g * PIECE_WORDS + PIECE_PRIM] * REC_FLOATS + REC_SOLID]));
  var ends = cornerImages(&mp, 0.0);
  for (var j = 0u; j < strata(&mp); j++) {
    var st = stratum(&mp, j, &ends);
    for (var y = st.cells.y; y <= st.cells.w; y++) {
      for (var x = st.cells.x; x <= st.cells.z; x++) {
        let cell = cellAt(&mp, &st, x, y);
        if (cell.subpixel.x == NO_CELL) { continue; }
        let hit = sampleAt(&mp, &st, cell);
        if (!hit.covered || at >= end) { continue; }
        keys[at * SAMPLE_KEY_WORDS + SAMPLE_KEY_DEPTH] = bitcast<u32>(hit.depth);
        keys[at * SAMPLE_KEY_WORDS + SAMPLE_KEY_SUBPIXEL] = localSubpixel(cell.subpixel.x, cell.subpixel.y);
        payload[at * SAMPLE_PAYLOAD_VEC4S + SAMPLE_PAYLOAD_COLOR] = vec4f(hit.ci, tag);
        payload[at * SAMPLE_PAYLOAD_VEC4S + SAMPLE_PAYLOAD_OPACITY] = vec4f(hit.oi, select(leaf, -leaf, hit.back));
        at++;
      }
    }
  }
  return at;
}

/** The opaque path's subpixel buffers before its passes, an equal span of subpixels a workgroup
 * (the host dispatches few: CPU drivers pay for each workgroup more than for its stores): no depth
 * (the largest finite one), no primitive record (the host clears the owner words to NO_OWNER). On
 * the GPU: filled on the CPU and uploaded, they cost more than the passes' setup on large regions. */
@compute @workgroup_size(64)
fn opaqueClear(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let total = (params.width * params.height + 3u) / 4u;
  let span = (total + groups.x * groups.y - 1u) / (groups.x * groups.y);
  let first = (group.x + group.y * groups.x) * span;
  let end = min(first + span, total);
  for (var s = first + local; s < end; s += 64u) {
    clearedDepth[s] = vec4u(0x7f7fffffu);
    clearedIds[s] = vec4u(0xffffffffu);
  }
}

/** Invocation g: the nearest camera depth of grid g's vertices (as diced: at the shutter's open)
 * and, in a still frame seen through a pinhole, the subpixels (global, inclusive, one more all
 * round) its vertices' raster bound covers: every micropolygon of the grid tests subpixels within it
 * (micropolygon), so a sampling region it misses need not take the grid. Elsewhere, or where a
 * vertex is behind the eye, every subpixel. */
@compute @workgroup_size(64)
fn gridNearest(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let g = (group.x + group.y * groups.x) * 64u + local;
  if (g >= params.gridCount) { return; }
  let n = readyList[g * PIECE_WORDS + PIECE_NU] * readyList[g * PIECE_WORDS + PIECE_NV];
  let base = readyList[g * PIECE_WORDS + PIECE_GRID_BASE];
  var nearest = 3.0e38;
  var lo = vec2f(3.0e38);
  var hi = vec2f(-3.0e38);
  var behind = false;
  for (var k = 0u; k < n; k++) {
    let p = load3(base, OFF_P, k);
    nearest = min(nearest, p.z);
    let h = params.cameraToRaster * vec4f(p, 1.0);
    behind = behind || h.w <= 0.0;
    lo = min(lo, h.xy / h.w);
    hi = max(hi, h.xy / h.w);
  }
  gridNearestDepth[g] = nearest;
  var box = vec4i(-0x7fffffff, -0x7fffffff, 0x7fffffff, 0x7fffffff);
  // (A bound past ±1e30 pixels, or none, the comparisons' NaN included, stays every subpixel.)
  if (!MOTION_MOVES && !LENS && !behind && all(lo >= vec2f(-1.0e30)) && all(hi <= vec2f(1.0e30))) {
    let scale = vec2f(f32(samplesX()), f32(samplesY()));
    let limit = vec2f(2.0e9);
    box = vec4i(vec4f(clamp(floor(lo * scale) - 1.0, -limit, limit), clamp(floor(hi * scale) + 1.0, -limit, limit)));
  }
  gridSubpixels[g] = box;
}

/** Workgroup w: the grid nearestFirst[w] (the grids nearest first). */
@compute @workgroup_size(SAMPLE_LANES)
fn opaqueDepth(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) lane: u32) {
  let w = group.x + group.y * groups.x;
  if (w >= params.gridCount) { return; }
  let g = nearestFirst[w];
  shareLensStrata(lane);
  bindsAux();
  for (var m = lane; m < micropolygonCount(g); m += SAMPLE_LANES) { opaqueDepthOf(g, m); }
}

/** opaqueDepth for micropolygon m of grid g. */
fn opaqueDepthOf(g: u32, m: u32) {
  var mp = micropolygon(g, m, true, OUTPUT_VARIABLE);
  if (mp.valid) {
    let word = ~(g * MAXV + m);  // its owner word
    // The cells tested are counted as they are walked (as coveredCells counts them).
    var count = 0u;
    var ends = cornerImages(&mp, 0.0);
    for (var j = 0u; j < strata(&mp); j++) {
      var st = stratum(&mp, j, &ends);
      for (var y = st.cells.y; y <= st.cells.w; y++) {
        for (var x = st.cells.x; x <= st.cells.z; x++) {
          let cell = cellAt(&mp, &st, x, y);
          // The depth is read before cellAt's verdict is acted on, a rejected cell reading its
          // pixel's first subpixel (in the region too): a CPU driver reads a storage buffer lane by
          // lane, branching on each lane's mask, which the verdicts of a blurred walk make as good
          // as random (lavapipe: the blurred depth pass of bench:blur 14% faster).
          let read = select(cell.subpixel, vec2i(x, y) * vec2i(i32(samplesX()), i32(samplesY())), cell.subpixel.x == NO_CELL);
          let s = localSubpixel(read.x, read.y);
          let seen = atomicLoad(&depthBuffer[s]);
          if (cell.subpixel.x == NO_CELL) { continue; }
          count++;
          // Behind what the subpixel holds (mostly, the grids coming nearest first): no test.
          if (hidden(&mp, seen)) { continue; }
          let hit = sampleAt(&mp, &st, cell);
          // A sample behind the depth seen can neither lower the subpixel's depth nor tie with it
          // (depths only fall): no atomicMin, which CPU drivers make a compare-exchange loop.
          if (hit.covered && bitcast<u32>(hit.depth) <= seen) {
            let depth = bitcast<u32>(hit.depth);
            let met = atomicMin(&depthBuffer[s], depth);
            // The candidate's store comes first: a tie met in the same SIMD step then sees it.
            if (met > depth && becomeCandidate(s, word, depth)) {
              colorBuffer[s] = vec4f(hit.ci, bitcast<f32>(seal(word, depth, hit.ci)));
            }
            if (met == depth) { appendTie(s, word); }
          }
        }
      }
    }
    // Per invocation rather than summed in workgroup memory first: a kernel without workgroup
    // memory needs no barrier (see reyes-sample-pinhole.wgsl).
    if (count > 0u) { atomicAdd(&sampleCounter[0], count); }
  }
}

@compute @workgroup_size(SAMPLE_LANES)
fn opaqueResolve(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                 @builtin(local_invocation_index) lane: u32) {
  let g = group.x + group.y * groups.x;
  if (g >= params.gridCount) { return; }
  shareLensStrata(lane);
  bindsAux();
  for (var m = lane; m < micropolygonCount(g); m += SAMPLE_LANES) { opaqueResolveOf(g, m, params.mode); }
}

/** Makes owner word `word`, which lowered subpixel s's depth to `depth`, its candidate unless a
 * nearer sample lowers it further first: by compare-exchange against the word last seen, so that a
 * farther micropolygon's store cannot land over a nearer one's (a plain store could, leaving the
 * candidate stale). Whether it did. */
fn becomeCandidate(s: u32, word: u32, depth: u32) -> bool {
  var seen = atomicLoad(&ownerBuffer[s]);
  loop {
    if (atomicLoad(&depthBuffer[s]) != depth) { return false; }
    let swap = atomicCompareExchangeWeak(&ownerBuffer[s], seen, word);
    if (swap.exchanged) { return true; }
    seen = swap.old_value;
  }
}

/** A check word over a candidate (owner word `word`), its depth bits and its colour,
 * which the depth pass stores in the colour's w beside the candidate: where opaqueColour finds the
 * word over the subpixel's owner word, nearest depth and colour, the candidate that reached the
 * nearest depth wrote them all, and the colour needs no second sample. A store of another
 * micropolygon torn in between, or a stale candidate, fails the check (but for a 2^-29 chance) and
 * the candidate is sampled again. Exponent bits kept off all-ones and zero: a NaN's or a denormal's
 * bits may not survive a float store. */
fn seal(word: u32, depth: u32, colour: vec3f) -> u32 {
  let bits = bitcast<vec3u>(colour);
  let h = hashU32(word ^ hashU32(depth ^ bits.x ^ ((bits.y << 11u) | (bits.y >> 21u)) ^ ((bits.z << 22u) | (bits.z >> 10u))));
  return (h & 0x3fffffffu) | 0x00800000u;
}

/** Marks subpixel s TIED, counts the tie and appends its tie entry for the micropolygon of owner
 * word `tier`; the walk box takes the subpixel in (a region with more ties than the list holds is
 * walked there). */
fn appendTie(s: u32, tier: u32) {
  let tail = params.width * params.height;
  let e = atomicAdd(&ownerBuffer[tail + OWNER_TAIL_TIES], 1u);
  widenWalkBox(s);
  let replaced = atomicExchange(&ownerBuffer[s], TIED);
  if (e >= TIE_ENTRIES) { return; }
  let at = tail + OWNER_TAIL_ENTRIES + e * TIE_ENTRY_WORDS;
  atomicStore(&ownerBuffer[at + TIE_ENTRY_SUBPIXEL], s);
  atomicStore(&ownerBuffer[at + TIE_ENTRY_TIER], tier);
  atomicStore(&ownerBuffer[at + TIE_ENTRY_REPLACED], replaced);
}

/** opaqueResolve's pass `resolve` for micropolygon m of grid g, if it meets the walk box, at each
 * subpixel where its sample reaches the nearest depth: RESOLVE_OWNERS gives a TIED subpixel to it if
 * its id is the lowest so far (RESOLVE_ALL_OWNERS any subpixel, the owner words cleared: a region
 * with more ties than its list holds), and RESOLVE_COLOURS writes its colour where it is the owner
 * (the walk's, or the only micropolygon there once the owner words are cleared). */
fn opaqueResolveOf(g: u32, m: u32, resolve: u32) {
  var mp = micropolygon(g, m, resolve == RESOLVE_COLOURS, OUTPUT_VARIABLE);
  if (!mp.valid || !meetsWalkBox(&mp)) { return; }
  let id = walked(g * MAXV + m);
  var ends = cornerImages(&mp, 0.0);
  for (var j = 0u; j < strata(&mp); j++) {
    var st = stratum(&mp, j, &ends);
    for (var y = st.cells.y; y <= st.cells.w; y++) {
      for (var x = st.cells.x; x <= st.cells.z; x++) {
        let cell = cellAt(&mp, &st, x, y);
        if (cell.subpixel.x == NO_CELL) { continue; }
        let s = localSubpixel(cell.subpixel.x, cell.subpixel.y);
        let nearest = nearestDepth[s];
        let owner = atomicLoad(&ownerBuffer[s]);
        // The owner pass tests only subpixels it resolves; the colour pass where it may own one.
        if (resolve == RESOLVE_OWNERS && owner != TIED && (owner & (CANDIDATES | WALKED)) != WALKED) { continue; }
        if (resolve == RESOLVE_COLOURS && owner != NO_OWNER && owner != id) { continue; }
        if (hidden(&mp, nearest)) { continue; }
        let hit = sampleAt(&mp, &st, cell);
        if (!hit.covered || bitcast<u32>(hit.depth) != nearest) { continue; }
        if (resolve != RESOLVE_COLOURS) {
          atomicMax(&ownerBuffer[s], id);
        } else {
          writeOpaqueColour(mp.flags, mp.prim, s, hit);
        }
      }
    }
  }
}

/** The colour and primitive record of subpixel s, seen on a micropolygon of record `prim` with
 * record flags `flags`. A matte is opaque, and where it is seen the picture is transparent
 * (reyes-composite.wgsl). */
fn writeOpaqueColour(flags: u32, prim: u32, s: u32, hit: Hit) {
  colorBuffer[s] = select(vec4f(hit.ci, 1.0), vec4f(0.0), (flags & FLAG_MATTE) != 0u);
  idBuffer[s] = prim;
}

/** The sample of a region subpixel: its cell, and the stratum it holds in its pixel when the frame
 * blurs (a box holding every position: the cell is a subpixel a micropolygon was sampled at). */
struct SubpixelSample {
  cell: Cell,
  st: Stratum,
}

fn subpixelSample(px: i32, py: i32, hash: u32, j: u32) -> SubpixelSample {
  var at: SubpixelSample;
  at.cell.pixel = hash;
  at.cell.subpixel = vec2i(px * i32(samplesX()) + i32(j % samplesX()), py * i32(samplesY()) + i32(j / samplesX()));
  // @if MOTION_MOVES || LENS
  if (LENS || MOTION_MOVES) { at.cell.subpixel = stratumSubpixel(hash, px, py, j, samplesX(), samplesY()); }
  // @endif
  at.st.j = j;
  at.st.box = vec4f(vec2f(-3.0e38), vec2f(3.0e38));
  // @if LENS
  if (LENS && params.lensRadius > 0.0) { at.st.lensCell = lensStratum(j).cell; }
  // @endif
  return at;
}

/** Marks subpixel s TIED for the owner walk and counts it: the candidates and tie list leave it
 * unresolved. */
fn unresolved(s: u32) {
  atomicStore(&ownerBuffer[s], TIED);
  atomicAdd(&ownerBuffer[params.width * params.height + OWNER_TAIL_UNRESOLVED], 1u);
  widenWalkBox(s);
}

/** Takes subpixel s (region index) into the walk box of the owner buffer's tail: its corners' words
 * rise with atomicMax (the opaque-owners layout: the low corner complemented, the high one plus
 * one, so cleared words hold an empty box). */
fn widenWalkBox(s: u32) {
  let box = params.width * params.height + OWNER_TAIL_WALK_BOX;
  let x = s % params.width;
  let y = s / params.width;
  atomicMax(&ownerBuffer[box], ~x);
  atomicMax(&ownerBuffer[box + 1u], ~y);
  atomicMax(&ownerBuffer[box + 2u], x + 1u);
  atomicMax(&ownerBuffer[box + 3u], y + 1u);
}

/** Whether the micropolygon's subpixel bound meets the walk box (widenWalkBox). */
fn meetsWalkBox(mp: ptr<function, Micropolygon>) -> bool {
  let box = params.width * params.height + OWNER_TAIL_WALK_BOX;
  let hi = vec2u(atomicLoad(&ownerBuffer[box + 2u]), atomicLoad(&ownerBuffer[box + 3u]));
  if (any(hi == vec2u(0u))) { return false; }
  let lo = ~vec2u(atomicLoad(&ownerBuffer[box]), atomicLoad(&ownerBuffer[box + 1u]));
  let origin = vec2i(params.originX, params.originY);
  return all(vec2u((*mp).lo - origin) < hi) && all(vec2u((*mp).hi - origin) >= lo);
}

/** Where opaqueColour's owner words come from: the subpixel's own word, or its tie entries'. */
const FROM_OWNER: u32 = 0u;
const FROM_TIES: u32 = 1u;

/** COLOUR_PIXELS: invocation i takes pixel i of the region, each of its subpixels in turn: the
 * candidate sampled there again (built once for the consecutive subpixels it holds) or, at a TIED
 * subpixel, its tie entries' micropolygons (which hold every one that met the nearest depth there
 * once an entry's replaced word is one: the first arrival), the lowest id reaching the nearest depth
 * giving the colour. CHECK_TIES: invocation i takes tie entry i; its micropolygon reaching the
 * nearest depth of a subpixel that was not resolved from the list leaves that subpixel unresolved
 * (a candidate's late store replaced the TIED mark). Every micropolygon is built and sampled at one
 * call site: lavapipe compiles each inlined copy of them for seconds. */
@compute @workgroup_size(COLOUR_LANES)
fn opaqueColour(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) lane: u32) {
  shareLensStrata(lane);
  bindsAux();
  let index = (group.x + group.y * groups.x) * COLOUR_LANES + lane;
  let check = params.mode == CHECK_TIES;
  let tail = params.width * params.height;
  let strata = samplesX() * samplesY();
  let ties = atomicLoad(&ownerBuffer[tail + OWNER_TAIL_TIES]);
  let across = params.width / samplesX();
  // The pixel (its region-relative index) and how many of its subpixels this invocation takes.
  var pixel = index;
  var jobs = strata;
  var entry = 0u;
  var checked = 0u;
  if (check) {
    jobs = select(0u, 1u, index < min(ties, TIE_ENTRIES));
    entry = tail + OWNER_TAIL_ENTRIES + index * TIE_ENTRY_WORDS;
    if (jobs > 0u) { checked = atomicLoad(&ownerBuffer[entry + TIE_ENTRY_SUBPIXEL]); }
    pixel = (checked / params.width / samplesY()) * across + (checked % params.width) / samplesX();
  } else if (index >= across * (params.height / samplesY())) {
    jobs = 0u;
  }
  // The region's origin is a pixel corner.
  let px = params.originX / i32(samplesX()) + i32(pixel % across);
  let py = params.originY / i32(samplesY()) + i32(pixel / across);
  let hash = pixelHash(px, py);
  var mp: Micropolygon;
  var built = NO_OWNER;
  for (var job = 0u; job < jobs; job++) {
    // The job's subpixel: the pixel's stratum `job`, or the entry's subpixel (its stratum searched).
    var at: SubpixelSample;
    for (var j = select(job, 0u, check); j < select(job + 1u, strata, check); j++) {
      at = subpixelSample(px, py, hash, j);
      if (!check || localSubpixel(at.cell.subpixel.x, at.cell.subpixel.y) == checked) { break; }
    }
    let s = localSubpixel(at.cell.subpixel.x, at.cell.subpixel.y);
    let owner = atomicLoad(&ownerBuffer[s]);
    if (owner == NO_OWNER) {
      // No sample reached it: no colour (written here rather than cleared beforehand, which took
      // the host's driver longer than these stores).
      if (!check) { colorBuffer[s] = vec4f(0.0); }
      continue;
    }
    if (check && owner == LISTED) { continue; }
    let nearest = nearestDepth[s];
    let source = select(FROM_OWNER, FROM_TIES, owner == TIED && !check);
    if (!check && owner >= CANDIDATES) {
      let sealed = colorBuffer[s];
      if (bitcast<u32>(sealed.w) == seal(owner, nearest, sealed.xyz)) {
        let prim = readyList[(~owner / MAXV) * PIECE_WORDS + PIECE_PRIM];
        var hit: Hit;
        hit.ci = sealed.xyz;
        writeOpaqueColour(bitcast<u32>(prims[prim * REC_FLOATS + REC_FLAGS]), prim, s, hit);
        continue;
      }
    }
    if (source == FROM_TIES && ties > TIE_ENTRIES) { continue; }  // the host walks the region
    var best = NO_OWNER;
    var bestHit: Hit;
    var bestFlags = 0u;
    var bestPrim = 0u;
    var first = false;
    // The words to try: one (the candidate, or the checked entry's micropolygon), or two an entry
    // (its micropolygon, the word it replaced) of the tie entries for s.
    let words = select(1u, 2u * min(ties, TIE_ENTRIES), source == FROM_TIES);
    for (var next = 0u; next < words; next++) {
      var word = owner;
      if (check) { word = atomicLoad(&ownerBuffer[entry + TIE_ENTRY_TIER]); }
      if (source == FROM_TIES) {
        let listed = tail + OWNER_TAIL_ENTRIES + (next / 2u) * TIE_ENTRY_WORDS;
        if (atomicLoad(&ownerBuffer[listed + TIE_ENTRY_SUBPIXEL]) != s) { continue; }
        word = atomicLoad(&ownerBuffer[listed + select(TIE_ENTRY_TIER, TIE_ENTRY_REPLACED, next % 2u == 1u)]);
      }
      if (word < CANDIDATES) { continue; }
      if (word != built) {
        mp = micropolygon(~word / MAXV, ~word % MAXV, true, OUTPUT_VARIABLE);
        built = word;
      }
      if (!mp.valid) { continue; }
      let hit = sampleAt(&mp, &at.st, at.cell);
      if (!hit.covered || bitcast<u32>(hit.depth) != nearest) { continue; }
      if (source == FROM_TIES && next % 2u == 1u) { first = true; }
      if (word > best) {
        best = word;
        bestHit = hit;
        bestFlags = mp.flags;
        bestPrim = mp.prim;
      }
    }
    if (check) {
      if (best != NO_OWNER) { unresolved(s); }
    } else if (best == NO_OWNER || (source == FROM_TIES && !first)) {
      unresolved(s);
    } else {
      writeOpaqueColour(bestFlags, bestPrim, s, bestHit);
      if (source == FROM_TIES) { atomicStore(&ownerBuffer[s], LISTED); }
    }
  }
}
