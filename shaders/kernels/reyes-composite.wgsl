// Compositing of sample points without a global sort (a GPU A-buffer): sample points only need
// ordering within their subpixel, and a subpixel holds a handful.
//   linkSamples: each sample point joins its subpixel's list: it swaps itself in as the list's head
//                and keeps the old head, beside its depth (one load of a link gives both)
//   composite:   each subpixel walks its list front to back, NEAREST at a time: one pass over
//                the list keeps the NEAREST smallest (depth, sample index) keys beyond the last
//                one composited, sorted by insertion; a deeper list takes further passes.
//                (depth, sample index) orders the points exactly as the stable sort by depth did,
//                whatever order the atomic swaps left the list in.
// (Counting each subpixel's points, scanning the counts into list starts and scattering the points'
// indices there cost two passes and a scan more, about 40% of compositing on lavapipe.)
//   C += T * Ci, A += T * Oi (average of channels), T *= 1 - Oi
// where T is the transmittance so far. Matte samples are completely opaque whatever their Oi (RI
// spec 3.2, RiMatte: they hide what is behind them, and where they are seen the image is
// transparent): T falls to 0 and they add neither colour nor alpha. The walk stops once T is
// negligible. Output: premultiplied RGBA, the depth of the nearest sample per subpixel and that
// sample's primitive record (all ones for none; the payload's colour w holds record + 1, negated
// for a matte: reyes-sample.wgsl). A key's subpixel of all ones marks a point not covered.
// CSG (RI 3.2 SolidBegin): a sample of a solid's surface carries its leaf (a primitive solid), negated
// where the ray leaves it (a back face). Walking front to back, each subpixel keeps which leaves
// its ray is inside; a solid's sample is composited only where it changes whether the ray is inside
// the top-level solid it belongs to (src/layout/solid-table.ts), that is where it lies on the
// boundary of the combined solid. The walk starts outside every solid.

const NEAREST: u32 = 16u;
/** False for a frame without CSG solids: their test, unused, still doubled the composite pass's time on lavapipe. */
override SOLIDS: bool = true;

// @layout sample-point
// @layout solid-table
struct CompositeParams {
  sampleCount: u32,
  subpixelCount: u32,
  pad0: u32,
  pad1: u32,
}

// A key is read whole, as one vec2u.
const_assert SAMPLE_KEY_WORDS == 2u;
/** A list's end: heads and links hold 1 + a sample point's index. */
const END: u32 = 0u;

@group(0) @binding(0) var<uniform> params: CompositeParams;
@group(0) @binding(1) var<storage, read> keys: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> headsAtomic: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> links: array<vec2u>;   // (next, depth bits) per sample point
@group(0) @binding(4) var<storage, read> heads: array<u32>;           // per subpixel (cleared to END)
@group(0) @binding(6) var<storage, read> payload: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> colorBuffer: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> depthOut: array<f32>;
@group(0) @binding(9) var<storage, read_write> idOut: array<u32>;
@group(0) @binding(11) var<storage, read> solids: array<u32>;

const SOLID_WORDS: u32 = MAX_SOLID_LEAVES / 32u;

fn flatIndex(group: vec3u, groups: vec3u, local: u32) -> u32 {
  return (group.x + group.y * groups.x) * 256u + local;
}

@compute @workgroup_size(256)
fn linkSamples(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let i = flatIndex(group, groups, local);
  if (i >= params.sampleCount) { return; }
  let key = keys[i];
  let s = key[SAMPLE_KEY_SUBPIXEL];
  if (s >= params.subpixelCount) { return; }
  links[i] = vec2u(atomicExchange(&headsAtomic[s], i + 1u), key[SAMPLE_KEY_DEPTH]);
}

