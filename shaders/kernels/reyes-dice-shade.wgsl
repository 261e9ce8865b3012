// Dice and shade fused into one kernel (src/reyes/pipeline/fusion.ts appends this file to a compiled
// RSL shading kernel, whose entry point becomes the function rsl_shade): each workgroup dices the
// grid it then shades. The grid passes between the two stages through the storage the workgroup
// itself wrote, ordered by storageBarrier, within one dispatch: no second kernel launch, no
// submission and no wait between dicing and shading. The shading kernel's gridInfo (binding 1)
// names each workgroup's grid: its record base over RECORD_FLOATS is the ready piece it dices.
// @layout grid-info
// @include reyes-dice-grid.wgsl

override PERSPECTIVE: u32 = 1u;

@group(0) @binding(8) var<storage, read> prims: array<f32>;
@group(0) @binding(9) var<storage, read> readyList: array<u32>;
@group(0) @binding(10) var<storage, read> userCorners: array<f32>;
@group(0) @binding(11) var<storage, read> seams: array<u32>;

@compute @workgroup_size(MAXV)
fn diceShade(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let gi = wid.x + wid.y * nwg.x;
  if (gi < frame.gridCount) {
    diceVertex(gridInfo[gi * GRID_INFO_WORDS + GRID_INFO_RECORD_BASE] / RECORD_FLOATS, lid, PERSPECTIVE != 0u);
  }
  storageBarrier();
  rsl_shade(wid, nwg, lid);
}
