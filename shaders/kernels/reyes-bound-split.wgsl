// Bound/split: one invocation per queue record (prim, splits, u0, u1, v0, v1, nu, nv; splits holds
// the depth in its low 16 bits and the eye splits among them above). `classify` bounds the record's
// piece in camera space (a 5×5 sampling padded for its bend between the samples, at most an eighth
// of its extent, and the displacement bound; a Blobby piece's samples are of its patch, padded by
// how far its surface strays from it), culls it against the near/far planes, the ClippingPlane planes (a bound wholly on a
// plane's clipped side) and the region's viewing pyramid (planes through the eye, so that pieces
// beside or behind the camera go without being projected). The eye-split rule: a piece that
// straddles the eye plane (reaches nearer than eyeSplit) cannot be projected, so it is split across
// the direction that leaves fewer halves straddling (each half's box from its samples); a split of
// a piece whose box holds the eye that leaves both halves straddling counts as an eye split, at
// most eyeSplits of them, and such a piece past them is culled and counted. Otherwise it estimates
// the piece's grid (edges of sqrt(shading rate) pixels, more across a Blobby piece's folds, rounded
// up to a power of two micropolygons per direction): a piece whose grid fits one workgroup is ready, a larger one is split in half
// across its longer direction; a ready piece reaching far past the region, or past a cut between it
// and a neighbouring region, is halved too, its halves keeping its grid (REGION_SPLIT, CUT_SPLIT);
// the ready pieces' vertices are counted. `emit` writes the children
// and the ready pieces at their scanned offsets.
// @include reyes-surface.wgsl
// @include reyes-motion.wgsl
// A moving piece's box covers its box at every motion key (a deforming one's at each key's shape),
// and with depth of field it grows by
// the lens's spread at its nearest and farthest depth, so that it reaches every region a sample
// may see it from.

// SplitParams (src/layout/split-params.ts)
// @layout split-params

@group(0) @binding(0) var<uniform> params: SplitParams;
@group(0) @binding(1) var<storage, read> prims: array<f32>;
@group(0) @binding(2) var<storage, read> queue: array<u32>;
@group(0) @binding(3) var<storage, read_write> decision: array<u32>;
@group(0) @binding(4) var<storage, read_write> childCount: array<u32>;
@group(0) @binding(5) var<storage, read_write> readyFlag: array<u32>;
@group(0) @binding(6) var<storage, read> childOffset: array<u32>;
@group(0) @binding(7) var<storage, read> readyOffset: array<u32>;
@group(0) @binding(8) var<storage, read_write> nextQueue: array<u32>;
@group(0) @binding(9) var<storage, read_write> readyList: array<u32>;
// @layout split-counters
@group(0) @binding(10) var<storage, read_write> counters: array<atomic<u32>, SPLIT_COUNTER_WORDS>;
@group(0) @binding(11) var<storage, read> userCorners: array<f32>;  // the records' auxiliary blocks (motion)

const CULL: u32 = 0u;
const READY: u32 = 1u;
const SPLIT_U: u32 = 2u;
const SPLIT_V: u32 = 3u;
const EYE_SPLIT_FLAG: u32 = 0x80u;  // in a decision: the split is an eye split
const REGION_SPLIT_FLAG: u32 = 0x40u;  // in a decision: a ready piece split for the region; its halves keep its grid's lattice
const ACTION_MASK: u32 = 0x3fu;
/** A ready piece reaching over this many times the region's larger side (raster, apron included) is
 * halved until it does not: a small region then dices only the parts near it, where a long piece
 * (a hair's) was diced whole in every region it crossed. */
