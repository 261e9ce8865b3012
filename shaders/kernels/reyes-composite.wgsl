// Compositing of sorted sample points. After the radix sort by (subpixel, depth), `markRanges`
// finds each subpixel's run of samples, and `composite` walks each run front to back:
//   C += T * Ci, A += T * Oi (average of channels), T *= 1 - Oi
// where T is the transmittance so far. Matte samples are completely opaque whatever their Oi (RI
// spec 3.2, RiMatte: they hide what is behind them, and where they are seen the image is
// transparent): T falls to 0 and they add neither colour nor alpha. The run stops once T is negligible. Output: premultiplied RGBA, the
// depth of the nearest sample per subpixel and that sample's primitive record (all ones for none;
// the payload's colour w holds record + 1, negated for a matte: reyes-sample.wgsl).

// @layout sample-point
struct CompositeParams {
  sampleCount: u32,
  subpixelCount: u32,
  pad0: u32,
  pad1: u32,
}

@group(0) @binding(0) var<uniform> params: CompositeParams;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> runStart: array<u32>;
@group(0) @binding(3) var<storage, read_write> runEnd: array<u32>;
@group(0) @binding(4) var<storage, read> values: array<u32>;
@group(0) @binding(5) var<storage, read> payload: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> colorBuffer: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> depthOut: array<f32>;
@group(0) @binding(8) var<storage, read_write> idOut: array<u32>;

fn flatIndex(group: vec3u, groups: vec3u, local: u32) -> u32 {
  return (group.x + group.y * groups.x) * 256u + local;
}

@compute @workgroup_size(256)
fn markRanges(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
              @builtin(local_invocation_index) local: u32) {
  let i = flatIndex(group, groups, local);
  if (i >= params.sampleCount) { return; }
  let s = keys[i * SAMPLE_KEY_WORDS + SAMPLE_KEY_SUBPIXEL];
  if (s >= params.subpixelCount) { return; }
  if (i == 0u || keys[(i - 1u) * SAMPLE_KEY_WORDS + SAMPLE_KEY_SUBPIXEL] != s) { runStart[s] = i; }
  if (i + 1u == params.sampleCount || keys[(i + 1u) * SAMPLE_KEY_WORDS + SAMPLE_KEY_SUBPIXEL] != s) { runEnd[s] = i + 1u; }
}

@compute @workgroup_size(256)
fn composite(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
             @builtin(local_invocation_index) local: u32) {
  let s = flatIndex(group, groups, local);
  if (s >= params.subpixelCount) { return; }
  var color = vec3f(0.0);
  var alpha = 0.0;
  var transmit = vec3f(1.0);
  var depth = 3.0e38;
  let end = runEnd[s];
  var id = 0xffffffffu;
  if (runStart[s] < end) { id = u32(abs(payload[values[runStart[s]] * SAMPLE_PAYLOAD_VEC4S + SAMPLE_PAYLOAD_COLOR].w)) - 1u; }
  for (var i = runStart[s]; i < end; i++) {
    let at = values[i];
    let a = payload[at * SAMPLE_PAYLOAD_VEC4S + SAMPLE_PAYLOAD_COLOR];
    let b = payload[at * SAMPLE_PAYLOAD_VEC4S + SAMPLE_PAYLOAD_OPACITY];
    let ci = a.xyz;
    let matte = a.w < 0.0;
    let oi = select(clamp(b.xyz, vec3f(0.0), vec3f(1.0)), vec3f(1.0), matte);
    depth = min(depth, b.w);
    if (!matte) {
      color += transmit * ci;
      alpha += dot(transmit * oi, vec3f(1.0 / 3.0));
    }
    transmit *= vec3f(1.0) - oi;
    if (max(transmit.x, max(transmit.y, transmit.z)) < 1.0e-4) { break; }
  }
  colorBuffer[s] = vec4f(color, alpha);
  depthOut[s] = depth;
  idOut[s] = id;
}
