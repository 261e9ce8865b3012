// One pass of a stable LSD radix sort of 64-bit keys (vec2u: x the low word, y the high word) with
// u32 values, on a digit of up to 8 bits (src/gpu/radix-sort.ts drives the passes):
//   countDigits:  histograms[digit * blockCount + block] = occurrences of digit in the block
//   (an exclusive scan of histograms then gives every block's first output slot for each digit)
//   scatterBlock: sorts its block locally by the digit (stable 1-bit splits in workgroup memory),
//                 then writes each element to offsets[digit * blockCount + block] + its rank.
// Needs workgroup-scan.wgsl.

// A narrow workgroup with many items each: fewer invocations pass each barrier, which is what
// software drivers pay for; on a GPU a block is still 1024 elements.
const WORKGROUP: u32 = 64u;
const RAKES: u32 = 8u;
const ITEMS: u32 = 16u;
const BLOCK: u32 = WORKGROUP * ITEMS;
const RADIX: u32 = 256u;
// Marks a tile slot past the end of the input (local indices are below BLOCK).
const PADDING: u32 = 0xffffu;

struct Params {
  count: u32,
  blockCount: u32,
  // Bit position of the digit within the 64-bit key, a multiple of 8.
  shift: u32,
  // Bits in this digit (1..8); key bits above them are not looked at.
  digitBits: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keysIn: array<vec2u>;

fn blockIndex(group: vec3u, groups: vec3u) -> u32 {
  return group.x + group.y * groups.x;
}

fn digitMask() -> u32 {
  return (1u << params.digitBits) - 1u;
}

fn digitOf(key: vec2u) -> u32 {
  let word = select(key.x, key.y, params.shift >= 32u);
  return (word >> (params.shift & 31u)) & digitMask();
}

@group(0) @binding(2) var<storage, read_write> histograms: array<u32>;

var<workgroup> digitCounts: array<atomic<u32>, RADIX>;

@compute @workgroup_size(WORKGROUP)
fn countDigits(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let block = blockIndex(group, groups);
  if (block >= params.blockCount) {
    return;
  }
  for (var digit = local; digit < RADIX; digit += WORKGROUP) {
    atomicStore(&digitCounts[digit], 0u);
  }
  workgroupBarrier();
  for (var i = 0u; i < ITEMS; i++) {
    let index = block * BLOCK + i * WORKGROUP + local;
    if (index < params.count) {
      atomicAdd(&digitCounts[digitOf(keysIn[index])], 1u);
    }
  }
  workgroupBarrier();
  for (var digit = local; digit < RADIX; digit += WORKGROUP) {
    histograms[digit * params.blockCount + block] = atomicLoad(&digitCounts[digit]);
  }
}

@group(0) @binding(3) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read> valuesIn: array<u32>;
@group(0) @binding(5) var<storage, read_write> keysOut: array<vec2u>;
@group(0) @binding(6) var<storage, read_write> valuesOut: array<u32>;

// Two halves used in turn by the splits; a slot holds digit << 16 | local index.
var<workgroup> tile: array<u32, 2u * BLOCK>;
var<workgroup> digitStart: array<u32, RADIX>;

fn slotDigit(slot: u32) -> u32 {
  return (slot >> 16u) & 0xffu;
}

@compute @workgroup_size(WORKGROUP)
fn scatterBlock(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) local: u32) {
  let block = blockIndex(group, groups);
  if (block >= params.blockCount) {
    return;
  }
  let base = block * BLOCK;
  for (var i = 0u; i < ITEMS; i++) {
    let position = i * WORKGROUP + local;
    let index = base + position;
    // Padding takes the largest digit, so the stable splits leave it after every real element.
    var slot = (digitMask() << 16u) | PADDING;
    if (index < params.count) {
      slot = (digitOf(keysIn[index]) << 16u) | position;
    }
    tile[position] = slot;
  }
  workgroupBarrier();

  // Stable split on each digit bit, least significant first: zeros keep their order in front,
  // ones keep their order behind them.
  var source = 0u;
  for (var bit = 0u; bit < params.digitBits; bit++) {
    let into = BLOCK - source;
    let first = local * ITEMS;
    var zeros = 0u;
    for (var k = 0u; k < ITEMS; k++) {
      zeros += 1u - ((tile[source + first + k] >> (16u + bit)) & 1u);
    }
    let scanned = workgroupExclusiveScan(local, zeros);
    let totalZeros = scanned.y;
    var zerosBefore = scanned.x;
    for (var k = 0u; k < ITEMS; k++) {
      let position = first + k;
      let slot = tile[source + position];
      if (((slot >> (16u + bit)) & 1u) == 0u) {
        tile[into + zerosBefore] = slot;
        zerosBefore++;
      } else {
        tile[into + totalZeros + position - zerosBefore] = slot;
      }
    }
    workgroupBarrier();
    source = into;
  }

  for (var k = 0u; k < ITEMS; k++) {
    let position = local * ITEMS + k;
    let digit = slotDigit(tile[source + position]);
    if (position == 0u || digit != slotDigit(tile[source + position - 1u])) {
      digitStart[digit] = position;
    }
  }
  workgroupBarrier();

  for (var k = 0u; k < ITEMS; k++) {
    let position = local * ITEMS + k;
    let slot = tile[source + position];
    let origin = slot & 0xffffu;
    if (origin != PADDING) {
      let digit = slotDigit(slot);
      let destination = offsets[digit * params.blockCount + block] + position - digitStart[digit];
      keysOut[destination] = keysIn[base + origin];
      valuesOut[destination] = valuesIn[base + origin];
    }
  }
}