const REGION_SPLIT: f32 = 2.0;
/** A ready piece whose box reaches past a cut edge of the region (REGION_CUT_*: the region across
 * dices it too) is halved while it reaches over this share of the region's larger side and its
 * halves keep at least CUT_SPLIT_LEAST micropolygons along: the halves beyond the cut are culled, so
 * what two regions both dice stays a small part of each. Without it a hair ball's pieces were diced
 * whole in every region their boxes touched, the more of them the more regions the frame took:
 * micropolygons per curve grew with the curve count (518 a curve at 40,000 curves, 263 with it). The
 * floor bounds the grids the splits add: on lavapipe a grid's workgroups cost about as much as 16
 * micropolygons (that hair ball: 95,000 more grids took as long as 1.5 M more micropolygons). */
const CUT_SPLIT: f32 = 0.125;
/** How far, as a share of a micropolygon's edge, a Blobby micropolygon's chord may sag across a fold
 * of the surface in raster space (its outline). */
const FOLD_SAG: f32 = 0.05;
const CUT_SPLIT_LEAST: u32 = 16u;
const SAMPLES: u32 = 5u;
// @layout clip-planes
// @layout ready-piece
// @layout region-cuts

/** Whether the box [lo, hi] lies wholly on the clipped side of a ClippingPlane (its corner least far
 * along the normal is clipped). */
fn boxClipped(lo: vec3f, hi: vec3f) -> bool {
  for (var k = 0u; k < params.clipCount; k++) {
    let plane = params.clipPlanes[k];
    if (dot(plane.xyz, select(hi, lo, plane.xyz > vec3f(0.0))) + plane.w > 0.0) { return true; }
  }
  return false;
}

/** The largest value of the plane f·(P, 1) over the box [lo, hi]. */
fn boxMax(f: vec4f, lo: vec3f, hi: vec3f) -> f32 {
  return dot(f.xyz, select(lo, hi, f.xyz > vec3f(0.0))) + f.w;
}

/** Whether the box [lo, hi] lies wholly outside the pyramid from the eye through the raster
 * rectangle (x0, y0, x1, y1): raster x = row0·P / row3·P, so x < x0 where (row0 − x0 row3)·P < 0
 * for every point in front of the eye; points behind it are not seen at all. */
fn boxOutsideRegion(lo: vec3f, hi: vec3f, region: vec4f) -> bool {
  let m = transpose(params.cameraToRaster);
  let w = m[3];
  return boxMax(m[0] - region.x * w, lo, hi) < 0.0 || boxMax(region.z * w - m[0], lo, hi) < 0.0 ||
         boxMax(m[1] - region.y * w, lo, hi) < 0.0 || boxMax(region.w * w - m[1], lo, hi) < 0.0;
}

/** The smallest value of the plane f·(P, 1) over the box [lo, hi]. */
fn boxMin(f: vec4f, lo: vec3f, hi: vec3f) -> f32 {
  return dot(f.xyz, select(hi, lo, f.xyz > vec3f(0.0))) + f.w;
}

/** Whether the box [lo, hi], in front of the eye, reaches past one of the cut edges of the raster
 * rectangle (x0, y0, x1, y1) (the planes of boxOutsideRegion): into a region that dices it too. */
fn boxCrossesCut(lo: vec3f, hi: vec3f, region: vec4f) -> bool {
  let m = transpose(params.cameraToRaster);
  let w = m[3];
  let cuts = params.cuts;
  return ((cuts & REGION_CUT_X0) != 0u && boxMin(m[0] - region.x * w, lo, hi) < 0.0) ||
         ((cuts & REGION_CUT_X1) != 0u && boxMin(region.z * w - m[0], lo, hi) < 0.0) ||
         ((cuts & REGION_CUT_Y0) != 0u && boxMin(m[1] - region.y * w, lo, hi) < 0.0) ||
         ((cuts & REGION_CUT_Y1) != 0u && boxMin(region.w * w - m[1], lo, hi) < 0.0);
}

/** Whether the box [lo, hi] is culled: beyond the near or far plane, clipped, or outside the region's pyramid. */
fn boxCulled(lo: vec3f, hi: vec3f) -> bool {
  return hi.z < params.near || lo.z > params.far || boxClipped(lo, hi) || boxOutsideRegion(lo, hi, params.region);
}