/** Whether key `a` (depth bits, sample index) comes before `b`. */
fn before(a: vec2u, b: vec2u) -> bool {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

/** Whether a ray inside the leaves set in `inside` is inside the top-level solid of nodes [start, end):
 * the postfix expression evaluated on a stack of bits. */
fn insideSolid(start: u32, end: u32, inside: ptr<function, array<u32, SOLID_WORDS>>) -> bool {
  var stack = 0u;
  var top = 0u;
  for (var k = start; k < end; k++) {
    let node = solids[k];
    let op = node & SOLID_NODE_OP_MASK;
    if (op == SOLID_OP_LEAF) {
      let leaf = node >> SOLID_NODE_SHIFT;
      stack |= (((*inside)[leaf / 32u] >> (leaf % 32u)) & 1u) << top;
      top++;
    } else {
      top -= 2u;
      let a = (stack >> top) & 1u;
      let b = (stack >> (top + 1u)) & 1u;
      var r = a | b;
      if (op == SOLID_OP_INTERSECTION) { r = a & b; } else if (op == SOLID_OP_DIFFERENCE) { r = a & (1u - b); }
      stack = (stack & ((1u << top) - 1u)) | (r << top);
      top++;
    }
  }
  return (stack & 1u) != 0u;
}

@compute @workgroup_size(256)
fn composite(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
             @builtin(local_invocation_index) local: u32) {
  let s = flatIndex(group, groups, local);
  if (s >= params.subpixelCount) { return; }
  let head = heads[s];
  var color = vec3f(0.0);
  var alpha = 0.0;
  var transmit = vec3f(1.0);
  var depth = 3.0e38;
  var id = 0xffffffffu;
  var nearest: array<vec2u, NEAREST>;
  var first = true;         // the first pass takes every key; later ones only keys after `last`
  var last = vec2u(0u);
  var done = false;
  var inside: array<u32, SOLID_WORDS>;
  loop {
    var n = 0u;
    var node = head;
    while (node != END) {
      let i = node - 1u;
      let link = links[i];
      node = link.x;
      let key = vec2u(link.y, i);
      if (!first && !before(last, key)) { continue; }
      if (n == NEAREST && !before(key, nearest[NEAREST - 1u])) { continue; }
      var k = min(n, NEAREST - 1u);
      while (k > 0u && before(key, nearest[k - 1u])) {
        nearest[k] = nearest[k - 1u];
        k--;
      }
      nearest[k] = key;
      n = min(n + 1u, NEAREST);
    }
    for (var k = 0u; k < n; k++) {
      let at = nearest[k].y;
      let a = payload[at * SAMPLE_PAYLOAD_VEC4S + SAMPLE_PAYLOAD_COLOR];
      let b = payload[at * SAMPLE_PAYLOAD_VEC4S + SAMPLE_PAYLOAD_OPACITY];
      if (SOLIDS && b.w != 0.0) {
        let leaf = u32(abs(b.w)) - 1u;
        let range = SOLID_TABLE_LEAVES + leaf * SOLID_TABLE_LEAF_WORDS;
        let before = insideSolid(solids[range], solids[range + 1u], &inside);
        let bit = 1u << (leaf % 32u);
        if (b.w > 0.0) { inside[leaf / 32u] |= bit; } else { inside[leaf / 32u] &= ~bit; }
        if (insideSolid(solids[range], solids[range + 1u], &inside) == before) { continue; }
      }
      if (id == 0xffffffffu) { id = u32(abs(a.w)) - 1u; }
      let matte = a.w < 0.0;
      let oi = select(clamp(b.xyz, vec3f(0.0), vec3f(1.0)), vec3f(1.0), matte);
      depth = min(depth, bitcast<f32>(nearest[k].x));
      if (!matte) {
        color += transmit * a.xyz;
        alpha += dot(transmit * oi, vec3f(1.0 / 3.0));
      }
      transmit *= vec3f(1.0) - oi;
      if (max(transmit.x, max(transmit.y, transmit.z)) < 1.0e-4) { done = true; break; }
    }
    if (done || n < NEAREST) { break; }
    last = nearest[NEAREST - 1u];
    first = false;
  }
  colorBuffer[s] = vec4f(color, alpha);
  depthOut[s] = depth;
  idOut[s] = id;
}
