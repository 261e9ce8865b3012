// Reduce-then-scan of u32, one level of a multi-level scan (src/gpu/scan.ts drives the levels).
//   reduceBlocks: blockSums[b] = sum of block b of `input`
//   scanBlocks:   output = scan of each block, plus blockOffsets[b] (the exclusive scan of blockSums)
// Each workgroup owns one block of BLOCK = WORKGROUP * ITEMS elements. No workgroup waits on another,
// so nothing relies on forward progress between workgroups.
// @include workgroup-scan.wgsl

override INCLUSIVE: bool = false;
// Level 0 of a compaction scans flags: any non-zero word counts as 1.
override FLAGS_AS_BITS: bool = false;

const WORKGROUP: u32 = 256u;
const RAKES: u32 = 16u;
const ITEMS: u32 = 8u;
const BLOCK: u32 = WORKGROUP * ITEMS;

struct Params {
  count: u32,
  blockCount: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;

var<workgroup> tile: array<u32, BLOCK>;

/** ITEMS in a form the compiler cannot bound (no block count is all ones, but it cannot know), so
 * that it does not unroll the loops over a block's items: unrolled, they took lavapipe over a second
 * to compile. */
fn items() -> u32 {
  return select(ITEMS, 0u, params.blockCount == 0xffffffffu);
}

fn blockIndex(group: vec3u, groups: vec3u) -> u32 {
  return group.x + group.y * groups.x;
}

fn load(index: u32) -> u32 {
  if (index >= params.count) {
    return 0u;
  }
  let value = input[index];
  if (FLAGS_AS_BITS) {
    return select(0u, 1u, value != 0u);
  }
  return value;
}

@group(0) @binding(2) var<storage, read_write> blockSums: array<u32>;

@compute @workgroup_size(WORKGROUP)
fn reduceBlocks(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) local: u32) {
  let block = blockIndex(group, groups);
  if (block >= params.blockCount) {
    return;
  }
  var sum = 0u;
  for (var i = 0u; i < items(); i++) {
    sum += load(block * BLOCK + i * WORKGROUP + local);
  }
  let total = workgroupExclusiveScan(local, sum).y;
  if (local == 0u) {
    blockSums[block] = total;
  }
}

@group(0) @binding(3) var<storage, read_write> output: array<u32>;
@group(0) @binding(4) var<storage, read> blockOffsets: array<u32>;
// total[0] receives the sum of all `count` elements (written by the last block).
@group(0) @binding(5) var<storage, read_write> total: array<u32>;

@compute @workgroup_size(WORKGROUP)
fn scanBlocks(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
              @builtin(local_invocation_index) local: u32) {
  let block = blockIndex(group, groups);
  if (block >= params.blockCount) {
    return;
  }
  let base = block * BLOCK;
  // Coalesced loads into the tile, then each invocation scans ITEMS consecutive elements.
  for (var i = 0u; i < items(); i++) {
    tile[i * WORKGROUP + local] = load(base + i * WORKGROUP + local);
  }
  workgroupBarrier();
  var sum = 0u;
  for (var k = 0u; k < items(); k++) {
    sum += tile[local * ITEMS + k];
  }
  let scanned = workgroupExclusiveScan(local, sum);
  let offset = blockOffsets[block];
  var running = offset + scanned.x;
  for (var k = 0u; k < items(); k++) {
    let value = tile[local * ITEMS + k];
    running += value;
    tile[local * ITEMS + k] = select(running - value, running, INCLUSIVE);
  }
  workgroupBarrier();
  for (var i = 0u; i < items(); i++) {
    let index = base + i * WORKGROUP + local;
    if (index < params.count) {
      output[index] = tile[i * WORKGROUP + local];
    }
  }
  if (block == params.blockCount - 1u && local == 0u) {
    total[0] = offset + scanned.y;
  }
}