/** How many halves of a straddling piece split across u (else v) still straddle: the box of the
 * half's 3×5 samples, grown by the piece's pad and the lens's spread, reaches nearer than eyeSplit
 * and is not culled. */
fn straddlingHalves(pts: ptr<function, array<vec3f, 25>>, acrossU: bool, pad: f32) -> u32 {
  var count = 0u;
  for (var half = 0u; half < 2u; half++) {
    var lo = vec3f(3.0e38);
    var hi = vec3f(-3.0e38);
    for (var s = 2u * half; s <= 2u * half + 2u; s++) {
      for (var t = 0u; t < SAMPLES; t++) {
        let q = (*pts)[select(s * SAMPLES + t, t * SAMPLES + s, acrossU)];
        lo = min(lo, q);
        hi = max(hi, q);
      }
    }
    lo -= vec3f(pad);
    hi += vec3f(pad);
    let spread = max(lensSpread(lo.z, params.lensRadius, params.focalDistance), lensSpread(hi.z, params.lensRadius, params.focalDistance));
    lo = vec3f(lo.xy - spread, lo.z);
    hi = vec3f(hi.xy + spread, hi.z);
    if (lo.z < params.eyeSplit && !boxCulled(lo, hi)) { count++; }
  }
  return count;
}

fn toRaster(p: vec3f) -> vec2f {
  let h = params.cameraToRaster * vec4f(p, 1.0);
  return h.xy / h.w;
}

/** The largest second difference along u and along v of the 5 × 5 samples in raster space. */
fn rasterBend(pts: ptr<function, array<vec3f, 25>>) -> vec2f {
  var raster: array<vec2f, 25>;
  for (var s = 0u; s < SAMPLES * SAMPLES; s++) { raster[s] = toRaster((*pts)[s]); }
  var bend = vec2f(0.0);
  for (var b = 0u; b < SAMPLES; b++) {
    for (var a = 1u; a + 1u < SAMPLES; a++) {
      bend.x = max(bend.x, length(raster[b * SAMPLES + a - 1u] - 2.0 * raster[b * SAMPLES + a] + raster[b * SAMPLES + a + 1u]));
      bend.y = max(bend.y, length(raster[(a - 1u) * SAMPLES + b] - 2.0 * raster[a * SAMPLES + b] + raster[(a + 1u) * SAMPLES + b]));
    }
  }
  return bend;
}

/** The angle between the chords a→b and b→c (0 where either is a point). */
fn turning(a: vec3f, b: vec3f, c: vec3f) -> f32 {
  let d1 = b - a;
  let d2 = c - b;
  let l = length(d1) * length(d2);
  if (l <= 0.0) { return 0.0; }
  return preciseAcos(clamp(dot(d1, d2) / l, -1.0, 1.0));
}

/** The smallest power of two >= n (n >= 1). */
fn powerOfTwoAtLeast(n: u32) -> u32 {
  return 1u << (32u - countLeadingZeros(n - 1u));
}

/** The smallest m · 2^k >= n with m < 8 (n >= 1). */
fn threeSignificantBits(n: u32) -> u32 {
  let bits = 32u - countLeadingZeros(n);
  if (bits <= 3u) { return n; }
  let shift = bits - 3u;
  return ((n + (1u << shift) - 1u) >> shift) << shift;
}

fn flatIndex(group: vec3u, groups: vec3u, local: u32) -> u32 {
  return (group.x + group.y * groups.x) * 64u + local;
}

