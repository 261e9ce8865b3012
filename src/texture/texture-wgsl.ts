// The WGSL of texture lookups, added to a shading kernel that calls them: the atlas binding
// (texture-atlas.ts) and the filters. texture(): the footprint is the parallelogram of the s,t
// change across the micropolygon (its axes from the derivatives of s and t), scaled by "width"
// and widened by "blur"; filtering is anisotropic as GPUs do it: several trilinear probes along
// the footprint's major axis (at most "samples", 16 unless given), each at the mip level of the
// minor axis (or of the major one over the probe count, if larger); box or gaussian weights
// along the axis. A missing map, or a channel past the map's, gives the fill value.
import { ATLAS } from './texture-atlas.ts';

export const TEXTURE_BINDING = 5;
/** Filter codes of the lookups' "filter" parameter. */
export const TEXTURE_FILTER = { box: 0, gaussian: 1 } as const;

const L = ATLAS.levelTable;

/** True when a compiled kernel declares the atlas binding (it makes texture lookups). */
export function usesTextures(code: string): boolean {
  return code.includes(`@binding(${TEXTURE_BINDING}) var<storage, read> rsl_textures`);
}


export const TEXTURE_WGSL = /* wgsl */ `
@group(0) @binding(${TEXTURE_BINDING}) var<storage, read> rsl_textures: array<u32>;

fn rsl_tex_map(slot: f32) -> u32 {
  if (slot < 0.0 || u32(slot) >= rsl_textures[0]) { return 0xffffffffu; }
  let h = ${ATLAS.header}u + u32(slot) * ${ATLAS.mapWords}u;
  if (rsl_textures[h + ${ATLAS.levels}u] == 0u) { return 0xffffffffu; }
  return h;
}

// -1 outside a black-wrapped edge.
fn rsl_tex_wrap(i: i32, n: i32, mode: u32) -> i32 {
  if (mode == 0u) { return ((i % n) + n) % n; }
  if (mode == 1u) { return clamp(i, 0, n - 1); }
  if (i < 0 || i >= n) { return -1; }
  return i;
}

fn rsl_tex_texel(h: u32, level: u32, x: i32, y: i32, c: u32) -> f32 {
  let lh = h + ${L}u + level * ${ATLAS.levelWords}u;
  let w = i32(rsl_textures[lh]);
  let xi = rsl_tex_wrap(x, w, rsl_textures[h + ${ATLAS.swrap}u]);
  let yi = rsl_tex_wrap(y, i32(rsl_textures[lh + 1u]), rsl_textures[h + ${ATLAS.twrap}u]);
  if (xi < 0 || yi < 0) { return 0.0; }
  return bitcast<f32>(rsl_textures[rsl_textures[lh + 2u] + (u32(yi) * u32(w) + u32(xi)) * rsl_textures[h + ${ATLAS.channels}u] + c]);
}

// Bilinear between the four texel centres around st (texel i's centre at (i + 0.5) / size).
fn rsl_tex_bilinear(h: u32, level: u32, st: vec2f, c: u32) -> f32 {
  let lh = h + ${L}u + level * ${ATLAS.levelWords}u;
  let p = st * vec2f(f32(rsl_textures[lh]), f32(rsl_textures[lh + 1u])) - 0.5;
  let f = floor(p);
  let w = p - f;
  let x = i32(f.x);
  let y = i32(f.y);
  let top = mix(rsl_tex_texel(h, level, x, y, c), rsl_tex_texel(h, level, x + 1, y, c), w.x);
  let bottom = mix(rsl_tex_texel(h, level, x, y + 1, c), rsl_tex_texel(h, level, x + 1, y + 1, c), w.x);
  return mix(top, bottom, w.y);
}

fn rsl_tex_trilinear(h: u32, lod: f32, st: vec2f, c: u32) -> f32 {
  let top = f32(rsl_textures[h + ${ATLAS.levels}u] - 1u);
  let l = clamp(lod, 0.0, top);
  let l0 = u32(floor(l));
  let a = rsl_tex_bilinear(h, l0, st, c);
  let f = l - f32(l0);
  if (f == 0.0) { return a; }
  return mix(a, rsl_tex_bilinear(h, l0 + 1u, st, c), f);
}

// Grows the footprint axis with the larger |component| k by blur in that component.
fn rsl_tex_blur(a: ptr<function, vec2f>, b: ptr<function, vec2f>, k: u32, blur: f32) {
  if (blur == 0.0) { return; }
  if (abs((*a)[k]) >= abs((*b)[k])) { (*a)[k] += select(-blur, blur, (*a)[k] >= 0.0); }
  else { (*b)[k] += select(-blur, blur, (*b)[k] >= 0.0); }
}

// channels: how many to return (1 or 3) from the first; options: sblur, tblur, swidth, twidth;
// more: filter code, fill, samples (most probes).
fn rsl_texture(slot: f32, first: f32, channels: u32, st: vec2f, du: vec2f, dv: vec2f, options: vec4f, more: vec3f) -> vec3f {
  let fill = more.y;
  let h = rsl_tex_map(slot);
  if (h == 0xffffffffu) { return vec3f(fill); }
  let size = vec2f(f32(rsl_textures[h + ${L}u]), f32(rsl_textures[h + ${L + 1}u]));
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
    var v = vec3f(fill);
    for (var c = 0u; c < channels; c++) {
      if (c0 + c < mapChannels) { v[c] = rsl_tex_trilinear(h, lod, p, c0 + c); }
    }
    sum += weight * v;
    total += weight;
  }
  return sum / total;
}
`;
