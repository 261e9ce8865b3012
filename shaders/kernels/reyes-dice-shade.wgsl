// Dice and shade fused into one kernel (src/reyes/pipeline/fusion.ts appends this file to a compiled
// RSL shading kernel, whose entry point becomes the function rsl_shade): each workgroup dices the
// grid it then shades. The grid passes between the two stages through the storage the workgroup
// itself wrote, ordered by storageBarrier, within one dispatch: no second kernel launch, no
// submission and no wait between dicing and shading. The shading kernel's gridInfo (binding 1)
// names each workgroup's grid by its base, which the ready piece it dices holds as PIECE_GRID_BASE
// (bases ascend with the pieces: src/reyes/stages/dice.ts packs the grids in order).
// @layout grid-info
// @include reyes-dice-grid.wgsl

override PERSPECTIVE: u32 = 1u;

@group(0) @binding(8) var<storage, read> prims: array<f32>;
@group(0) @binding(9) var<storage, read> readyList: array<u32>;
@group(0) @binding(10) var<storage, read> userCorners: array<f32>;
@group(0) @binding(11) var<storage, read> seams: array<u32>;

/** The ready piece whose grid starts at `base`: binding 9 holds just the region's pieces. */
fn pieceAt(base: u32) -> u32 {
  var lo = 0u;
  var hi = arrayLength(&readyList) / PIECE_WORDS;
  while (lo + 1u < hi) {
    let mid = (lo + hi) / 2u;
    if (readyList[mid * PIECE_WORDS + PIECE_GRID_BASE] <= base) { lo = mid; } else { hi = mid; }
  }
  return lo;
}

@compute @workgroup_size(MAXV)
fn diceShade(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let gi = wid.x + wid.y * nwg.x;
  let g = pieceAt(gridInfo[min(gi, frame.gridCount - 1u) * GRID_INFO_WORDS + GRID_INFO_RECORD_BASE]);
  shareDicedPiece(g, lid);
  var piece = dicedPiece();
  if (gi < frame.gridCount) { diceVertex(g, &piece, lid, PERSPECTIVE != 0u); }
  storageBarrier();
  rsl_shade(wid, nwg, lid);
}
