// Bound/split: one invocation per queue record (prim, depth, u0, u1, v0, v1, nu, nv). `classify`
// bounds the record's piece in camera space (a 5×5 sampling padded by an eighth of its extent and
// the displacement bound), culls it against the near/far planes, the ClippingPlane planes (a bound
// wholly on a plane's clipped side) and the region, splits pieces
// that straddle the eye plane, and otherwise estimates its grid (edges of sqrt(shading rate)
// pixels, rounded up to a power of two micropolygons per direction): a piece whose grid fits one
// workgroup is ready, a larger one is split in half across its longer direction. `emit` writes the children and the ready pieces at their scanned offsets.
// reyes-surface.wgsl is prepended.

struct SplitParams {
  count: u32,
  maxVertices: u32,
  readyBase: u32,
  maxDepth: u32,
  region: vec4f,        // raster x0, y0, x1, y1 (with the filter apron)
  near: f32,
  far: f32,
  eyeSplit: f32,        // pieces reaching nearer than this (perspective) are split
  perspective: u32,
  cameraToRaster: mat4x4f,
  clipCount: u32,
  clipPlanes: array<vec4f, MAX_CLIP_PLANES>,  // (n, d): camera-space points with n·P + d > 0 are clipped
}

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

const CULL: u32 = 0u;
const READY: u32 = 1u;
const SPLIT_U: u32 = 2u;
const SPLIT_V: u32 = 3u;
const SAMPLES: u32 = 5u;
const MAX_CLIP_PLANES: u32 = 16u;  // stages/sample.ts MAX_CLIP_PLANES

/** Whether the box [lo, hi] lies wholly on the clipped side of a ClippingPlane (its corner least far
 * along the normal is clipped). */
fn boxClipped(lo: vec3f, hi: vec3f) -> bool {
  for (var k = 0u; k < params.clipCount; k++) {
    let plane = params.clipPlanes[k];
    if (dot(plane.xyz, select(hi, lo, plane.xyz > vec3f(0.0))) + plane.w > 0.0) { return true; }
  }
  return false;
}

fn toRaster(p: vec3f) -> vec2f {
  let h = params.cameraToRaster * vec4f(p, 1.0);
  return h.xy / h.w;
}

/** The smallest power of two >= n (n >= 1). */
fn powerOfTwoAtLeast(n: u32) -> u32 {
  return 1u << (32u - countLeadingZeros(n - 1u));
}

fn flatIndex(group: vec3u, groups: vec3u, local: u32) -> u32 {
  return (group.x + group.y * groups.x) * 64u + local;
}

