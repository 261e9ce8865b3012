// Trim curves per sample point (RI 3.2 RiTrimCurve), for kernels that declare `prims` (the records)
// and `userCorners` (their auxiliary blocks). A point of a NuPatch is kept where a ray from it crosses
// the trim loops an odd number of times (the odd winding rule; Attribute "trimcurve" "sense"
// "outside" keeps the rest instead). The record's trim block (src/layout/trim-block.ts) holds the
// loops' segments that can decide a point of the record, in its own parameters (s, t); the ray runs
// towards +s, and a segment counts where it spans the point's t half-open, so a ray through a
// vertex of a loop crosses exactly one of the two segments that meet there.
// @layout primitive-record
// @layout trim-block

const NO_TRIM: u32 = 0xffffffffu;

/** Float offset in userCorners of record p's trim block, or NO_TRIM. */
fn trimBlock(p: u32) -> u32 {
  let word = bitcast<u32>(prims[p * REC_FLOATS + REC_TRIM]);
  if (word == 0u) { return NO_TRIM; }
  return bitcast<u32>(prims[p * REC_FLOATS + REC_AUX]) + word - 1u;
}

/** How the trim curves treat a micropolygon whose parameters lie in [lo, hi]: TRIM_KEPT or
 * TRIM_REMOVED where no segment touches that box (its centre decides for all of it), else TRIM_MIXED
 * (each sample point is tested). */
const TRIM_KEPT: u32 = 0u;
const TRIM_REMOVED: u32 = 1u;
const TRIM_MIXED: u32 = 2u;

fn trimCover(block: u32, lo: vec2f, hi: vec2f) -> u32 {
  let count = u32(userCorners[block + TRIM_BLOCK_COUNT]);
  let centre = 0.5 * (lo + hi);
  var odd = false;
  for (var k = 0u; k < count; k++) {
    let at = block + TRIM_BLOCK_SEGMENTS + k * TRIM_SEGMENT_FLOATS;
    let a = vec2f(userCorners[at + TRIM_SEGMENT_AX], userCorners[at + TRIM_SEGMENT_AY]);
    let b = vec2f(userCorners[at + TRIM_SEGMENT_BX], userCorners[at + TRIM_SEGMENT_BY]);
    if (all(max(a, b) >= lo) && all(min(a, b) <= hi)) {
      // The box's corners on both sides of the segment's line (or on it): the segment may cross it.
      let d = b - a;
      let s0 = d.x * (lo.y - a.y) - d.y * (lo.x - a.x);
      let s1 = d.x * (lo.y - a.y) - d.y * (hi.x - a.x);
      let s2 = d.x * (hi.y - a.y) - d.y * (lo.x - a.x);
      let s3 = d.x * (hi.y - a.y) - d.y * (hi.x - a.x);
      if (!(min(min(s0, s1), min(s2, s3)) > 0.0 || max(max(s0, s1), max(s2, s3)) < 0.0)) { return TRIM_MIXED; }
    }
    if ((a.y <= centre.y) != (b.y <= centre.y) && a.x + (centre.y - a.y) / (b.y - a.y) * (b.x - a.x) > centre.x) { odd = !odd; }
  }
  let keepOutside = userCorners[block + TRIM_BLOCK_SENSE] != 0.0;
  return select(TRIM_KEPT, TRIM_REMOVED, odd == keepOutside);
}

/** Whether the trim curves cut the record's point (s, t) away. */
fn trimmedAway(block: u32, st: vec2f) -> bool {
  let count = u32(userCorners[block + TRIM_BLOCK_COUNT]);
  var odd = false;
  for (var k = 0u; k < count; k++) {
    let at = block + TRIM_BLOCK_SEGMENTS + k * TRIM_SEGMENT_FLOATS;
    let a = vec2f(userCorners[at + TRIM_SEGMENT_AX], userCorners[at + TRIM_SEGMENT_AY]);
    let b = vec2f(userCorners[at + TRIM_SEGMENT_BX], userCorners[at + TRIM_SEGMENT_BY]);
    if ((a.y <= st.y) != (b.y <= st.y)) {
      let x = a.x + (st.y - a.y) / (b.y - a.y) * (b.x - a.x);
      if (x > st.x) { odd = !odd; }
    }
  }
  let keepOutside = userCorners[block + TRIM_BLOCK_SENSE] != 0.0;
  return odd == keepOutside;
}
