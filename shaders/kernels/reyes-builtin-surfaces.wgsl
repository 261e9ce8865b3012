// Built-in surface kernels, used until a compiled RSL kernel is available. They follow the grid
// layout contract of src/layout/grid-layout.ts: one workgroup per grid, vertex k of the grid is local
// invocation k; component c of a variable at record base + offset + c * MAXV + k.
//   defaultSurface: RenderMan's default surface (PRMan's defaultsurface, what Aqsis shades with when
//     there is no Surface): d = N̂ · Î, Ci = Os * Cs * (Ka + Kd * d²) with Ka 0.2, Kd 0.8, Oi = Os;
//     lights are ignored.
//   constantSurface: the standard "constant" shader, Ci = Os * Cs, Oi = Os.
// @layout frame-uniforms
// @layout grid-info

override MAXV: u32 = 256u;
override OFF_N: u32;
override OFF_I: u32;
override OFF_CS: u32;
override OFF_OS: u32;
override OFF_CI: u32;
override OFF_OI: u32;

@group(0) @binding(0) var<storage, read_write> grids: array<f32>;
@group(0) @binding(1) var<storage, read> gridInfo: array<u32>;
@group(0) @binding(3) var<uniform> frame: FrameUniforms;

fn load3(base: u32, offset: u32, k: u32) -> vec3f {
  return vec3f(grids[base + offset + k], grids[base + offset + MAXV + k], grids[base + offset + 2u * MAXV + k]);
}

fn store3(base: u32, offset: u32, k: u32, value: vec3f) {
  grids[base + offset + k] = value.x;
  grids[base + offset + MAXV + k] = value.y;
  grids[base + offset + 2u * MAXV + k] = value.z;
}

const NO_VERTEX: u32 = 0xffffffffu;

/** The record base of this workgroup's grid for vertex k, or NO_VERTEX past the grids or the grid's vertices. */
fn vertexRecord(group: vec3u, groups: vec3u, k: u32) -> u32 {
  let g = group.x + group.y * groups.x;
  if (g >= frame.gridCount || k >= gridInfo[g * GRID_INFO_WORDS + GRID_INFO_NU] * gridInfo[g * GRID_INFO_WORDS + GRID_INFO_NV]) { return NO_VERTEX; }
  return gridInfo[g * GRID_INFO_WORDS + GRID_INFO_RECORD_BASE];
}

@compute @workgroup_size(MAXV)
fn defaultSurface(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                  @builtin(local_invocation_index) k: u32) {
  let base = vertexRecord(group, groups, k);
  if (base == NO_VERTEX) { return; }
  let n = load3(base, OFF_N, k);
  let i = load3(base, OFF_I, k);
  let os = load3(base, OFF_OS, k);
  let cs = load3(base, OFF_CS, k);
  var d = 0.0;
  if (dot(n, n) > 0.0 && dot(i, i) > 0.0) { d = dot(normalize(n), normalize(i)); }
  store3(base, OFF_CI, k, os * cs * (0.2 + 0.8 * d * d));
  store3(base, OFF_OI, k, os);
}

@compute @workgroup_size(MAXV)
fn constantSurface(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                   @builtin(local_invocation_index) k: u32) {
  let base = vertexRecord(group, groups, k);
  if (base == NO_VERTEX) { return; }
  let os = load3(base, OFF_OS, k);
  store3(base, OFF_CI, k, os * load3(base, OFF_CS, k));
  store3(base, OFF_OI, k, os);
}
