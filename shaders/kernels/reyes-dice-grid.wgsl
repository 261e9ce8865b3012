// The dicer's work on one grid vertex, shared by the dice kernel (reyes-dice.wgsl, which says how a
// grid is made) and the fused dice-and-shade kernels (src/reyes/pipeline/fusion.ts). The including
// kernel declares the bindings it reads: prims, readyList, grids, userCorners, seams. Its entry point
// has the workgroup share its piece (shareDicedPiece), reads it (dicedPiece) before any branch, and
// only then dices a vertex (diceVertex).
// @layout ready-piece
// @include reyes-surface.wgsl
// @include reyes-seams.wgsl

override MAXV: u32 = 256u;
override OFF_P: u32;
override OFF_N: u32;
override OFF_NG: u32;
override OFF_I: u32;
override OFF_DPDU: u32;
override OFF_DPDV: u32;
override OFF_U: u32;
override OFF_V: u32;
override OFF_DU: u32;
override OFF_DV: u32;
override OFF_S: u32;
override OFF_T: u32;
override OFF_CS: u32;
override OFF_OS: u32;
// User primitive variables: USER_COMPONENTS component rows from OFF_USER in the grid record. Each
// primitive record's auxiliary block starts at userCorners[bits of word REC_AUX]: with
// FLAG_BICUBIC_VERTEX, ceil(USER_COMPONENTS / 32) row-mask words; then per row 4 corner values, or 16
// Bézier control values where its mask bit is set; then 16 control values per component of the
// standard variables named in word REC_BICUBIC_MASK (s, t, Cs, Os, N in that order). A Blobby
// record's field block follows its rows: the variables it blends replace the rows and standard
// components they name.
override USER_COMPONENTS: u32 = 0u;
override OFF_USER: u32 = 0u;

const H: f32 = 1.0e-3;

/** Bernstein evaluation of 16 Bézier control values (row v, column u) from userCorners[at]. */
fn bezierAux(at: u32, bu: vec4f, bv: vec4f) -> f32 {
  var acc = 0.0;
  for (var j = 0u; j < 4u; j++) {
    let b = at + j * 4u;
    acc += bv[j] * dot(bu, vec4f(userCorners[b], userCorners[b + 1u], userCorners[b + 2u], userCorners[b + 3u]));
  }
  return acc;
}

fn put(base: u32, offset: u32, k: u32, value: f32) { grids[base + offset + k] = value; }
fn put3(base: u32, offset: u32, k: u32, value: vec3f) {
  grids[base + offset + k] = value.x;
  grids[base + offset + MAXV + k] = value.y;
  grids[base + offset + 2u * MAXV + k] = value.z;
}

/** How far a seam vertex is moved past the coarser grid's edge, relative to its distance from the
 * eye: 8 units in the last place of its coordinates (2^-23 each), several times their rounding. */
const EDGE_OVERLAP: f32 = 8.0 / 8388608.0;

/** A seam vertex between the coarser grid's vertices a and b: on that grid's edge only up to
 * rounding, where a sample in the sliver between the two would fall through both (pinholes); moved
 * out across the edge by EDGE_OVERLAP of its distance from the eye, the finer grid overlaps the
 * coarser one instead. */
fn seamPosition(a: vec3f, b: vec3f, seam: Seam, dpdu: vec3f, dpdv: vec3f) -> vec3f {
  let p = mix(a, b, seam.fraction);
  let out = seam.outward.x * dpdu + seam.outward.y * dpdv;
  let reach = length(out);
  return select(p, p + out * (EDGE_OVERLAP * length(p) / reach), reach > 0.0);
}

// The piece a workgroup dices and its primitive record, in workgroup memory. On lavapipe a storage
// load at a computed offset is a loop over the SIMD lanes with a bounds check in each, while a
// workgroup load at a constant offset outside any branch or loop is one scalar load for all lanes;
// the dicer read about 130 words of its piece and record per vertex, so the workgroup reads them
// once (shareDicedPiece) and each invocation takes them at constant offsets (dicedPiece).
var<workgroup> pieceWords: array<u32, PIECE_WORDS>;
var<workgroup> recordWords: array<f32, REC_FLOATS>;
// The record's geometry words again, copied whole into a Shape: a loop over them, not unrolled,
// would read them one lane at a time.
var<workgroup> recordGeometry: array<f32, 48>;

