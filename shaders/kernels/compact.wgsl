// Stream compaction, scatter step: element i with a non-zero flag goes to output[offsets[i]], where
// offsets is the exclusive scan of the flags (src/gpu/compact.ts). The order of kept elements is kept.

// Write the element's index instead of values[i].
override WRITE_INDICES: bool = false;

const WORKGROUP: u32 = 256u;

struct Params {
  count: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read> values: array<u32>;
@group(0) @binding(4) var<storage, read_write> output: array<u32>;

@compute @workgroup_size(WORKGROUP)
fn scatterKept(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let index = (group.x + group.y * groups.x) * WORKGROUP + local;
  if (index >= params.count || flags[index] == 0u) {
    return;
  }
  if (WRITE_INDICES) {
    output[offsets[index]] = index;
  } else {
    output[offsets[index]] = values[index];
  }
}
