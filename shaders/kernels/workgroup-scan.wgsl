// Exclusive scan of one u32 per invocation across a workgroup, shared by the kernels that need it
// (`// @include workgroup-scan.wgsl`, src/layout/kernel-sources.ts). The including kernel defines WORKGROUP
// (its invocation count) and RAKES (a divisor of it). Raking: RAKES invocations each scan
// WORKGROUP / RAKES values serially, one scans the RAKES totals. Four barriers instead of the
// 2 log2(WORKGROUP) of a Hillis-Steele scan: barriers are what software Vulkan drivers pay for most,
// and a GPU loses little.

const RAKE_LENGTH: u32 = WORKGROUP / RAKES;

var<workgroup> scanSlots: array<u32, WORKGROUP>;
// RAKES exclusive offsets, then the workgroup total.
var<workgroup> rakeOffsets: array<u32, RAKES + 1u>;
// RAKE_LENGTH and RAKES as the rake loops read them: from workgroup memory, so that the compiler does
// not unroll the loops (unrolled, lavapipe took seconds to compile a scan kernel, not a tenth of one).
var<workgroup> rakeBounds: vec2u;

/** Returns (exclusive prefix of `value`, total over the workgroup). Call in uniform control flow. */
fn workgroupExclusiveScan(local: u32, value: u32) -> vec2u {
  scanSlots[local] = value;
  if (local == 0u) { rakeBounds = vec2u(RAKE_LENGTH, RAKES); }
  workgroupBarrier();
  if (local < RAKES) {
    var sum = 0u;
    for (var j = 0u; j < rakeBounds.x; j++) {
      let slot = local * RAKE_LENGTH + j;
      let v = scanSlots[slot];
      scanSlots[slot] = sum;
      sum += v;
    }
    rakeOffsets[local] = sum;
  }
  workgroupBarrier();
  if (local == 0u) {
    var sum = 0u;
    for (var j = 0u; j < rakeBounds.y; j++) {
      let v = rakeOffsets[j];
      rakeOffsets[j] = sum;
      sum += v;
    }
    rakeOffsets[RAKES] = sum;
  }
  workgroupBarrier();
  let result = vec2u(scanSlots[local] + rakeOffsets[local / RAKE_LENGTH], rakeOffsets[RAKES]);
  // Nobody may overwrite the slots for a next scan before everyone has read them.
  workgroupBarrier();
  return result;
}
