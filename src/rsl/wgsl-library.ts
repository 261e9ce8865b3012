// WGSL helpers the generated kernels call (rsl_* functions). Grid and parameter access use the
// private per-invocation state the kernel entry point sets up (g_base, g_pbase, g_vi, ...).
import { MIN_SPECULAR_ROUGHNESS, SPECULAR_ROUGHNESS_SCALE } from './specular.ts';
import { floatLiteral } from './wgsl-literals.ts';

export function wgslLibrary(maxVertices: number): string {
  return /* wgsl */ `
fn rsl_grid_f32(offset: u32) -> f32 { return grids[g_base + offset + g_vi]; }
fn rsl_grid_vec3(offset: u32) -> vec3f {
  return vec3f(grids[g_base + offset + g_vi], grids[g_base + offset + ${maxVertices}u + g_vi], grids[g_base + offset + ${2 * maxVertices}u + g_vi]);
}
fn rsl_grid_store_f32(offset: u32, value: f32) { grids[g_base + offset + g_vi] = value; }
fn rsl_grid_store_vec3(offset: u32, value: vec3f) {
  grids[g_base + offset + g_vi] = value.x;
  grids[g_base + offset + ${maxVertices}u + g_vi] = value.y;
  grids[g_base + offset + ${2 * maxVertices}u + g_vi] = value.z;
}
fn rsl_param_f32(word: u32) -> f32 { return params[g_pbase + word]; }
fn rsl_param_u32(word: u32) -> u32 { return bitcast<u32>(params[g_pbase + word]); }
fn rsl_param_vec3(word: u32) -> vec3f { return vec3f(params[g_pbase + word], params[g_pbase + word + 1u], params[g_pbase + word + 2u]); }
fn rsl_param_mat4(word: u32) -> mat4x4f {
  var m: mat4x4f;
  for (var k = 0u; k < 4u; k++) {
    m[k] = vec4f(params[g_pbase + word + 4u * k], params[g_pbase + word + 4u * k + 1u], params[g_pbase + word + 4u * k + 2u], params[g_pbase + word + 4u * k + 3u]);
  }
  return m;
}

// Derivatives: forward differences on the grid, backward at the last row or column.
fn rsl_deriv_u(slot: u32) -> f32 {
  if (g_nu < 2u) { return 0.0; }
  let i = g_vi % g_nu;
  var a = g_vi;
  var b = g_vi + 1u;
  if (i + 1u >= g_nu) { a = g_vi - 1u; b = g_vi; }
  let d = g_du;
  if (d == 0.0) { return 0.0; }
  return (rsl_wg[slot * ${maxVertices}u + b] - rsl_wg[slot * ${maxVertices}u + a]) / d;
}
fn rsl_deriv_v(slot: u32) -> f32 {
  if (g_nv < 2u) { return 0.0; }
  let j = g_vi / g_nu;
  var a = g_vi;
  var b = g_vi + g_nu;
  if (j + 1u >= g_nv) { a = g_vi - g_nu; b = g_vi; }
  let d = g_dv;
  if (d == 0.0) { return 0.0; }
  return (rsl_wg[slot * ${maxVertices}u + b] - rsl_wg[slot * ${maxVertices}u + a]) / d;
}

fn rsl_div_or_zero_f32(a: f32, b: f32) -> f32 { return select(a / b, 0.0, b == 0.0); }
fn rsl_div_or_zero_vec3(a: vec3f, b: f32) -> vec3f { return select(a / b, vec3f(0.0), b == 0.0); }
// pow of a negative base is defined for whole exponents (as C's pow); other negative-base powers are
// 0, as Aqsis answers; x^0 is 1. WGSL's pow leaves all of these undefined.
fn rsl_pow_f32(x: f32, y: f32) -> f32 {
  if (y == 0.0) { return 1.0; }
  if (x >= 0.0) { return pow(x, y); }
  if (floor(y) != y) { return 0.0; }
  let m = pow(-x, y);
  return select(m, -m, fract(y * 0.5) != 0.0);
}
fn rsl_pow_vec3(x: vec3f, y: vec3f) -> vec3f { return vec3f(rsl_pow_f32(x.x, y.x), rsl_pow_f32(x.y, y.y), rsl_pow_f32(x.z, y.z)); }
// asin and acos through atan2: the software driver's asin is off by 4e-4 near 0.5 and 1.
fn rsl_asin(x: f32) -> f32 { let c = clamp(x, -1.0, 1.0); return atan2(c, sqrt(1.0 - c * c)); }
fn rsl_acos(x: f32) -> f32 { let c = clamp(x, -1.0, 1.0); return atan2(sqrt(1.0 - c * c), c); }
fn rsl_mod_f32(a: f32, b: f32) -> f32 { if (b == 0.0) { return 0.0; } return a - b * floor(a / b); }
fn rsl_mod_vec3(a: vec3f, b: vec3f) -> vec3f { return vec3f(rsl_mod_f32(a.x, b.x), rsl_mod_f32(a.y, b.y), rsl_mod_f32(a.z, b.z)); }
fn rsl_normalize(v: vec3f) -> vec3f { let l = length(v); if (l == 0.0) { return v; } return v / l; }
fn rsl_faceforward(n: vec3f, i: vec3f, nref: vec3f) -> vec3f { return select(n, -n, dot(i, nref) > 0.0); }
fn rsl_ptlined(a: vec3f, b: vec3f, p: vec3f) -> f32 {
  let ab = b - a;
  let l = dot(ab, ab);
  let t = select(clamp(dot(p - a, ab) / l, 0.0, 1.0), 0.0, l == 0.0);
  return distance(p, a + t * ab);
}
fn rsl_rotate(q: vec3f, angle: f32, p0: vec3f, p1: vec3f) -> vec3f {
  let k = rsl_normalize(p1 - p0);
  let v = q - p0;
  let c = cos(angle);
  let s = sin(angle);
  return p0 + v * c + cross(k, v) * s + k * dot(k, v) * (1.0 - c);
}
fn rsl_depth(p: vec3f) -> f32 { return p.z; }
fn rsl_transform_point(m: mat4x4f, p: vec3f) -> vec3f {
  let h = m * vec4f(p, 1.0);
  return select(h.xyz / h.w, h.xyz, h.w == 0.0 || h.w == 1.0);
}
fn rsl_transform_vector(m: mat4x4f, v: vec3f) -> vec3f { return (m * vec4f(v, 0.0)).xyz; }
// Normals transform by the inverse transpose; callers pass the inverse's transpose via the other matrix.
fn rsl_transform_normal(m: mat4x4f, n: vec3f) -> vec3f { return (transpose(rsl_inverse(m)) * vec4f(n, 0.0)).xyz; }
fn rsl_transform_color(m: mat4x4f, v: vec3f) -> vec3f { return v; }
fn rsl_transform_float(m: mat4x4f, v: vec3f) -> vec3f { return v; }
fn rsl_scalar_mat(s: f32) -> mat4x4f { return mat4x4f(s, 0.0, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, 0.0, s); }
fn rsl_translate(t: vec3f) -> mat4x4f { var m = rsl_scalar_mat(1.0); m[3] = vec4f(t, 1.0); return m; }
fn rsl_scale(s: vec3f) -> mat4x4f { return mat4x4f(s.x, 0.0, 0.0, 0.0, 0.0, s.y, 0.0, 0.0, 0.0, 0.0, s.z, 0.0, 0.0, 0.0, 0.0, 1.0); }
fn rsl_rotation(angle: f32, axis: vec3f) -> mat4x4f {
  let a = rsl_normalize(axis);
  let c = cos(angle);
  let s = sin(angle);
  let t = 1.0 - c;
  return mat4x4f(
    t * a.x * a.x + c, t * a.x * a.y + s * a.z, t * a.x * a.z - s * a.y, 0.0,
    t * a.x * a.y - s * a.z, t * a.y * a.y + c, t * a.y * a.z + s * a.x, 0.0,
    t * a.x * a.z + s * a.y, t * a.y * a.z - s * a.x, t * a.z * a.z + c, 0.0,
    0.0, 0.0, 0.0, 1.0);
}
fn rsl_inverse(m: mat4x4f) -> mat4x4f {
  let a00 = m[0][0]; let a01 = m[0][1]; let a02 = m[0][2]; let a03 = m[0][3];
  let a10 = m[1][0]; let a11 = m[1][1]; let a12 = m[1][2]; let a13 = m[1][3];
  let a20 = m[2][0]; let a21 = m[2][1]; let a22 = m[2][2]; let a23 = m[2][3];
  let a30 = m[3][0]; let a31 = m[3][1]; let a32 = m[3][2]; let a33 = m[3][3];
  let b00 = a00 * a11 - a01 * a10; let b01 = a00 * a12 - a02 * a10; let b02 = a00 * a13 - a03 * a10;
  let b03 = a01 * a12 - a02 * a11; let b04 = a01 * a13 - a03 * a11; let b05 = a02 * a13 - a03 * a12;
  let b06 = a20 * a31 - a21 * a30; let b07 = a20 * a32 - a22 * a30; let b08 = a20 * a33 - a23 * a30;
  let b09 = a21 * a32 - a22 * a31; let b10 = a21 * a33 - a23 * a31; let b11 = a22 * a33 - a23 * a32;
  let det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (det == 0.0) { return rsl_scalar_mat(1.0); }
  let d = 1.0 / det;
  return mat4x4f(
    (a11 * b11 - a12 * b10 + a13 * b09) * d, (a02 * b10 - a01 * b11 - a03 * b09) * d, (a31 * b05 - a32 * b04 + a33 * b03) * d, (a22 * b04 - a21 * b05 - a23 * b03) * d,
    (a12 * b08 - a10 * b11 - a13 * b07) * d, (a00 * b11 - a02 * b08 + a03 * b07) * d, (a32 * b02 - a30 * b05 - a33 * b01) * d, (a20 * b05 - a22 * b02 + a23 * b01) * d,
    (a10 * b10 - a11 * b08 + a13 * b06) * d, (a01 * b08 - a00 * b10 - a03 * b06) * d, (a30 * b04 - a31 * b02 + a33 * b00) * d, (a21 * b02 - a20 * b04 - a23 * b00) * d,
    (a11 * b07 - a10 * b09 - a12 * b06) * d, (a00 * b09 - a01 * b07 + a02 * b06) * d, (a31 * b01 - a30 * b03 - a32 * b00) * d, (a20 * b03 - a21 * b01 + a22 * b00) * d);
}
fn rsl_setcomp_vec3(v: vec3f, k: f32, x: f32) -> vec3f { var r = v; r[min(u32(max(k, 0.0)), 2u)] = x; return r; }
fn rsl_setcomp_mat4(m: mat4x4f, row: f32, col: f32, x: f32) -> mat4x4f {
  var r = m;
  r[min(u32(max(row, 0.0)), 3u)][min(u32(max(col, 0.0)), 3u)] = x;
  return r;
}
fn rsl_fresnel_kr(i: vec3f, n: vec3f, eta: f32) -> f32 {
  let c = abs(dot(rsl_normalize(i), rsl_normalize(n)));
  let g2 = 1.0 / (eta * eta) - 1.0 + c * c;
  if (g2 < 0.0) { return 1.0; }
  let g = sqrt(g2);
  let a = (g - c) / (g + c);
  let b = (c * (g + c) - 1.0) / (c * (g - c) + 1.0);
  return 0.5 * a * a * (1.0 + b * b);
}
// PRMan's highlight exponent, not the spec's example (src/rsl/specular.ts).
fn rsl_specularbrdf(l: vec3f, n: vec3f, v: vec3f, roughness: f32) -> vec3f {
  let h = rsl_normalize(l + v);
  return vec3f(pow(max(0.0, dot(n, h)), ${floatLiteral(SPECULAR_ROUGHNESS_SCALE)} / max(roughness, ${floatLiteral(MIN_SPECULAR_ROUGHNESS)})));
}
// step(edge, x) averaged over x in [a, b] (scaled about its centre): the covered fraction at or above edge.
fn rsl_filterstep(edge: f32, a: f32, b: f32, scale: f32) -> f32 {
  let centre = 0.5 * (a + b);
  let half = 0.5 * abs(b - a) * scale;
  if (half <= 0.0) { return step(edge, centre); }
  return clamp((centre + half - edge) / (2.0 * half), 0.0, 1.0);
}
// Spline weights of the four knots of a segment at t: [t^3 t^2 t 1] times the RiBasis matrix (written
// here by columns, as WGSL constructs matrices); linear blends the middle two knots.
fn rsl_spline_weights_catmull_rom(t: f32) -> vec4f {
  return vec4f(t * t * t, t * t, t, 1.0) * mat4x4f(-0.5, 1.0, -0.5, 0.0, 1.5, -2.5, 0.0, 1.0, -1.5, 2.0, 0.5, 0.0, 0.5, -0.5, 0.0, 0.0);
}
fn rsl_spline_weights_bezier(t: f32) -> vec4f {
  return vec4f(t * t * t, t * t, t, 1.0) * mat4x4f(-1.0, 3.0, -3.0, 1.0, 3.0, -6.0, 3.0, 0.0, -3.0, 3.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0);
}
fn rsl_spline_weights_bspline(t: f32) -> vec4f {
  return vec4f(t * t * t, t * t, t, 1.0) * mat4x4f(-1.0, 3.0, -3.0, 1.0, 3.0, -6.0, 0.0, 4.0, -3.0, 3.0, 3.0, 1.0, 1.0, 0.0, 0.0, 0.0) / 6.0;
}
fn rsl_spline_weights_hermite(t: f32) -> vec4f {
  return vec4f(t * t * t, t * t, t, 1.0) * mat4x4f(2.0, -3.0, 0.0, 1.0, 1.0, -2.0, 1.0, 0.0, -2.0, 3.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0);
}
fn rsl_spline_weights_power(t: f32) -> vec4f { return vec4f(t * t * t, t * t, t, 1.0); }
fn rsl_spline_weights_linear(t: f32) -> vec4f { return vec4f(0.0, 1.0 - t, t, 0.0); }
fn rsl_spline_f32(w: vec4f, p0: f32, p1: f32, p2: f32, p3: f32) -> f32 { return dot(w, vec4f(p0, p1, p2, p3)); }
fn rsl_spline_vec3(w: vec4f, p0: vec3f, p1: vec3f, p2: vec3f, p3: vec3f) -> vec3f { return w.x * p0 + w.y * p1 + w.z * p2 + w.w * p3; }
fn rsl_hsv_to_rgb(c: vec3f) -> vec3f {
  let h = fract(c.x) * 6.0;
  let k = vec3f(5.0, 3.0, 1.0);
  let p = clamp(min(rsl_mod_vec3(k + h, vec3f(6.0)), 4.0 - rsl_mod_vec3(k + h, vec3f(6.0))), vec3f(0.0), vec3f(1.0));
  return c.z - c.z * c.y * p;
}
fn rsl_hsl_to_rgb(c: vec3f) -> vec3f {
  let chroma = (1.0 - abs(2.0 * c.z - 1.0)) * c.y;
  return (rsl_hsv_to_rgb(vec3f(c.x, 1.0, 1.0)) - 0.5) * chroma + c.z;
}
fn rsl_xyz_to_rgb(c: vec3f) -> vec3f {
  return mat3x3f(3.2404542, -0.9692660, 0.0556434, -1.5371385, 1.8760108, -0.2040259, -0.4985314, 0.0415560, 1.0572252) * c;
}
fn rsl_rgb_to_xyz(c: vec3f) -> vec3f {
  return mat3x3f(0.4124564, 0.2126729, 0.0193339, 0.3575761, 0.7151522, 0.1191920, 0.1804375, 0.0721750, 0.9503041) * c;
}
fn rsl_yiq_to_rgb(c: vec3f) -> vec3f { return mat3x3f(1.0, 1.0, 1.0, 0.956, -0.272, -1.106, 0.621, -0.647, 1.703) * c; }
fn rsl_rgb_to_yiq(c: vec3f) -> vec3f { return mat3x3f(0.299, 0.596, 0.211, 0.587, -0.274, -0.523, 0.114, -0.322, 0.312) * c; }
fn rsl_xyy_to_rgb(c: vec3f) -> vec3f {
  let y = max(c.y, 1e-9);
  return rsl_xyz_to_rgb(vec3f(c.x * c.z / y, c.z, (1.0 - c.x - c.y) * c.z / y));
}
fn rsl_rgb_to_hsv(c: vec3f) -> vec3f {
  let mx = max(c.x, max(c.y, c.z));
  let mn = min(c.x, min(c.y, c.z));
  let d = mx - mn;
  var h = 0.0;
  if (d > 0.0) {
    if (mx == c.x) { h = rsl_mod_f32((c.y - c.z) / d, 6.0); }
    else if (mx == c.y) { h = (c.z - c.x) / d + 2.0; }
    else { h = (c.x - c.y) / d + 4.0; }
  }
  return vec3f(h / 6.0, select(d / mx, 0.0, mx == 0.0), mx);
}
fn rsl_rgb_to_hsl(c: vec3f) -> vec3f {
  let hsv = rsl_rgb_to_hsv(c);
  let l = hsv.z * (1.0 - hsv.y / 2.0);
  let s = select((hsv.z - l) / min(l, 1.0 - l), 0.0, l == 0.0 || l == 1.0);
  return vec3f(hsv.x, s, l);
}
fn rsl_rgb_to_rgb(c: vec3f) -> vec3f { return c; }
fn rsl_rgb_to_xyy(c: vec3f) -> vec3f {
  let x = rsl_rgb_to_xyz(c);
  let sum = max(x.x + x.y + x.z, 1e-9);
  return vec3f(x.x / sum, x.y / sum, x.y);
}

// Noise: hashed gradient noise in [0, 1] (RenderMan's noise range), cell noise from the same hash.
fn rsl_hash(x: u32) -> u32 {
  var h = x;
  h ^= h >> 16u; h *= 0x7feb352du; h ^= h >> 15u; h *= 0x846ca68bu; h ^= h >> 16u;
  return h;
}
fn rsl_hash3(c: vec3i, seed: u32) -> u32 {
  return rsl_hash(bitcast<u32>(c.x) ^ rsl_hash(bitcast<u32>(c.y) ^ rsl_hash(bitcast<u32>(c.z) ^ rsl_hash(seed))));
}
// Lattice cells wrap modulo a period (0: no wrap), so pnoise repeats exactly and stays continuous
// across the seam: the corner at the period is the corner at 0. Periods round to whole cells, at least one.
fn rsl_wrap(c: i32, period: i32) -> i32 {
  if (period <= 0) { return c; }
  let r = c % period;
  return select(r, r + period, r < 0);
}
fn rsl_wrap3(c: vec3i, period: vec3i) -> vec3i { return vec3i(rsl_wrap(c.x, period.x), rsl_wrap(c.y, period.y), rsl_wrap(c.z, period.z)); }
fn rsl_period(p: f32) -> i32 { return max(i32(round(p)), 1); }
fn rsl_periods(p: vec3f) -> vec3i { return vec3i(rsl_period(p.x), rsl_period(p.y), rsl_period(p.z)); }
fn rsl_gradient(c: vec3i, seed: u32, f: vec3f) -> f32 {
  let h = rsl_hash3(c, seed);
  let g = vec3f(f32(h & 1023u), f32((h >> 10u) & 1023u), f32((h >> 20u) & 1023u)) / 511.5 - 1.0;
  return dot(g, f);
}
fn rsl_perlin(p: vec3f, period: vec3i, seed: u32) -> f32 {
  let i = vec3i(floor(p));
  let f = p - floor(p);
  let w = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
  var corners: array<f32, 8>;
  for (var k = 0; k < 8; k++) {
    let o = vec3i(k & 1, (k >> 1) & 1, (k >> 2) & 1);
    corners[k] = rsl_gradient(rsl_wrap3(i + o, period), seed, f - vec3f(o));
  }
  let x0 = mix(corners[0], corners[1], w.x);
  let x1 = mix(corners[2], corners[3], w.x);
  let x2 = mix(corners[4], corners[5], w.x);
  let x3 = mix(corners[6], corners[7], w.x);
  return clamp(0.5 + 0.5 * mix(mix(x0, x1, w.y), mix(x2, x3, w.y), w.z), 0.0, 1.0);
}
// Four-dimensional gradient noise: 16 lattice corners, 8-bit gradient components.
fn rsl_hash4(c: vec4i, seed: u32) -> u32 { return rsl_hash(bitcast<u32>(c.w) ^ rsl_hash3(c.xyz, seed)); }
fn rsl_perlin4(p: vec3f, q: f32, period: vec4i, seed: u32) -> f32 {
  let x = vec4f(p, q);
  let i = vec4i(floor(x));
  let f = x - floor(x);
  let w = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
  var c: array<f32, 16>;
  for (var k = 0; k < 16; k++) {
    let o = vec4i(k & 1, (k >> 1) & 1, (k >> 2) & 1, (k >> 3) & 1);
    let cell = vec4i(rsl_wrap3(i.xyz + o.xyz, period.xyz), rsl_wrap(i.w + o.w, period.w));
    let h = rsl_hash4(cell, seed);
    let g = vec4f(f32(h & 255u), f32((h >> 8u) & 255u), f32((h >> 16u) & 255u), f32(h >> 24u)) / 127.5 - 1.0;
    c[k] = dot(g, f - vec4f(o));
  }
  for (var k = 0; k < 8; k++) { c[k] = mix(c[2 * k], c[2 * k + 1], w.x); }
  for (var k = 0; k < 4; k++) { c[k] = mix(c[2 * k], c[2 * k + 1], w.y); }
  for (var k = 0; k < 2; k++) { c[k] = mix(c[2 * k], c[2 * k + 1], w.z); }
  return clamp(0.5 + 0.5 * mix(c[0], c[1], w.w), 0.0, 1.0);
}
fn rsl_noise1(p: vec3f) -> f32 { return rsl_perlin(p, vec3i(0), 0u); }
fn rsl_noise3(p: vec3f) -> vec3f { return vec3f(rsl_perlin(p, vec3i(0), 0u), rsl_perlin(p, vec3i(0), 1u), rsl_perlin(p, vec3i(0), 2u)); }
fn rsl_pnoise1(p: vec3f, period: vec3f) -> f32 { return rsl_perlin(p, rsl_periods(period), 0u); }
fn rsl_pnoise3(p: vec3f, period: vec3f) -> vec3f {
  let n = rsl_periods(period);
  return vec3f(rsl_perlin(p, n, 0u), rsl_perlin(p, n, 1u), rsl_perlin(p, n, 2u));
}
fn rsl_noise4_1(p: vec3f, q: f32) -> f32 { return rsl_perlin4(p, q, vec4i(0), 0u); }
fn rsl_noise4_3(p: vec3f, q: f32) -> vec3f { return vec3f(rsl_perlin4(p, q, vec4i(0), 0u), rsl_perlin4(p, q, vec4i(0), 1u), rsl_perlin4(p, q, vec4i(0), 2u)); }
fn rsl_pnoise4_1(p: vec3f, q: f32, period: vec3f, qperiod: f32) -> f32 {
  return rsl_perlin4(p, q, vec4i(rsl_periods(period), rsl_period(qperiod)), 0u);
}
fn rsl_pnoise4_3(p: vec3f, q: f32, period: vec3f, qperiod: f32) -> vec3f {
  let n = vec4i(rsl_periods(period), rsl_period(qperiod));
  return vec3f(rsl_perlin4(p, q, n, 0u), rsl_perlin4(p, q, n, 1u), rsl_perlin4(p, q, n, 2u));
}
fn rsl_cellnoise1(p: vec3f) -> f32 { return f32(rsl_hash3(vec3i(floor(p)), 7u) >> 8u) / 16777216.0; }
fn rsl_cellnoise3(p: vec3f) -> vec3f {
  let c = vec3i(floor(p));
  return vec3f(f32(rsl_hash3(c, 7u) >> 8u), f32(rsl_hash3(c, 8u) >> 8u), f32(rsl_hash3(c, 9u) >> 8u)) / 16777216.0;
}
fn rsl_cellnoise4_1(p: vec3f, q: f32) -> f32 { return f32(rsl_hash4(vec4i(floor(vec4f(p, q))), 7u) >> 8u) / 16777216.0; }
fn rsl_cellnoise4_3(p: vec3f, q: f32) -> vec3f {
  let c = vec4i(floor(vec4f(p, q)));
  return vec3f(f32(rsl_hash4(c, 7u) >> 8u), f32(rsl_hash4(c, 8u) >> 8u), f32(rsl_hash4(c, 9u) >> 8u)) / 16777216.0;
}
// random(): a stream per vertex, seeded by the grid and vertex so a frame is reproducible.
fn rsl_random_f32() -> f32 {
  g_random = rsl_hash(g_random + 0x9e3779b9u);
  return f32(g_random >> 8u) / 16777216.0;
}
fn rsl_random_vec3() -> vec3f { return vec3f(rsl_random_f32(), rsl_random_f32(), rsl_random_f32()); }
// The uniform form of random(): a stream per grid, advanced alike by every invocation (uniform
// contexts run in uniform control flow), so all vertices draw the same values.
fn rsl_random_uniform_f32() -> f32 {
  g_urandom = rsl_hash(g_urandom + 0x9e3779b9u);
  return f32(g_urandom >> 8u) / 16777216.0;
}
fn rsl_random_uniform_vec3() -> vec3f { return vec3f(rsl_random_uniform_f32(), rsl_random_uniform_f32(), rsl_random_uniform_f32()); }
fn rsl_angle_within(l: vec3f, axis: vec3f, angle: f32) -> bool {
  let c = dot(rsl_normalize(l), rsl_normalize(axis));
  return acos(clamp(c, -1.0, 1.0)) <= angle + 1e-6;
}
`;
}
