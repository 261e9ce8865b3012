// Dice: one workgroup per ready piece (prim, depth, u0, u1, v0, v1, nu, nv) writes an nu × nv grid
// in the grid layout of src/layout/grid-layout.ts: vertex k = j * nu + i is local invocation k; each
// variable's component c of vertex k sits at grid base (the piece's PIECE_GRID_BASE, placed by
// src/reyes/stages/dice.ts) + offset + c * MAXV + k. Positions and
// derivatives are in camera space; derivatives are central differences of the surface (a Blobby
// patch's own, on the implicit surface's tangent plane: blobbySurfaceAt), nudged
// inward where the surface degenerates (poles, collapsed polygon edges). Primitive variables are
// interpolated bilinearly from the record's corner values, except vertex-class variables on bicubic
// records, which carry Bézier control values (primitive-record.ts, RECORD.aux) evaluated with the
// Bernstein basis like P, and a Blobby's vertex and varying ones, blended by its leaves' fields at the
// vertex (blobbyVariables). Grids meet without cracks: rates are powers of two, so the vertices of the
// coarser of two neighbouring grids are also vertices of the finer one, and an edge vertex of the
// finer grid whose neighbour is coarser (the seam table, grid-seams.ts) is placed on the coarser
// grid's straight micropolygon edge, also where that grid belongs to the next patch of a mesh (whose
// shared boundary control points are the same bits, convert/patches.ts).
// @layout ready-piece
// @layout grid-info
// @include reyes-dice-grid.wgsl

struct DiceParams {
  gridCount: u32,
  perspective: u32,
  pad0: u32,
  pad1: u32,
}

@group(0) @binding(0) var<uniform> params: DiceParams;
@group(0) @binding(1) var<storage, read> prims: array<f32>;
@group(0) @binding(2) var<storage, read> readyList: array<u32>;
@group(0) @binding(3) var<storage, read_write> grids: array<f32>;
@group(0) @binding(4) var<storage, read_write> gridInfo: array<u32>;
@group(0) @binding(5) var<storage, read> userCorners: array<f32>;
@group(0) @binding(6) var<storage, read> seams: array<u32>;

@compute @workgroup_size(MAXV)
fn dice(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
        @builtin(local_invocation_index) k: u32) {
  // No return before the piece is read (shareDicedPiece): workgroups past the last grid take the
  // last grid's piece and write nothing.
  let w = group.x + group.y * groups.x;
  let g = min(w, params.gridCount - 1u);
  shareDicedPiece(g, k);
  var piece = dicedPiece();
  if (w >= params.gridCount) { return; }
  if (k == 0u) {
    let info = g * GRID_INFO_WORDS;
    gridInfo[info + GRID_INFO_NU] = piece.nu;
    gridInfo[info + GRID_INFO_NV] = piece.nv;
    gridInfo[info + GRID_INFO_RECORD_BASE] = piece.base;
    gridInfo[info + GRID_INFO_PARAM_BASE] = recordWord(REC_PARAM_BASE);
  }
  diceVertex(g, &piece, k, params.perspective != 0u);
}

/** Only the grids `listed` names (their gridInfo made on the CPU): those whose shading kernels are
 * not fused with the dicer, in a frame where others are (src/reyes/pipeline/fusion.ts). */
@group(0) @binding(7) var<storage, read> listed: array<u32>;

@compute @workgroup_size(MAXV)
fn diceListed(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
              @builtin(local_invocation_index) k: u32) {
  let n = group.x + group.y * groups.x;
  let g = listed[min(n, params.gridCount - 1u)];
  shareDicedPiece(g, k);
  var piece = dicedPiece();
  if (n >= params.gridCount) { return; }
  diceVertex(g, &piece, k, params.perspective != 0u);
}