/** Ready piece g and its record into workgroup memory; every invocation of the workgroup calls it,
 * outside any branch. */
fn shareDicedPiece(g: u32, k: u32) {
  if (k < PIECE_WORDS) { pieceWords[k] = readyList[g * PIECE_WORDS + k]; }
  workgroupBarrier();
  let prim = pieceWords[PIECE_PRIM];
  for (var w = k; w < REC_FLOATS; w += MAXV) {
    let word = prims[prim * REC_FLOATS + w];
    recordWords[w] = word;
    if (w >= REC_GEOMETRY && w < REC_GEOMETRY + 48u) { recordGeometry[w - REC_GEOMETRY] = word; }
  }
  workgroupBarrier();
}

/** What the dicer reads of its piece and record: corner values in record order (00, 10, 01, 11). */
struct DicedPiece {
  prim: u32,
  nu: u32,
  nv: u32,
  base: u32,                // PIECE_GRID_BASE
  lo: vec2f,                // (u0, v0)
  hi: vec2f,                // (u1, v1)
  flags: u32,
  bicubicMask: u32,
  aux: u32,
  m: mat4x4f,               // object to camera
  shape: Shape,
  wraps: vec2<bool>,        // periodic
  s: vec4f,
  t: vec4f,
  cs: array<vec3f, 4>,
  os: array<vec3f, 4>,
  n: array<vec3f, 4>,
}

fn recordWord(field: u32) -> u32 { return bitcast<u32>(recordWords[field]); }
fn recordCorners(field: u32) -> vec4f {
  return vec4f(recordWords[field], recordWords[field + 1u], recordWords[field + 2u], recordWords[field + 3u]);
}
fn recordCorners3(field: u32) -> array<vec3f, 4> {
  var corners: array<vec3f, 4>;
  for (var c = 0u; c < 4u; c++) {
    corners[c] = vec3f(recordWords[field + 3u * c], recordWords[field + 3u * c + 1u], recordWords[field + 3u * c + 2u]);
  }
  return corners;
}

/** The shared piece (shareDicedPiece), read by each invocation before any branch. */
fn dicedPiece() -> DicedPiece {
  var d: DicedPiece;
  d.prim = pieceWords[PIECE_PRIM];
  d.nu = pieceWords[PIECE_NU];
  d.nv = pieceWords[PIECE_NV];
  d.base = pieceWords[PIECE_GRID_BASE];
  d.lo = vec2f(bitcast<f32>(pieceWords[PIECE_U0]), bitcast<f32>(pieceWords[PIECE_V0]));
  d.hi = vec2f(bitcast<f32>(pieceWords[PIECE_U1]), bitcast<f32>(pieceWords[PIECE_V1]));
  d.flags = recordWord(REC_FLAGS);
  d.bicubicMask = recordWord(REC_BICUBIC_MASK);
  d.aux = recordWord(REC_AUX);
  d.m = mat4x4f(recordCorners(REC_MATRIX), recordCorners(REC_MATRIX + 4u), recordCorners(REC_MATRIX + 8u), recordCorners(REC_MATRIX + 12u));
  d.shape.kind = recordWord(REC_KIND);
  d.shape.words = recordGeometry;
  d.s = recordCorners(REC_S);
  d.t = recordCorners(REC_T);
  d.cs = recordCorners3(REC_CS);
  d.os = recordCorners3(REC_OS);
  d.n = recordCorners3(REC_N);
  d.wraps = closes(d.shape.kind, vec4f(d.shape.words[2], d.shape.words[3], d.shape.words[4], d.shape.words[6]));
  // @if SHAPE_KINDS bit KIND_BLOBBY
  if (isKind(d.shape.kind, KIND_BLOBBY)) { d.shape.field = blobbyFieldOf(d.prim); }
  // @endif
  return d;
}

/** Position (first) and ∂P/∂u, ∂P/∂v at (u, v): central differences, one-sided at the edges of the
 * parameter square. Where the surface degenerates (poles, collapsed polygon edges) the derivatives
 * are taken again just inside it. A vertex on a seam (fraction non-zero) lies between the
 * positions at the seam's two ends. One evaluation site in a loop keeps the compiled kernel small,
 * and gives two grids that share a vertex the same bits for it. */