@compute @workgroup_size(64)
fn classify(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
            @builtin(local_invocation_index) local: u32) {
  // Bound also where the kernel's specialisation (kernel-specialise.ts) leaves none of its reads: the
  // 'auto' layout keeps it.
  _ = arrayLength(&userCorners);
  let i = flatIndex(group, groups, local);
  if (i >= params.count) { return; }
  let prim = queue[i * PIECE_WORDS + PIECE_PRIM];
  let splits = queue[i * PIECE_WORDS + PIECE_SPLITS];
  let depth = splits & DEPTH_MASK;
  let u0 = bitcast<f32>(queue[i * PIECE_WORDS + PIECE_U0]);
  let u1 = bitcast<f32>(queue[i * PIECE_WORDS + PIECE_U1]);
  let v0 = bitcast<f32>(queue[i * PIECE_WORDS + PIECE_V0]);
  let v1 = bitcast<f32>(queue[i * PIECE_WORDS + PIECE_V1]);
  let m = objectToCamera(prim);
  var shape = recordShape(prim);
  var pts: array<vec3f, 25>;
  var lo = vec3f(3.0e38);
  var hi = vec3f(-3.0e38);
  for (var b = 0u; b < SAMPLES; b++) {
    for (var a = 0u; a < SAMPLES; a++) {
      let u = mix(u0, u1, f32(a) / f32(SAMPLES - 1u));
      let v = mix(v0, v1, f32(b) / f32(SAMPLES - 1u));
      let q = evalCamera(&shape, m, u, v);
      pts[b * SAMPLES + a] = q;
      lo = min(lo, q);
      hi = max(hi, q);
    }
  }
  let extent = hi - lo;
  // Pad for what the surface does between the samples: its sag across a sample step is about an
  // eighth of the second difference there, so half the largest second (and mixed) difference is a
  // fourfold margin; never more than the eighth of the extent padded before, and never nothing (a
  // flat piece keeps a sliver for rounding). A tight pad matters near the eye: a ground plane's
  // pieces beside the camera must not seem to reach the eye.
  var bend = 0.0;
  for (var b = 0u; b < SAMPLES; b++) {
    for (var a = 1u; a + 1u < SAMPLES; a++) {
      bend = max(bend, length(pts[b * SAMPLES + a - 1u] - 2.0 * pts[b * SAMPLES + a] + pts[b * SAMPLES + a + 1u]));
      bend = max(bend, length(pts[(a - 1u) * SAMPLES + b] - 2.0 * pts[a * SAMPLES + b] + pts[(a + 1u) * SAMPLES + b]));
    }
  }
  for (var b = 0u; b + 1u < SAMPLES; b++) {
    for (var a = 0u; a + 1u < SAMPLES; a++) {
      let k = b * SAMPLES + a;
      bend = max(bend, length(pts[k + SAMPLES + 1u] - pts[k + SAMPLES] - pts[k + 1u] + pts[k]));
    }
  }
  let size = max(extent.x, max(extent.y, extent.z));
  var pad = min(0.125 * size, 0.5 * bend + 1.0e-4 * size) + recF(prim, REC_DISPLACEMENT_BOUND);
  // A Blobby piece is sampled on its patch: its surface lies within the record's pad of it.
  // @if SHAPE_KINDS bit KIND_BLOBBY
  if (isKind(shape.kind, KIND_BLOBBY)) { pad += recF(prim, REC_GEOMETRY + BLOBBY_SHAPE_PAD); }
  // @endif
  lo -= vec3f(pad);
  hi += vec3f(pad);
  let motion = motionBlock(prim);
  let moving = motion != NO_MOTION && motionKeyCount(motion) > 0u;
  // (No keys: the records came in batches without their auxiliary blocks; the piece keeps its box.)
  // @if MOTION_MOVES
  if (moving) {
    var movedLo = vec3f(3.0e38);
    var movedHi = vec3f(-3.0e38);
    for (var k = 0u; k < motionKeyCount(motion); k++) {
      // A deforming piece at key k: its box grown by how far the key's shape moves the sample
      // points, and by a quarter of that spread for what they do between them.
      var keyLo = lo;
      var keyHi = hi;
      if (motionDeforms(motion)) {
        var dlo = vec3f(3.0e38);
        var dhi = vec3f(-3.0e38);
        for (var s = 0u; s < SAMPLES * SAMPLES; s++) {
          let uv = vec2f(mix(u0, u1, f32(s % SAMPLES) / f32(SAMPLES - 1u)), mix(v0, v1, f32(s / SAMPLES) / f32(SAMPLES - 1u)));
          let d = keyDeformation(prim, motion, k, uv);
          dlo = min(dlo, d);
          dhi = max(dhi, d);
        }
        let slack = vec3f(0.25 * max(dhi.x - dlo.x, max(dhi.y - dlo.y, dhi.z - dlo.z)));
        keyLo = lo + dlo - slack;
        keyHi = hi + dhi + slack;
      }
      for (var corner = 0u; corner < 8u; corner++) {
        let q = motionKeyPoint(motion, k, select(keyLo, keyHi, vec3<bool>((corner & 1u) != 0u, (corner & 2u) != 0u, (corner & 4u) != 0u)));
        movedLo = min(movedLo, q);
        movedHi = max(movedHi, q);
      }
    }
    lo = movedLo;
    hi = movedHi;
  }
  // @endif
  let spread = max(lensSpread(lo.z, params.lensRadius, params.focalDistance), lensSpread(hi.z, params.lensRadius, params.focalDistance));
  lo = vec3f(lo.xy - spread, lo.z);
  hi = vec3f(hi.xy + spread, hi.z);

  var action = CULL;
  var nu = 0u;
  var nv = 0u;
  // Which way the piece is longer in camera space, along the sampled edges (not their chords: the
  // edge of a full circle, a disk's rim, closes on itself).
  var edgeU = 0.0;
  var edgeV = 0.0;
  for (var a = 0u; a + 1u < SAMPLES; a++) {
    edgeU += distance(pts[a], pts[a + 1u]) + distance(pts[SAMPLES * (SAMPLES - 1u) + a], pts[SAMPLES * (SAMPLES - 1u) + a + 1u]);
    edgeV += distance(pts[a * SAMPLES], pts[(a + 1u) * SAMPLES]) + distance(pts[a * SAMPLES + SAMPLES - 1u], pts[(a + 1u) * SAMPLES + SAMPLES - 1u]);
  }
  let longerU = edgeU >= edgeV;
  if (boxCulled(lo, hi)) {
    action = CULL;
  } else if (params.perspective != 0u && lo.z < params.eyeSplit) {
    // Straddles the eye plane: split across the direction that leaves fewer halves straddling (the
    // longer one when both leave as many). Only a split of a piece whose box holds the eye that
    // leaves both halves straddling counts, at most eyeSplits of them: a piece whose box keeps off
    // the eye meets the eye plane away from the eye, where the viewing pyramid is narrow, so its
    // halves leave the view or the plane after a few splits (one or two straddling pieces per
    // level, and at most maxDepth levels). A ground plane under the camera is thus split as deep
    // as it takes to part what is seen from what is behind, while pieces around the eye stay at
    // most 2^eyeSplits. A moving piece's halves are not estimated (their boxes move): each of its
    // splits counts.
    let acrossU = straddlingHalves(&pts, true, pad);
    let acrossV = straddlingHalves(&pts, false, pad);
    let splitU = select(longerU, acrossU < acrossV, acrossU != acrossV);
    let holdsEye = all(lo <= vec3f(0.0)) && all(hi >= vec3f(0.0));
    let counted = moving || (holdsEye && min(acrossU, acrossV) == 2u);
    if ((!counted || (splits >> 16u) < params.eyeSplits) && depth < params.maxDepth) {
      action = select(SPLIT_V, SPLIT_U, splitU) | select(0u, EYE_SPLIT_FLAG, counted);
    } else {
      atomicAdd(&counters[SPLIT_COUNTER_EYE_SPLIT_CULLS], 1u);
    }
  } else {
    var lenU = 0.0;
    var lenV = 0.0;
    for (var b = 0u; b < SAMPLES; b++) {
      var rowU = 0.0;
      var rowV = 0.0;
      for (var a = 0u; a + 1u < SAMPLES; a++) {
        rowU += distance(toRaster(pts[b * SAMPLES + a]), toRaster(pts[b * SAMPLES + a + 1u]));
        rowV += distance(toRaster(pts[a * SAMPLES + b]), toRaster(pts[(a + 1u) * SAMPLES + b]));
      }
      lenU = max(lenU, rowU);
      lenV = max(lenV, rowV);
    }
    // A piece that turns through more than an eighth of a turn along a direction (a whole sphere
    // or disk smaller than its shading rate) takes at least one micropolygon per eighth: a single
    // one would put its vertices on a line (the poles, or a disk's centre and one rim point) and
    // cover nothing; one per eighth keeps a tiny sphere's outline an octagon (90% of its area).
    var turnU = 0.0;
    var turnV = 0.0;
    for (var b = 0u; b < SAMPLES; b++) {
      var rowU = 0.0;
      var rowV = 0.0;
      for (var a = 1u; a + 1u < SAMPLES; a++) {
        rowU += turning(pts[b * SAMPLES + a - 1u], pts[b * SAMPLES + a], pts[b * SAMPLES + a + 1u]);
        rowV += turning(pts[(a - 1u) * SAMPLES + b], pts[a * SAMPLES + b], pts[(a + 1u) * SAMPLES + b]);
      }
      turnU = max(turnU, rowU);
      turnV = max(turnV, rowV);
    }
    // Binary dicing: a power-of-two number of micropolygons across each direction, so that the
    // vertices of neighbouring grids along a shared edge nest (the dicer stitches the finer side
    // onto the coarser one's edge).
    let edge = sqrt(recF(prim, REC_SHADING_RATE));
    let eighth = 0.25 * 3.14159265;
    var wantU = u32(min(max(max(ceil(lenU / edge), ceil(turnU / eighth - 1.0e-3)), 1.0), 65536.0));
    var wantV = u32(min(max(max(ceil(lenV / edge), ceil(turnV / eighth - 1.0e-3)), 1.0), 65536.0));
    // @if SHAPE_KINDS bit KIND_BLOBBY
    if (isKind(shape.kind, KIND_BLOBBY)) {
      // A Blobby patch lies across its outline as often as not, where its samples fold back on
      // themselves in raster space: lengths there understate how far the chords of its
      // micropolygons fall inside the outline (a sphere's area came out 1.3% small at shading rate
      // 1). Enough micropolygons that a chord of n over the 4 sample steps sags 2·bend/n² at most,
      // FOLD_SAG of a micropolygon's edge.
      let folds = ceil(sqrt(2.0 * rasterBend(&pts) / (FOLD_SAG * edge)));
      wantU = max(wantU, u32(min(folds.x, 65536.0)));
      wantV = max(wantV, u32(min(folds.y, 65536.0)));
    }
    // @endif
    var segU = powerOfTwoAtLeast(wantU);
    var segV = powerOfTwoAtLeast(wantV);
    // A ribbon spanning its whole width meets no grid along its length (u = 0 and 1 are its edges),
    // and pieces along it meet at rows of its width's rate: along v its rate needs no power of two,
    // only to halve on a vertex as often as region splits may cut it. Rounded up to three
    // significant bits (m · 2^k, m < 8: at most 1/4 more than it asks for, against up to twice as
    // many with a power of two), it halves down to m.
    if ((recU(prim, REC_FLAGS) & FLAG_RIBBON) != 0u && u0 == 0.0 && u1 == 1.0) { segV = threeSignificantBits(wantV); }
    // A half of a region split keeps its share of the whole piece's grid (the same vertices).
    let kept = vec2u(queue[i * PIECE_WORDS + PIECE_NU], queue[i * PIECE_WORDS + PIECE_NV]);
    if (kept.x != 0u) {
      segU = kept.x - 1u;
      segV = kept.y - 1u;
    }
    let alongU = lenU >= lenV;
    let regionSide = max(params.region.z - params.region.x, params.region.w - params.region.y);
    if ((segU + 1u) * (segV + 1u) <= params.maxVertices) {
      action = READY;
      let reach = max(lenU, lenV);
      let along = select(segV, segU, alongU);
      let halves = along >= 2u && (along & 1u) == 0u;
      let far = reach > REGION_SPLIT * regionSide && halves;
      let across = reach > CUT_SPLIT * regionSide && halves && along >= 2u * CUT_SPLIT_LEAST && boxCrossesCut(lo, hi, params.region);
      if ((far || across) && depth < params.maxDepth) {
        action = select(SPLIT_V, SPLIT_U, alongU) | REGION_SPLIT_FLAG;
        nu = segU + 1u;
        nv = segV + 1u;
      }
    } else if (depth >= params.maxDepth) {
      // Out of splits: dice as finely as one workgroup allows.
      action = READY;
      while ((segU + 1u) * (segV + 1u) > params.maxVertices) { if (segU > segV) { segU /= 2u; } else { segV /= 2u; } }
    } else {
      action = select(SPLIT_V, SPLIT_U, wantU >= wantV);
    }
    if (action == READY) {
      nu = segU + 1u;
      nv = segV + 1u;
      atomicAdd(&counters[SPLIT_COUNTER_READY_VERTICES], nu * nv);
      if (2u * nu * nv > params.maxVertices) { atomicAdd(&counters[SPLIT_COUNTER_READY_LARGE_GRIDS], 1u); }
    }
  }
  decision[i] = action | (nu << 8u) | (nv << 20u);
  childCount[i] = select(0u, 2u, (action & ACTION_MASK) >= SPLIT_U);
  readyFlag[i] = select(0u, 1u, action == READY);
}

