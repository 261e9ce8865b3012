// The WGSL of texture lookups, added to a shading kernel that calls them: the paged atlas and the
// feedback bindings (src/layout/texture-pages.ts) and the filters. texel reads go through the page
// table; a tile that is not in the pool reads 0, asks for the tile in the feedback and marks the
// grid missed: its kernel writes nothing back and the host shades it again once the tile is in
// (tile-pool.ts). texture(): the footprint is the parallelogram of the s,t
// change across the micropolygon (its axes from the derivatives of s and t), scaled by "width"
// and widened by "blur"; filtering is anisotropic as GPUs do it: several trilinear probes along
// the footprint's major axis (at most "samples", 16 unless given), each at the mip level of the
// minor axis (or of the major one over the probe count, if larger); box or gaussian weights
// along the axis. A missing map, or a channel past the map's, gives the fill value. shadow():
// percentage-closer filtering of the depth map over the footprint (below). environment(): lat-long
// and cube-face maps (below); a cube-face lookup filters within one face (its texel reads clamp to
// that face's square of the 3 × 2 grid: \`face\` 0-5, RSL_NO_FACE for the other maps).
import { ATLAS, FEEDBACK, PAGE_ABSENT, TILE } from '../layout/texture-pages.ts';
import { KIND_CODE } from './tile-table.ts';

export const TEXTURE_BINDING = 5;
export const TEXTURE_FEEDBACK_BINDING = 6;
/** shadow()'s default "bias": camera-space depth a point must lie beyond the map's to be hidden
 * (the map holds one depth per texel, so a surface sloped to the light differs from it by up to
 * half a texel's depth change). */
export const SHADOW_BIAS = 0.05;
/** Where textureinfo() finds its answers in a map's header (src/layout/texture-pages.ts). */
export const TEXTURE_INFO_WORD = {
  resolution: ATLAS.levelTable, channels: ATLAS.channels, kind: ATLAS.kind, viewingMatrix: ATLAS.shadowCamera, projectionMatrix: ATLAS.shadowScreen,
} as const;

/** Filter codes of the lookups' "filter" parameter. */
export const TEXTURE_FILTER = { box: 0, gaussian: 1 } as const;

const L = ATLAS.levelTable;

/** True when a compiled kernel declares the atlas binding (it makes texture lookups). */
export function usesTextures(code: string): boolean {
  return code.includes(`@binding(${TEXTURE_BINDING}) var<storage, read> rsl_textures`);
}

/** The kernel entry's lines right after it knows its grid `gi`: a grid the host marked done (or not
 * to shade in this pass) returns at once. */
export const TEXTURE_ENTRY_WGSL = [
  '  if (lid == 0u) { rsl_tex_start(gi); }',
  '  if (workgroupUniformLoad(&rsl_tex_skip) != 0u) { return; }',
];

/** Whether the grid read every tile it looked up, so its results may be written back; the entry's
 * last line calls rsl_tex_finish(gi, complete). */
export const TEXTURE_COMPLETE_WGSL = 'workgroupUniformLoad(&rsl_tex_missed) == 0u';