fn surfaceAt(piece: ptr<function, DicedPiece>, u: f32, v: f32, seam: Seam) -> array<vec3f, 3> {
  var result: array<vec3f, 3>;
  // A closed quadric's u = 1 (a torus's v = 1) is its u = 0: evaluated there, position and
  // derivatives alike, so that the grids on each side of that seam get the same bits (and stay
  // together when displaced along their normals).
  let wraps = (*piece).wraps;
  let m = (*piece).m;
  let at = wrapped(vec2f(u, v), wraps);
  var cu = at.x;
  var cv = at.y;
  for (var attempt = 0u; attempt < 2u; attempt++) {
    let ua = max(cu - H, 0.0);
    let ub = min(cu + H, 1.0);
    let va = max(cv - H, 0.0);
    let vb = min(cv + H, 1.0);
    var q: array<vec3f, 7>;
    let points = select(5u, 7u, attempt == 0u && seam.fraction != 0.0);
    for (var s = 0u; s < points; s++) {
      var uv = vec2f(cu, cv);
      if (s == 1u) { uv.x = ua; } else if (s == 2u) { uv.x = ub; } else if (s == 3u) { uv.y = va; } else if (s == 4u) { uv.y = vb; }
      else if (s == 5u) { uv = wrapped(seam.ends.xy, wraps); } else if (s == 6u) { uv = wrapped(seam.ends.zw, wraps); }
      q[s] = evalCamera(&(*piece).shape, m, uv.x, uv.y);
    }
    let dpdu = (q[2] - q[1]) / (ub - ua);
    let dpdv = (q[4] - q[3]) / (vb - va);
    // Differences no larger than the rounding of the positions carry no direction: in f32 a
    // sphere's pole is a circle of radius 4e-8, whose dP/du is noise.
    let noise = 1.0e-5 * max(abs(q[0].x), max(abs(q[0].y), abs(q[0].z)));
    let resolved = min(length(q[2] - q[1]), length(q[4] - q[3])) > noise;
    if (attempt == 0u) {
      result[0] = q[0];
      if (seam.fraction != 0.0) { result[0] = seamPosition(q[5], q[6], seam, dpdu, dpdv); }
      result[1] = dpdu;
      result[2] = dpdv;
    }
    let n = cross(dpdu, dpdv);
    if (resolved && dot(n, n) > 1.0e-24 * max(dot(dpdu, dpdu) * dot(dpdv, dpdv), 1.0e-30)) {
      if (attempt == 1u) {
        // Keep the true derivatives' lengths but the normal of the nudged point.
        result[1] = dpdu;
        result[2] = dpdv;
      }
      break;
    }
    // Nudge inward, from a point that does not depend on the position along a collapsed edge (a
    // pole, a disk's centre): every grid meeting there then gets the same normal for it.
    let flatU = length(q[2] - q[1]) <= noise;
    let flatV = length(q[4] - q[3]) <= noise;
    cu = select(mix(u, 0.5, 0.01), 0.5, flatU && !flatV);
    cv = select(mix(v, 0.5, 0.01), 0.5, flatV && !flatU);
  }
  return result;
}

/** A Blobby vertex: camera-space position and ∂P/∂u, ∂P/∂v, the object-space position, and the
 * shading normal (camera space, unit; 0 where the gradient vanishes). */
struct BlobbyVertex {
  p: vec3f,
  dpdu: vec3f,
  dpdv: vec3f,
  q: vec3f,
  normal: vec3f,
}

/** A Blobby vertex at (u, v): its patch point put onto the surface (with the seam's ends on a seam),
 * every position from one evaluation site so that grids sharing a vertex get the same bits for it;
 * the derivatives are the patch's, onto the surface's tangent plane there (projection moves a point
 * along the normal, to first order), so one projection serves a vertex. */