@compute @workgroup_size(64)
fn emit(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
        @builtin(local_invocation_index) local: u32) {
  let i = flatIndex(group, groups, local);
  if (i >= params.count) { return; }
  let d = decision[i];
  let action = d & ACTION_MASK;
  if (action == CULL) { return; }
  var record: array<u32, PIECE_WORDS>;
  for (var w = 0u; w < PIECE_WORDS; w++) { record[w] = queue[i * PIECE_WORDS + w]; }
  if (action == READY) {
    record[PIECE_NU] = (d >> 8u) & 0xfffu;
    record[PIECE_NV] = d >> 20u;
    let at = (params.readyBase + readyOffset[i]) * PIECE_WORDS;
    for (var w = 0u; w < PIECE_WORDS; w++) { readyList[at + w] = record[w]; }
    return;
  }
  record[PIECE_SPLITS] = record[PIECE_SPLITS] + 1u + select(0u, EYE_SPLIT, (d & EYE_SPLIT_FLAG) != 0u);
  // Halves of a region split keep the piece's lattice, half of it each along the split; others
  // choose their own grids.
  let region = (d & REGION_SPLIT_FLAG) != 0u;
  let nu = (d >> 8u) & 0xfffu;
  let nv = d >> 20u;
  record[PIECE_NU] = select(0u, select(nu, (nu - 1u) / 2u + 1u, action == SPLIT_U), region);
  record[PIECE_NV] = select(0u, select(nv, (nv - 1u) / 2u + 1u, action == SPLIT_V), region);
  let at = childOffset[i] * PIECE_WORDS;
  // Children: the lower and upper half of the split parameter range ([lo, hi] at field, field + 1).
  let field = select(PIECE_V0, PIECE_U0, action == SPLIT_U);
  let lo = bitcast<f32>(record[field]);
  let hi = bitcast<f32>(record[field + 1u]);
  let mid = bitcast<u32>(0.5 * (lo + hi));
  for (var w = 0u; w < PIECE_WORDS; w++) { nextQueue[at + w] = record[w]; nextQueue[at + PIECE_WORDS + w] = record[w]; }
  nextQueue[at + field + 1u] = mid;
  nextQueue[at + PIECE_WORDS + field] = mid;
}