export const TEXTURE_WGSL = /* wgsl */ `
@group(0) @binding(${TEXTURE_BINDING}) var<storage, read> rsl_textures: array<u32>;
@group(0) @binding(${TEXTURE_FEEDBACK_BINDING}) var<storage, read_write> rsl_feedback: array<atomic<u32>>;
var<workgroup> rsl_tex_skip: u32;
var<workgroup> rsl_tex_missed: u32;
var<workgroup> rsl_tex_lookups: atomic<u32>;
const RSL_NO_FACE = 6u;

fn rsl_tex_map(slot: f32) -> u32 {
  if (slot < 0.0 || u32(slot) >= rsl_textures[${ATLAS.mapCount}u]) { return 0xffffffffu; }
  let h = ${ATLAS.header}u + u32(slot) * ${ATLAS.mapWords}u;
  if (rsl_textures[h + ${ATLAS.levels}u] == 0u) { return 0xffffffffu; }
  return h;
}

// textureinfo(): header word k + i of a map, as a number; 0 for a missing map.
fn rsl_texinfo_word(slot: f32, k: u32, i: u32) -> f32 {
  let h = rsl_tex_map(slot);
  if (h == 0xffffffffu) { return 0.0; }
  return f32(rsl_textures[h + k + i]);
}

fn rsl_texinfo_has(slot: f32) -> f32 {
  return select(0.0, 1.0, rsl_tex_map(slot) != 0xffffffffu);
}

fn rsl_texinfo_matrix(slot: f32, at: u32) -> mat4x4f {
  let h = rsl_tex_map(slot);
  if (h == 0xffffffffu) { return mat4x4f(); }
  return rsl_tex_matrix(h, at);
}

// -1 outside a black-wrapped edge.
fn rsl_tex_wrap(i: i32, n: i32, mode: u32) -> i32 {
  if (mode == 0u) { return ((i % n) + n) % n; }
  if (mode == 1u) { return clamp(i, 0, n - 1); }
  if (i < 0 || i >= n) { return -1; }
  return i;
}

// Channels c0 to c0 + 3 of a texel (0 past the map's channels).
fn rsl_tex_texel(h: u32, level: u32, x: i32, y: i32, c0: u32) -> vec4f {
  let lh = h + ${L}u + level * ${ATLAS.levelWords}u;
  let xi = rsl_tex_wrap(x, i32(rsl_textures[lh + ${ATLAS.levelWidth}u]), rsl_textures[h + ${ATLAS.swrap}u]);
  let yi = rsl_tex_wrap(y, i32(rsl_textures[lh + ${ATLAS.levelHeight}u]), rsl_textures[h + ${ATLAS.twrap}u]);
  if (xi < 0 || yi < 0) { return vec4f(0.0); }
  let shift = rsl_textures[h + ${ATLAS.tileShift}u];
  let page = rsl_textures[lh + ${ATLAS.levelPages}u] + (u32(yi) >> shift) * rsl_textures[lh + ${ATLAS.levelTilesX}u] + (u32(xi) >> shift);
  let slot = rsl_textures[page];
  let absent = slot == ${PAGE_ABSENT}u;
  // An absent tile is requested; a resident one marked read, when the pool pages.
  if (absent || rsl_textures[${ATLAS.paged}u] != 0u) { rsl_tex_note(page, select(rsl_textures[${ATLAS.bitmapWords}u], 0u, absent)); }
  if (absent) {
    rsl_tex_missed = 1u;
    return vec4f(0.0);
  }
  let mask = (1u << shift) - 1u;
  let channels = rsl_textures[h + ${ATLAS.channels}u];
  let at = rsl_textures[${ATLAS.poolBase}u] + slot * ${TILE.words}u + (((u32(yi) & mask) << shift) + (u32(xi) & mask)) * channels;
  var v = vec4f(0.0);
  for (var k = 0u; k < 4u && c0 + k < channels; k++) { v[k] = bitcast<f32>(rsl_textures[at + c0 + k]); }
  return v;
}

// Sets page's bit in the feedback bitmap at \`bitmap\` words past the requests (0: requests, else uses).
fn rsl_tex_note(page: u32, bitmap: u32) {
  let e = page - rsl_textures[${ATLAS.pagesStart}u];
  let w = ${FEEDBACK.requests}u + bitmap + e / 32u;
  let bit = 1u << (e % 32u);
  if ((atomicLoad(&rsl_feedback[w]) & bit) == 0u) { atomicOr(&rsl_feedback[w], bit); }
}

// Word and bit of grid gi's done bit.
fn rsl_tex_grid_word(gi: u32) -> u32 {
  return ${FEEDBACK.requests}u + 2u * rsl_textures[${ATLAS.bitmapWords}u] + gi / 32u;
}

fn rsl_tex_start(gi: u32) {
  rsl_tex_missed = 0u;
  atomicStore(&rsl_tex_lookups, 0u);
  rsl_tex_skip = 0u;
  if (rsl_textures[${ATLAS.paged}u] != 0u) { rsl_tex_skip = (atomicLoad(&rsl_feedback[rsl_tex_grid_word(gi)]) >> (gi % 32u)) & 1u; }
}

// One lookup per shaded vertex, for the statistics.
fn rsl_tex_count() {
  if (g_lid < g_nu * g_nv) { atomicAdd(&rsl_tex_lookups, 1u); }
}

fn rsl_tex_finish(gi: u32, complete: bool) {
  if (!complete) {
    atomicAdd(&rsl_feedback[${FEEDBACK.missedGrids}u], 1u);
    return;
  }
  atomicAdd(&rsl_feedback[${FEEDBACK.lookups}u], atomicLoad(&rsl_tex_lookups));
  if (rsl_textures[${ATLAS.paged}u] != 0u) { atomicOr(&rsl_feedback[rsl_tex_grid_word(gi)], 1u << (gi % 32u)); }
}

// rsl_tex_finish in a pass of a split kernel before the last (src/rsl/partition): it counts a miss
// and the lookups but sets no done bit, so the passes after it still shade the grid.
fn rsl_tex_finish_pass(gi: u32, complete: bool) {
  if (!complete) {
    atomicAdd(&rsl_feedback[${FEEDBACK.missedGrids}u], 1u);
    return;
  }
  atomicAdd(&rsl_feedback[${FEEDBACK.lookups}u], atomicLoad(&rsl_tex_lookups));
}

// The size st spans at a level: the level, or one face of a cube-face map's 3 × 2 grid.
fn rsl_tex_size(h: u32, level: u32, face: u32) -> vec2f {
  let lh = h + ${L}u + level * ${ATLAS.levelWords}u;
  let size = vec2f(f32(rsl_textures[lh + ${ATLAS.levelWidth}u]), f32(rsl_textures[lh + ${ATLAS.levelHeight}u]));
  return select(size, size / vec2f(3.0, 2.0), face < RSL_NO_FACE);
}

// Bilinear between the four texel centres around st (texel i's centre at (i + 0.5) / size); on a
// cube face the texels clamp to the face's square.
fn rsl_tex_bilinear(h: u32, level: u32, st: vec2f, c0: u32, face: u32) -> vec4f {
  let size = rsl_tex_size(h, level, face);
  let p = st * size - 0.5;
  let f = floor(p);
  let w = p - f;
  var x = vec2i(i32(f.x), i32(f.x) + 1);
  var y = vec2i(i32(f.y), i32(f.y) + 1);
  if (face < RSL_NO_FACE) {
    let n = i32(size.x);
    x = clamp(x, vec2i(0), vec2i(n - 1)) + i32(face >> 1u) * n;
    y = clamp(y, vec2i(0), vec2i(n - 1)) + i32(face & 1u) * n;
  }
  let top = mix(rsl_tex_texel(h, level, x.x, y.x, c0), rsl_tex_texel(h, level, x.y, y.x, c0), w.x);
  let bottom = mix(rsl_tex_texel(h, level, x.x, y.y, c0), rsl_tex_texel(h, level, x.y, y.y, c0), w.x);
  return mix(top, bottom, w.y);
}

fn rsl_tex_trilinear(h: u32, lod: f32, st: vec2f, c0: u32, face: u32) -> vec4f {
  let top = f32(rsl_textures[h + ${ATLAS.levels}u] - 1u);
  let l = clamp(lod, 0.0, top);
  let l0 = u32(floor(l));
  let a = rsl_tex_bilinear(h, l0, st, c0, face);
  let f = l - f32(l0);
  if (f == 0.0) { return a; }
  return mix(a, rsl_tex_bilinear(h, l0 + 1u, st, c0, face), f);
}

// Grows the footprint axis with the larger |component| k by blur in that component.
fn rsl_tex_blur(a: ptr<function, vec2f>, b: ptr<function, vec2f>, k: u32, blur: f32) {
  if (blur == 0.0) { return; }
  if (abs((*a)[k]) >= abs((*b)[k])) { (*a)[k] += select(-blur, blur, (*a)[k] >= 0.0); }
  else { (*b)[k] += select(-blur, blur, (*b)[k] >= 0.0); }
}

fn rsl_tex_matrix(h: u32, at: u32) -> mat4x4f {
  var m: mat4x4f;
  for (var c = 0u; c < 4u; c++) {
    let k = h + at + c * 4u;
    m[c] = vec4f(bitcast<f32>(rsl_textures[k]), bitcast<f32>(rsl_textures[k + 1u]), bitcast<f32>(rsl_textures[k + 2u]), bitcast<f32>(rsl_textures[k + 3u]));
  }
  return m;
}

// s, t in a shadow map and depth from its camera of a current-space point; w <= 0 behind it.
fn rsl_shadow_project(h: u32, p: vec3f) -> vec4f {
  let q = rsl_tex_matrix(h, ${ATLAS.shadowScreen}u) * vec4f(p, 1.0);
  let z = (rsl_tex_matrix(h, ${ATLAS.shadowCamera}u) * vec4f(p, 1.0)).z;
  return vec4f(0.5 * (q.x / q.w + 1.0), 0.5 * (1.0 - q.y / q.w), z, q.w);
}

// shadow(): the share of points over the footprint (the micropolygon's extent pu, pv projected
// into the map, scaled by the widths and widened by blur) that lie deeper than the map's depth
// there plus bias: percentage-closer filtering over an n × n pattern, n² ≈ "samples".
// options: blur, swidth, twidth, bias.
fn rsl_shadow(slot: f32, p: vec3f, pu: vec3f, pv: vec3f, options: vec4f, samples: f32) -> f32 {
  let h = rsl_tex_map(slot);
  if (h == 0xffffffffu) { return 0.0; }
  rsl_tex_count();
  let c = rsl_shadow_project(h, p);
  if (c.w <= 0.0) { return 0.0; }
  let widths = options.yz;
  var a = (rsl_shadow_project(h, p + pu).xy - c.xy) * widths;
  var b = (rsl_shadow_project(h, p + pv).xy - c.xy) * widths;
  rsl_tex_blur(&a, &b, 0u, options.x);
  rsl_tex_blur(&a, &b, 1u, options.x);
  let w = i32(rsl_textures[h + ${L}u]);
  let ht = i32(rsl_textures[h + ${L + ATLAS.levelHeight}u]);
  let n = u32(ceil(sqrt(clamp(samples, 1.0, 1024.0))));
  var hidden = 0.0;
  for (var j = 0u; j < n; j++) {
    for (var i = 0u; i < n; i++) {
      let o = (vec2f(f32(i), f32(j)) + 0.5) / f32(n) - 0.5;
      let st = c.xy + a * o.x + b * o.y;
      let x = i32(floor(st.x * f32(w)));
      let y = i32(floor(st.y * f32(ht)));
      // Outside the map nothing is known to block the light.
      if (x < 0 || y < 0 || x >= w || y >= ht) { continue; }
      if (c.z > rsl_tex_texel(h, 0u, x, y, 0u).x + options.w) { hidden += 1.0; }
    }
  }
  return hidden / f32(n * n);
}

// channels: how many to return (1 or 3) from the first; options: sblur, tblur, swidth, twidth;
// more: filter code, fill, samples (most probes).
fn rsl_texture(slot: f32, first: f32, channels: u32, st: vec2f, du: vec2f, dv: vec2f, options: vec4f, more: vec3f) -> vec3f {
  let h = rsl_tex_map(slot);
  if (h == 0xffffffffu) { return vec3f(more.y); }
  rsl_tex_count();
  return rsl_tex_filter(h, first, channels, st, du, dv, options, more, RSL_NO_FACE);
}

// s, t of a direction in a lat-long map: +z at the top (t = 0), s the longitude from -x through
// -y, +x and +y (s = 0.5 + atan2(y, x) / 2π), as PRMan lays them out.
fn rsl_latlong(d: vec3f) -> vec2f {
  let n = normalize(d);
  return vec2f(0.5 + atan2(n.y, n.x) / 6.283185307179586, acos(clamp(n.z, -1.0, 1.0)) / 3.141592653589793);
}

// s, t of direction d on cube face \`face\` (px nx py ny pz nz), as RI 3.2 orients the faces'
// pictures (forward, up, right): px +x +y -z, nx -x +y +z, py +y -z +x, ny -y +z +x, pz +z +y +x,
// nz -z +y -x; s runs right, t down, and the picture spans the field of view (k = cot(fov / 2)).
// Aqsis 1.8.4 agrees (test/texture/cube-environment.test.ts). A direction off the face projects
// onto the face's plane, so a footprint's corners past the face's edge stay continuous.
fn rsl_cube_st(d: vec3f, face: u32, k: f32) -> vec2f {
  let axis = face >> 1u;
  let sg = select(1.0, -1.0, (face & 1u) != 0u);
  var ru = vec2f(sg * d.x, d.y);
  if (axis == 0u) { ru = vec2f(-sg * d.z, d.y); }
  if (axis == 1u) { ru = vec2f(d.x, -sg * d.z); }
  return 0.5 + vec2f(0.5, -0.5) * k * ru / max(sg * d[axis], 1e-9);
}

// environment(): the footprint is the change of s, t across the directions' spread (du, dv). A
// cube-face map's face is the one of d's largest component (the first of x, y, z on a tie). One
// filter call for both kinds keeps the kernel small (lavapipe inlines every call).
fn rsl_environment(slot: f32, first: f32, channels: u32, d: vec3f, du: vec3f, dv: vec3f, options: vec4f, more: vec3f) -> vec3f {
  let h = rsl_tex_map(slot);
  if (h == 0xffffffffu || dot(d, d) == 0.0) { return vec3f(more.y); }
  rsl_tex_count();
  var face = RSL_NO_FACE;
  var st: vec2f;
  var a: vec2f;
  var b: vec2f;
  if (rsl_textures[h + ${ATLAS.kind}u] == ${KIND_CODE.cube}u) {
    let m = abs(d);
    let axis = select(select(2u, 1u, m.y >= m.z), 0u, m.x >= m.y && m.x >= m.z);
    face = axis * 2u + select(0u, 1u, d[axis] < 0.0);
    let k = bitcast<f32>(rsl_textures[h + ${ATLAS.cubeFovCot}u]);
    st = rsl_cube_st(d, face, k);
    a = rsl_cube_st(d + du, face, k) - st;
    b = rsl_cube_st(d + dv, face, k) - st;
  } else {
    st = rsl_latlong(d);
    // Longitude differences wrap into [-½, ½].
    a = rsl_latlong(d + du) - st;
    b = rsl_latlong(d + dv) - st;
    a.x -= round(a.x);
    b.x -= round(b.x);
  }
  return rsl_tex_filter(h, first, channels, st, a, b, options, more, face);
}

fn rsl_tex_filter(h: u32, first: f32, channels: u32, st: vec2f, du: vec2f, dv: vec2f, options: vec4f, more: vec3f, face: u32) -> vec3f {
  let fill = more.y;
  let size = rsl_tex_size(h, 0u, face);
  var a = du * options.zw;
  var b = dv * options.zw;
  rsl_tex_blur(&a, &b, 0u, options.x);
  rsl_tex_blur(&a, &b, 1u, options.y);
  let at = a * size;
  let bt = b * size;
  var major = a;
  var lmajor = length(at);
  var lminor = length(bt);
  if (lminor > lmajor) {
    major = b;
    lminor = lmajor;
    lmajor = length(bt);
  }
  let probes = clamp(ceil(lmajor / max(lminor, 1.0)), 1.0, max(more.z, 1.0));
  let lod = log2(max(max(lmajor / probes, lminor), 1e-6));
  let mapChannels = rsl_textures[h + ${ATLAS.channels}u];
  let c0 = u32(max(first, 0.0));
  var sum = vec3f(0.0);
  var total = 0.0;
  for (var k = 0.0; k < probes; k += 1.0) {
    let x = (k + 0.5) / probes - 0.5;
    let weight = select(1.0, exp(-8.0 * x * x), more.x == ${TEXTURE_FILTER.gaussian}.0 && probes > 1.0);
    let p = st + major * x;
    let t = rsl_tex_trilinear(h, lod, p, c0, face);
    var v = vec3f(fill);
    for (var c = 0u; c < channels; c++) {
      if (c0 + c < mapChannels) { v[c] = t[c]; }
    }
    sum += weight * v;
    total += weight;
  }
  return sum / total;
}
`;