fn blobbySurfaceAt(prim: u32, m: mat4x4f, u: f32, v: f32, seam: Seam) -> BlobbyVertex {
  var shape = recordShape(prim);
  var vertex: BlobbyVertex;
  var at: array<vec3f, 3>;
  var g = vec3f(0.0);
  for (var s = 0u; s < select(1u, 3u, seam.fraction != 0.0); s++) {
    var uv = vec2f(u, v);
    if (s == 1u) { uv = seam.ends.xy; } else if (s == 2u) { uv = seam.ends.zw; }
    let surface = blobbyProject(shape.field, evalShape(&shape, uv.x, uv.y));
    if (s == 0u) {
      vertex.q = surface.p;
      g = surface.gradient;
    }
    at[s] = (m * vec4f(surface.p, 1.0)).xyz;
  }
  let g2 = dot(g, g);
  let slopes = blobbyStartSlopes(&shape, u, v);
  var tu = slopes[0];
  var tv = slopes[1];
  if (g2 > 0.0) {
    tu -= g * (dot(g, tu) / g2);
    tv -= g * (dot(g, tv) / g2);
  }
  let linear = mat3x3f(m[0].xyz, m[1].xyz, m[2].xyz);
  vertex.dpdu = linear * tu;
  vertex.dpdv = linear * tv;
  vertex.p = at[0];
  if (seam.fraction != 0.0) { vertex.p = seamPosition(at[1], at[2], seam, vertex.dpdu, vertex.dpdv); }
  vertex.normal = blobbyNormal(shape.field, g);
  return vertex;
}

/** Blended variables a Blobby vertex sums at a time, over one pass of its leaves. */
const BLEND_CHUNK: u32 = 12u;

/** A Blobby vertex's blended variables at object-space q: its leaves' values weighted by their
 * fields there (or the fallback where no field is positive), user rows written into the grid,
 * standard components into `standard`. */
fn blobbyVariables(prim: u32, base: u32, k: u32, q: vec3f, standard: ptr<function, array<f32, 11>>) {
  let field = blobbyFieldOf(prim);
  let blends = blobbyBlends(field);
  let count = blobbyWord(field + BLOBBY_FIELD_BLENDS);
  for (var first = 0u; first < count; first += BLEND_CHUNK) {
    let n = min(count - first, BLEND_CHUNK);
    var sum: array<f32, BLEND_CHUNK>;
    var total = 0.0;
    for (var i = 0u; i < blobbyLeafCount(field); i++) {
      let w = blobbyLeaf(blobbyLeaves(field) + i * BLOBBY_LEAF_FLOATS, q).w;
      total += w;
      for (var b = 0u; b < n; b++) { sum[b] += w * userCorners[blends.x + (first + b) * blends.y + BLOBBY_BLEND_VALUES + i]; }
    }
    for (var b = 0u; b < n; b++) {
      let entry = blends.x + (first + b) * blends.y;
      let component = blobbyWord(entry + BLOBBY_BLEND_TARGET);
      let value = select(userCorners[entry + BLOBBY_BLEND_FALLBACK], sum[b] / total, total > 0.0);
      if (component < BLOBBY_BLEND_USER) { (*standard)[component] = value; } else { put(base, OFF_USER + (component - BLOBBY_BLEND_USER) * MAXV, k, value); }
    }
  }
}