@compute @workgroup_size(64)
fn classify(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
            @builtin(local_invocation_index) local: u32) {
  let i = flatIndex(group, groups, local);
  if (i >= params.count) { return; }
  let prim = queue[i * 8u];
  let depth = queue[i * 8u + 1u];
  let u0 = bitcast<f32>(queue[i * 8u + 2u]);
  let u1 = bitcast<f32>(queue[i * 8u + 3u]);
  let v0 = bitcast<f32>(queue[i * 8u + 4u]);
  let v1 = bitcast<f32>(queue[i * 8u + 5u]);
  let m = objectToCamera(prim);
  var pts: array<vec3f, 25>;
  var lo = vec3f(3.0e38);
  var hi = vec3f(-3.0e38);
  for (var b = 0u; b < SAMPLES; b++) {
    for (var a = 0u; a < SAMPLES; a++) {
      let u = mix(u0, u1, f32(a) / f32(SAMPLES - 1u));
      let v = mix(v0, v1, f32(b) / f32(SAMPLES - 1u));
      let q = evalCamera(prim, m, u, v);
      pts[b * SAMPLES + a] = q;
      lo = min(lo, q);
      hi = max(hi, q);
    }
  }
  let extent = hi - lo;
  let pad = 0.125 * max(extent.x, max(extent.y, extent.z)) + recF(prim, REC_DISPLACEMENT_BOUND);
  lo -= vec3f(pad);
  hi += vec3f(pad);

  var action = CULL;
  var nu = 0u;
  var nv = 0u;
  let longerU = length(pts[SAMPLES - 1u] - pts[0]) + length(pts[SAMPLES * SAMPLES - 1u] - pts[SAMPLES * (SAMPLES - 1u)]) >=
                length(pts[SAMPLES * (SAMPLES - 1u)] - pts[0]) + length(pts[SAMPLES * SAMPLES - 1u] - pts[SAMPLES - 1u]);
  if (hi.z < params.near || lo.z > params.far || boxClipped(lo, hi)) {
    action = CULL;
  } else if (params.perspective != 0u && lo.z < params.eyeSplit) {
    // Straddles the eye plane: split until the pieces lie in front of it or behind the near plane.
    if (depth < params.maxDepth) { action = select(SPLIT_V, SPLIT_U, longerU); }
  } else {
    var rlo = vec2f(3.0e38);
    var rhi = vec2f(-3.0e38);
    for (var c = 0u; c < 8u; c++) {
      let corner = vec3f(select(lo.x, hi.x, (c & 1u) != 0u), select(lo.y, hi.y, (c & 2u) != 0u), select(lo.z, hi.z, (c & 4u) != 0u));
      let r = toRaster(corner);
      rlo = min(rlo, r);
      rhi = max(rhi, r);
    }
    let outside = rhi.x < params.region.x || rlo.x > params.region.z || rhi.y < params.region.y || rlo.y > params.region.w;
    if (!outside) {
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
      // Binary dicing: a power-of-two number of micropolygons across each direction, so that the
      // vertices of neighbouring grids along a shared edge nest (the dicer stitches the finer side
      // onto the coarser one's edge).
      let edge = sqrt(recF(prim, REC_SHADING_RATE));
      let wantU = u32(min(max(ceil(lenU / edge), 1.0), 65536.0));
      let wantV = u32(min(max(ceil(lenV / edge), 1.0), 65536.0));
      var segU = powerOfTwoAtLeast(wantU);
      var segV = powerOfTwoAtLeast(wantV);
      if ((segU + 1u) * (segV + 1u) <= params.maxVertices) {
        action = READY;
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
      }
    }
  }
  decision[i] = action | (nu << 8u) | (nv << 20u);
  childCount[i] = select(0u, 2u, action >= SPLIT_U);
  readyFlag[i] = select(0u, 1u, action == READY);
}

@compute @workgroup_size(64)
fn emit(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
        @builtin(local_invocation_index) local: u32) {
  let i = flatIndex(group, groups, local);
  if (i >= params.count) { return; }
  let d = decision[i];
  let action = d & 0xffu;
  if (action == CULL) { return; }
  var record: array<u32, 8>;
  for (var w = 0u; w < 8u; w++) { record[w] = queue[i * 8u + w]; }
  if (action == READY) {
    record[6] = (d >> 8u) & 0xfffu;
    record[7] = d >> 20u;
    let at = (params.readyBase + readyOffset[i]) * 8u;
    for (var w = 0u; w < 8u; w++) { readyList[at + w] = record[w]; }
    return;
  }
  record[1] = record[1] + 1u;
  let at = childOffset[i] * 8u;
  // Children: the lower and upper half of the split parameter range.
  let field = select(4u, 2u, action == SPLIT_U);
  let lo = bitcast<f32>(record[field]);
  let hi = bitcast<f32>(record[field + 1u]);
  let mid = bitcast<u32>(0.5 * (lo + hi));
  for (var w = 0u; w < 8u; w++) { nextQueue[at + w] = record[w]; nextQueue[at + 8u + w] = record[w]; }
  nextQueue[at + field + 1u] = mid;
  nextQueue[at + 8u + field] = mid;
}
