// Reseam, after shading a frame whose shaders displace P: the dicer placed each edge vertex of a finer
// grid whose neighbour is coarser on that neighbour's straight micropolygon edge (reyes-seams.wgsl),
// but displacement then moved it along its own normal, off the displaced coarse edge: a crack. One
// workgroup per grid (as diced: at its piece's PIECE_GRID_BASE) puts each such vertex back between the
// displaced positions of the two coarse vertices around it, where both are vertices of the same grid
// (the coarse edge lies within this piece's side, as it does unless the piece is smaller than one
// coarse micropolygon). Those two vertices are never moved here, so the pass reads what it does not write.
// @include reyes-surface.wgsl
// @include reyes-seams.wgsl
// @layout ready-piece

override MAXV: u32 = 256u;
override OFF_P: u32;

struct ReseamParams {
  gridCount: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(0) var<uniform> params: ReseamParams;
@group(0) @binding(1) var<storage, read> prims: array<f32>;
@group(0) @binding(2) var<storage, read> readyList: array<u32>;
@group(0) @binding(3) var<storage, read_write> grids: array<f32>;
@group(0) @binding(4) var<storage, read> seams: array<u32>;
// Declared for reyes-surface.wgsl's key shapes, which this pass never evaluates (so it is not bound).
@group(0) @binding(5) var<storage, read> userCorners: array<f32>;

@compute @workgroup_size(MAXV)
fn reseam(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
          @builtin(local_invocation_index) k: u32) {
  let g = group.x + group.y * groups.x;
  if (g >= params.gridCount) { return; }
  let piece = g * PIECE_WORDS;
  let nu = readyList[piece + PIECE_NU];
  let nv = readyList[piece + PIECE_NV];
  if (k >= nu * nv) { return; }
  let i = k % nu;
  let j = k / nu;
  if (i != 0u && i != nu - 1u && j != 0u && j != nv - 1u) { return; }
  let lo = vec2f(bitcast<f32>(readyList[piece + PIECE_U0]), bitcast<f32>(readyList[piece + PIECE_V0]));
  let hi = vec2f(bitcast<f32>(readyList[piece + PIECE_U1]), bitcast<f32>(readyList[piece + PIECE_V1]));
  let step = (hi - lo) / vec2f(f32(nu - 1u), f32(nv - 1u));
  let seam = seamOf(g, periodic(readyList[piece + PIECE_PRIM]), i, j, nu, nv, lo, hi, step);
  if (seam.fraction == 0.0) { return; }
  // The coarse vertices' indices in this grid (their parameters are exact multiples of the step).
  let a = round((seam.ends.xy - lo) / step);
  let b = round((seam.ends.zw - lo) / step);
  let last = vec2f(f32(nu - 1u), f32(nv - 1u));
  if (any(a < vec2f(0.0)) || any(b < vec2f(0.0)) || any(a > last) || any(b > last)) { return; }
  let ka = u32(a.y) * nu + u32(a.x);
  let kb = u32(b.y) * nu + u32(b.x);
  let base = readyList[piece + PIECE_GRID_BASE] + OFF_P;
  for (var c = 0u; c < 3u; c++) {
    let row = base + c * MAXV;
    grids[row + k] = mix(grids[row + ka], grids[row + kb], seam.fraction);
  }
}