/** Vertex k of ready piece g's grid, `piece` (dicedPiece); invocations past the grid do nothing. */
fn diceVertex(g: u32, piece: ptr<function, DicedPiece>, k: u32, perspective: bool) {
  let prim = (*piece).prim;
  let nu = (*piece).nu;
  let nv = (*piece).nv;
  let base = (*piece).base;
  if (k >= nu * nv) { return; }
  let i = k % nu;
  let j = k / nu;
  // Dyadic pieces and power-of-two rates: these parameters are exact, so a vertex that two grids
  // share has the same (u, v) bits in both. A ribbon's rate along v need not be a power of two
  // (bound/split): its last row is put at v1 itself, where the next piece's first row is.
  let lo = (*piece).lo;
  let hi = (*piece).hi;
  let step = (hi - lo) / vec2f(f32(nu - 1u), f32(nv - 1u));
  let u = select(lo.x + f32(i) * step.x, hi.x, i == nu - 1u);
  let v = select(lo.y + f32(j) * step.y, hi.y, j == nv - 1u);
  let m = (*piece).m;
  let seam = seamOf(g, (*piece).wraps, i, j, nu, nv, lo, hi, step);
  let blobby = isKind((*piece).shape.kind, KIND_BLOBBY);
  var pd: array<vec3f, 3>;
  var blob: BlobbyVertex;
  if (!blobby) { pd = surfaceAt(piece, u, v, seam); }
  // @if SHAPE_KINDS bit KIND_BLOBBY
  if (blobby) {
    blob = blobbySurfaceAt(prim, m, u, v, seam);
    pd = array<vec3f, 3>(blob.p, blob.dpdu, blob.dpdv);
  }
  // @endif
  let p = pd[0];
  let d = array<vec3f, 2>(pd[1], pd[2]);
  let flags = (*piece).flags;
  var n = cross(d[0], d[1]);
  if ((flags & FLAG_FLIP_NORMAL) != 0u) { n = -n; }
  var ng = vec3f(0.0);
  if (dot(n, n) > 0.0) { ng = normalize(n); }
  // User rows, then the standard variables that follow the patch basis (bicubic vertex class).
  let bicubicMask = (*piece).bicubicMask;
  let bu = bernstein(u);
  let bv = bernstein(v);
  var at = (*piece).aux;
  let maskAt = at;
  if ((flags & FLAG_BICUBIC_VERTEX) != 0u) { at += (USER_COMPONENTS + 31u) / 32u; }
  for (var row = 0u; row < USER_COMPONENTS; row++) {
    var controls = false;
    if ((flags & FLAG_BICUBIC_VERTEX) != 0u) {
      controls = ((bitcast<u32>(userCorners[maskAt + row / 32u]) >> (row % 32u)) & 1u) != 0u;
    }
    var value = 0.0;
    if (controls) {
      value = bezierAux(at, bu, bv);
      at += 16u;
    } else {
      value = mix(mix(userCorners[at], userCorners[at + 1u], u), mix(userCorners[at + 2u], userCorners[at + 3u], u), v);
      at += 4u;
    }
    put(base, OFF_USER + row * MAXV, k, value);
  }
  // The components of s, t, Cs, Os and N in that order: from the corners, or from the Bézier
  // control values of those the mask names (16 per component, in this order). One Bernstein
  // evaluation in a loop: inlined once per variable, it took lavapipe three times as long to
  // compile the dicer.
  var standard: array<f32, 11>;
  standard[0] = cornerMix((*piece).s, u, v);
  standard[1] = cornerMix((*piece).t, u, v);
  let cs = cornerMix3((*piece).cs, u, v);
  let os = cornerMix3((*piece).os, u, v);
  let cornerN = cornerMix3((*piece).n, u, v);
  standard[2] = cs.x;
  standard[3] = cs.y;
  standard[4] = cs.z;
  standard[5] = os.x;
  standard[6] = os.y;
  standard[7] = os.z;
  standard[8] = cornerN.x;
  standard[9] = cornerN.y;
  standard[10] = cornerN.z;
  if (bicubicMask != 0u) {
    for (var c = 0u; c < 11u; c++) {
      let bit = select(select(select(select(BICUBIC_N, BICUBIC_OS, c < 8u), BICUBIC_CS, c < 5u), BICUBIC_T, c < 2u), BICUBIC_S, c < 1u);
      if ((bicubicMask & bit) != 0u) {
        standard[c] = bezierAux(at, bu, bv);
        at += 16u;
      }
    }
  }
  // @if SHAPE_KINDS bit KIND_BLOBBY
  if (blobby) { blobbyVariables(prim, base, k, blob.q, &standard); }
  // @endif
  let sValue = standard[0];
  let tValue = standard[1];
  let csValue = vec3f(standard[2], standard[3], standard[4]);
  let osValue = vec3f(standard[5], standard[6], standard[7]);
  var shadingNormal = ng;
  if (blobby && dot(blob.normal, blob.normal) > 0.0) { shadingNormal = blob.normal; }
  if ((flags & FLAG_HAS_NORMALS) != 0u) { shadingNormal = vec3f(standard[8], standard[9], standard[10]); }
  var eye = p;
  if (!perspective) { eye = vec3f(0.0, 0.0, p.z); }
  put3(base, OFF_P, k, p);
  put3(base, OFF_N, k, shadingNormal);
  put3(base, OFF_NG, k, ng);
  put3(base, OFF_I, k, eye);
  put3(base, OFF_DPDU, k, d[0]);
  put3(base, OFF_DPDV, k, d[1]);
  put(base, OFF_U, k, u);
  put(base, OFF_V, k, v);
  put(base, OFF_DU, k, step.x);
  put(base, OFF_DV, k, step.y);
  put(base, OFF_S, k, sValue);
  put(base, OFF_T, k, tValue);
  put3(base, OFF_CS, k, csValue);
  put3(base, OFF_OS, k, osValue);
}
