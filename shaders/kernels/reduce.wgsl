// Reduction (sum, min, max) of 32-bit words read as u32, i32 or f32; one level of a multi-level
// reduce (src/gpu/reduce.ts): each workgroup reduces BLOCK elements to one partial result.

// 0: sum, 1: min, 2: max.
override OPERATION: u32 = 0u;
// 0: u32, 1: i32, 2: f32.
override ELEMENT: u32 = 0u;

const WORKGROUP: u32 = 256u;
const ITEMS: u32 = 8u;
const BLOCK: u32 = WORKGROUP * ITEMS;

struct Params {
  count: u32,
  blockCount: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> partials: array<u32>;

var<workgroup> partial: array<u32, WORKGROUP>;

fn identity() -> u32 {
  if (OPERATION == 0u) {
    return select(0u, bitcast<u32>(0.0), ELEMENT == 2u);
  }
  if (OPERATION == 1u) {
    switch ELEMENT {
      case 1u: { return 0x7fffffffu; }
      case 2u: { return 0x7f800000u; } // +infinity
      default: { return 0xffffffffu; }
    }
  }
  switch ELEMENT {
    case 1u: { return 0x80000000u; }
    case 2u: { return 0xff800000u; } // -infinity
    default: { return 0u; }
  }
}

fn combine(a: u32, b: u32) -> u32 {
  if (ELEMENT == 2u) {
    let x = bitcast<f32>(a);
    let y = bitcast<f32>(b);
    switch OPERATION {
      case 0u: { return bitcast<u32>(x + y); }
      case 1u: { return bitcast<u32>(min(x, y)); }
      default: { return bitcast<u32>(max(x, y)); }
    }
  }
  if (ELEMENT == 1u) {
    let x = bitcast<i32>(a);
    let y = bitcast<i32>(b);
    switch OPERATION {
      case 0u: { return bitcast<u32>(x + y); }
      case 1u: { return bitcast<u32>(min(x, y)); }
      default: { return bitcast<u32>(max(x, y)); }
    }
  }
  switch OPERATION {
    case 0u: { return a + b; }
    case 1u: { return min(a, b); }
    default: { return max(a, b); }
  }
}

@compute @workgroup_size(WORKGROUP)
fn reduceBlocks(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) local: u32) {
  let block = group.x + group.y * groups.x;
  if (block >= params.blockCount) {
    return;
  }
  var accumulated = identity();
  for (var i = 0u; i < ITEMS; i++) {
    let index = block * BLOCK + i * WORKGROUP + local;
    if (index < params.count) {
      accumulated = combine(accumulated, input[index]);
    }
  }
  partial[local] = accumulated;
  workgroupBarrier();
  for (var width = WORKGROUP / 2u; width > 0u; width = width >> 1u) {
    if (local < width) {
      partial[local] = combine(partial[local], partial[local + width]);
    }
    workgroupBarrier();
  }
  if (local == 0u) {
    partials[block] = partial[0];
  }
}
