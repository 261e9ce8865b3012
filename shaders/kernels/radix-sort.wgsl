// One pass of a stable LSD radix sort of 64-bit keys (vec2u: x the low word, y the high word) with
// u32 values, on a digit of up to 4 bits (src/gpu/radix-sort.ts drives the passes):
//   countDigits:  histograms[digit * blockCount + block] = occurrences of digit in the block
//   (an exclusive scan of histograms then gives every block's first output slot for each digit)
//   scatterBlock: ranks each element within its block by counting: every invocation counts the
//                 digits of its own consecutive elements into its column of a digit × invocation
//                 table; an exclusive scan of the table in digit-major order gives each
//                 invocation's first local position for each digit. Stable by construction.
// @include workgroup-scan.wgsl

// A narrow workgroup with many items each: fewer invocations pass each barrier, which is what
// software drivers pay for; on a GPU a block is still 1024 elements.
const WORKGROUP: u32 = 64u;
const RAKES: u32 = 8u;
const ITEMS: u32 = 16u;
const BLOCK: u32 = WORKGROUP * ITEMS;
const RADIX: u32 = 16u;

struct Params {
  count: u32,
  blockCount: u32,
  // Bit position of the digit within the 64-bit key, a multiple of 4.
  shift: u32,
  // Bits in this digit (1..4); key bits above them are not looked at.
  digitBits: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keysIn: array<vec2u>;

fn blockIndex(group: vec3u, groups: vec3u) -> u32 {
  return group.x + group.y * groups.x;
}

fn digitOf(key: vec2u) -> u32 {
  let word = select(key.x, key.y, params.shift >= 32u);
  return (word >> (params.shift & 31u)) & ((1u << params.digitBits) - 1u);
}

@group(0) @binding(2) var<storage, read_write> histograms: array<u32>;

// counts[digit * WORKGROUP + invocation]: each invocation counts its own elements in its column,
// so no atomics are needed.
var<workgroup> counts: array<u32, RADIX * WORKGROUP>;

/** Counts the digits of this invocation's ITEMS consecutive elements into its column. */
fn countOwnDigits(first: u32, local: u32) {
  for (var digit = 0u; digit < RADIX; digit++) {
    counts[digit * WORKGROUP + local] = 0u;
  }
  for (var k = 0u; k < ITEMS; k++) {
    if (first + k < params.count) {
      counts[digitOf(keysIn[first + k]) * WORKGROUP + local] += 1u;
    }
  }
}

@compute @workgroup_size(WORKGROUP)
fn countDigits(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let block = blockIndex(group, groups);
  if (block >= params.blockCount) {
    return;
  }
  countOwnDigits(block * BLOCK + local * ITEMS, local);
  workgroupBarrier();
  if (local < RADIX) {
    var sum = 0u;
    for (var i = 0u; i < WORKGROUP; i++) {
      sum += counts[local * WORKGROUP + i];
    }
    histograms[local * params.blockCount + block] = sum;
  }
}

@group(0) @binding(3) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read> valuesIn: array<u32>;
@group(0) @binding(5) var<storage, read_write> keysOut: array<vec2u>;
@group(0) @binding(6) var<storage, read_write> valuesOut: array<u32>;

var<workgroup> digitStart: array<u32, RADIX>;

@compute @workgroup_size(WORKGROUP)
fn scatterBlock(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) local: u32) {
  let block = blockIndex(group, groups);
  if (block >= params.blockCount) {
    return;
  }
  // This invocation's elements are consecutive, so invocation order is input order.
  let first = block * BLOCK + local * ITEMS;
  countOwnDigits(first, local);
  workgroupBarrier();

  // Exclusive scan of the counts in digit-major order: invocation i scans entries
  // [i * RADIX, (i + 1) * RADIX) serially, then the workgroup scans the invocations' sums.
  var sum = 0u;
  for (var j = 0u; j < RADIX; j++) {
    sum += counts[local * RADIX + j];
  }
  var running = workgroupExclusiveScan(local, sum).x;
  for (var j = 0u; j < RADIX; j++) {
    let slot = local * RADIX + j;
    let n = counts[slot];
    counts[slot] = running;
    running += n;
  }
  workgroupBarrier();
  if (local < RADIX) {
    digitStart[local] = counts[local * WORKGROUP];
  }
  workgroupBarrier();

  for (var k = 0u; k < ITEMS; k++) {
    let index = first + k;
    if (index < params.count) {
      let key = keysIn[index];
      let digit = digitOf(key);
      let slot = digit * WORKGROUP + local;
      let position = counts[slot];
      counts[slot] = position + 1u;
      let destination = offsets[digit * params.blockCount + block] + position - digitStart[digit];
      keysOut[destination] = key;
      valuesOut[destination] = valuesIn[index];
    }
  }
}
