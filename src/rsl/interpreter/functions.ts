// The functions a call template may name: WGSL built-ins and the rsl_* helpers of the kernel's
// library. Where a helper has a textbook definition (colour spaces, Fresnel, rotation, matrices)
// it is written from that definition, independently of the WGSL, so the comparison checks both.
// Noise and random() are defined by their hash, so those mirror the WGSL bit for bit.
import { mat4 } from 'gl-matrix';
import { specularFalloff } from '../specular.ts';
import type { Value } from './values.ts';
import {
  add, cross, determinant, dot, identity, inverse, length, lift, matVec, normalize, num, scale, sub, transpose, vec,
} from './values.ts';

/** What a helper may read besides its arguments. */
export interface CallEnv {
  /** Word `word` of the parameter block, as f32 and as u32. */
  paramFloat(word: number): number;
  paramWord(word: number): number;
  /** Advances the vertex's random() stream and returns its next u32 state. */
  nextRandom(): number;
  /** Advances the vertex's copy of the grid's stream (uniform random()) and returns its next u32 state. */
  nextUniformRandom(): number;
}

type Fn = (args: Value[], env: CallEnv) => Value;

const a0 = (args: Value[]): Value => args[0]!;
const unary = (f: (x: number) => number): Fn => (args) => lift(f, a0(args));
const binary = (f: (x: number, y: number) => number): Fn => (args) => lift(f, args[0]!, args[1]!);

// ---- hashing, noise, random: the kernel's definitions ----

export function hash(x: number): number {
  let h = x >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h = (h ^ (h >>> 15)) >>> 0;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h;
}

function hash3(c: number[], seed: number): number {
  return hash((c[0]! >>> 0) ^ hash((c[1]! >>> 0) ^ hash((c[2]! >>> 0) ^ hash(seed))));
}

const hash4 = (c: number[], seed: number): number => hash((c[3]! >>> 0) ^ hash3(c, seed));

const f32 = Math.fround;

/** A lattice index wrapped into [0, period) (period 0: unwrapped), as the kernel's rsl_wrap. */
const wrap = (c: number, period: number): number => (period <= 0 ? c : ((c % period) + period) % period);

/** A period rounded to whole lattice cells, at least one (WGSL round() takes halves to even). */
const period = (p: number): number => Math.max(roundEven(p), 1);

/** Gradient noise in [0, 1] over 3 or 4 dimensions: the kernel's rsl_perlin and rsl_perlin4. */
function perlin(p: number[], periods: number[], seed: number): number {
  const n = p.length;
  const cell = p.map(Math.floor);
  const f = p.map((x, k) => f32(x - cell[k]!));
  const w = f.map((x) => x * x * x * (x * (x * 6 - 15) + 10));
  const corners = [...Array(1 << n).keys()].map((k) => {
    const o = [...Array(n).keys()].map((i) => (k >> i) & 1);
    const c = cell.map((x, i) => wrap(x + o[i]!, periods[i]!));
    const g = n === 3
      ? ((h) => [h & 1023, (h >>> 10) & 1023, (h >>> 20) & 1023].map((x) => x / 511.5 - 1))(hash3(c, seed))
      : ((h) => [h & 255, (h >>> 8) & 255, (h >>> 16) & 255, h >>> 24].map((x) => x / 127.5 - 1))(hash4(c, seed));
    return dot(g, f.map((x, i) => x - o[i]!));
  });
  const mix = (a: number, b: number, t: number): number => a * (1 - t) + b * t;
  let level = corners;
  for (let axis = 0; axis < n; axis++) level = [...Array(level.length / 2).keys()].map((k) => mix(level[2 * k]!, level[2 * k + 1]!, w[axis]!));
  return Math.min(1, Math.max(0, 0.5 + 0.5 * level[0]!));
}

const cellnoise = (p: number[], seed: number): number => ((p.length === 3 ? hash3 : hash4)(p.map(Math.floor), seed) >>> 8) / 16777216;

// ---- colour spaces, from their definitions ----

/** Hue (in turns), saturation and value to RGB, by the six sectors of the hexcone. */
function hsvToRgb([h, s, v]: number[]): number[] {
  const h6 = (h! - Math.floor(h!)) * 6;
  const sector = Math.floor(h6) % 6;
  const f = h6 - Math.floor(h6);
  const p = v! * (1 - s!);
  const q = v! * (1 - s! * f);
  const t = v! * (1 - s! * (1 - f));
  return [[v!, t, p], [q, v!, p], [p, v!, t], [p, q, v!], [t, p, v!], [v!, p, q]][sector]!;
}

function rgbToHsv([r, g, b]: number[]): number[] {
  const mx = Math.max(r!, g!, b!);
  const mn = Math.min(r!, g!, b!);
  const d = mx - mn;
  let h = 0;
  if (d > 0) {
    if (mx === r) h = (g! - b!) / d;
    else if (mx === g) h = (b! - r!) / d + 2;
    else h = (r! - g!) / d + 4;
  }
  h = (((h / 6) % 1) + 1) % 1;
  return [h, mx === 0 ? 0 : d / mx, mx];
}

function hslToRgb([h, s, l]: number[]): number[] {
  const chroma = (1 - Math.abs(2 * l! - 1)) * s!;
  return hsvToRgb([h!, 1, 1]).map((x) => l! - chroma / 2 + chroma * x);
}

function rgbToHsl(c: number[]): number[] {
  const mx = Math.max(...c);
  const mn = Math.min(...c);
  const l = (mx + mn) / 2;
  const s = mx === mn || l === 0 || l === 1 ? 0 : (mx - mn) / (1 - Math.abs(2 * l - 1));
  return [rgbToHsv(c)[0]!, s, l];
}

/** Row-major 3×3 matrix times a column vector. */
const apply3 = (m: number[], c: number[]): number[] => [0, 1, 2].map((r) => m[3 * r]! * c[0]! + m[3 * r + 1]! * c[1]! + m[3 * r + 2]! * c[2]!);
// Linear sRGB (D65) and CIE XYZ; NTSC YIQ.
const RGB_TO_XYZ = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.072175, 0.0193339, 0.119192, 0.9503041];
const XYZ_TO_RGB = [3.2404542, -1.5371385, -0.4985314, -0.969266, 1.8760108, 0.041556, 0.0556434, -0.2040259, 1.0572252];
const RGB_TO_YIQ = [0.299, 0.587, 0.114, 0.596, -0.274, -0.322, 0.211, -0.523, 0.312];
const YIQ_TO_RGB = [1, 0.956, 0.621, 1, -0.272, -0.647, 1, -1.106, 1.703];

function xyyToRgb([x, y, Y]: number[]): number[] {
  const yy = Math.max(y!, 1e-9);
  return apply3(XYZ_TO_RGB, [(x! * Y!) / yy, Y!, ((1 - x! - y!) * Y!) / yy]);
}

function rgbToXyy(c: number[]): number[] {
  const [X, Y, Z] = apply3(RGB_TO_XYZ, c) as [number, number, number];
  const sum = Math.max(X + Y + Z, 1e-9);
  return [X / sum, Y / sum, Y];
}

// ---- geometry ----

/** Fresnel reflection coefficient of a dielectric (Foley and van Dam), eta the relative index. */
function fresnelKr(i: number[], n: number[], eta: number): number {
  const c = Math.abs(dot(normalize(i), normalize(n)));
  const g2 = 1 / (eta * eta) - 1 + c * c;
  if (g2 < 0) return 1;
  const g = Math.sqrt(g2);
  const a = (g - c) / (g + c);
  const b = (c * (g + c) - 1) / (c * (g - c) + 1);
  return 0.5 * a * a * (1 + b * b);
}

/** q rotated by `angle` about the axis through p0 and p1 (Rodrigues' formula). */
function rotatePoint(q: number[], angle: number, p0: number[], p1: number[]): number[] {
  const k = normalize(sub(p1, p0));
  const v = sub(q, p0);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return add(p0, add(add(scale(v, c), scale(cross(k, v), s)), scale(k, dot(k, v) * (1 - c))));
}

function pointLineDistance(a: number[], b: number[], p: number[]): number {
  const ab = sub(b, a);
  const l = dot(ab, ab);
  const t = l === 0 ? 0 : Math.min(1, Math.max(0, dot(sub(p, a), ab) / l));
  return length(sub(p, add(a, scale(ab, t))));
}

function transformPoint(m: number[], p: number[]): number[] {
  const h = matVec(m, [...p, 1]);
  const w = h[3]!;
  return w === 0 || w === 1 ? h.slice(0, 3) : h.slice(0, 3).map((x) => x / w);
}

/** The RiBasis matrices by rows (RI 3.2 section 4): a segment is [t^3 t^2 t 1] M [p0 p1 p2 p3]^T. */
const SPLINE_BASES: Record<string, number[][]> = {
  catmull_rom: [[-1, 3, -3, 1], [2, -5, 4, -1], [-1, 0, 1, 0], [0, 2, 0, 0]].map((row) => row.map((x) => x / 2)),
  bezier: [[-1, 3, -3, 1], [3, -6, 3, 0], [-3, 3, 0, 0], [1, 0, 0, 0]],
  bspline: [[-1, 3, -3, 1], [3, -6, 3, 0], [-3, 0, 3, 0], [1, 4, 1, 0]].map((row) => row.map((x) => x / 6)),
  hermite: [[2, 1, -2, 1], [-3, -2, 3, -1], [0, 1, 0, 0], [1, 0, 0, 0]],
  power: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
};

function splineWeights(basis: number[][], t: number): number[] {
  const powers = [t * t * t, t * t, t, 1];
  return [0, 1, 2, 3].map((j) => powers.reduce((sum, p, i) => sum + p * basis[i]![j]!, 0));
}

/** x^y, with a negative base only for whole exponents (0 otherwise), and x^0 = 1. */
function powRsl(x: number, y: number): number {
  if (y === 0) return 1;
  if (x >= 0) return Math.pow(x, y);
  return Number.isInteger(y) ? Math.pow(x, y) : 0;
}

/** step(edge, x) averaged over the interval [a, b] scaled about its centre. */
function filterstep(edge: number, a: number, b: number, scale: number): number {
  const centre = (a + b) / 2;
  const half = (Math.abs(b - a) / 2) * scale;
  if (half <= 0) return centre < edge ? 0 : 1;
  return Math.min(1, Math.max(0, (centre + half - edge) / (2 * half)));
}

function refract(e: number[], n: number[], eta: number): number[] {
  const d = dot(n, e);
  const k = 1 - eta * eta * (1 - d * d);
  return k < 0 ? [0, 0, 0] : sub(scale(e, eta), scale(n, eta * d + Math.sqrt(k)));
}

/** Rounds half to even, as WGSL's round() does. */
function roundEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const scalarMatrix = (s: number): number[] => identity().map((x) => x * s);

function setComponent(v: number[], k: number, x: number): number[] {
  const r = [...v];
  r[Math.min(Math.trunc(Math.max(k, 0)), 2)] = x;
  return r;
}

function setMatrixComponent(m: number[], row: number, col: number, x: number): number[] {
  const r = [...m];
  r[Math.min(Math.trunc(Math.max(row, 0)), 3) * 4 + Math.min(Math.trunc(Math.max(col, 0)), 3)] = x;
  return r;
}

const randomFloat = (env: CallEnv): number => (env.nextRandom() >>> 8) / 16777216;

export const FUNCTIONS: Record<string, Fn> = {
  // WGSL built-ins, per component on vectors.
  radians: unary((x) => (x * Math.PI) / 180),
  degrees: unary((x) => (x * 180) / Math.PI),
  sin: unary(Math.sin), cos: unary(Math.cos), tan: unary(Math.tan),
  asin: unary(Math.asin), acos: unary(Math.acos), atan: unary(Math.atan), atan2: binary(Math.atan2),
  pow: binary(Math.pow), exp: unary(Math.exp), exp2: unary((x) => 2 ** x), log: unary(Math.log), log2: unary(Math.log2),
  sqrt: unary(Math.sqrt), inverseSqrt: unary((x) => 1 / Math.sqrt(x)),
  abs: unary(Math.abs), sign: unary(Math.sign), floor: unary(Math.floor), ceil: unary(Math.ceil), round: unary(roundEven),
  fract: unary((x) => x - Math.floor(x)),
  min: binary(Math.min), max: binary(Math.max),
  clamp: (args) => lift((x, lo, hi) => Math.min(Math.max(x, lo), hi), args[0]!, args[1]!, args[2]!),
  mix: (args) => lift((x, y, t) => x * (1 - t) + y * t, args[0]!, args[1]!, args[2]!),
  step: binary((edge, x) => (x >= edge ? 1 : 0)),
  smoothstep: (args) => lift((lo, hi, x) => {
    const t = Math.min(1, Math.max(0, (x - lo) / (hi - lo)));
    return t * t * (3 - 2 * t);
  }, args[0]!, args[1]!, args[2]!),
  length: (args) => length(vec(a0(args))),
  distance: (args) => length(sub(vec(args[0]), vec(args[1]))),
  dot: (args) => dot(vec(args[0]), vec(args[1])),
  cross: (args) => cross(vec(args[0]), vec(args[1])),
  reflect: (args) => {
    const [e, n] = [vec(args[0]), vec(args[1])];
    return sub(e, scale(n, 2 * dot(n, e)));
  },
  refract: (args) => refract(vec(args[0]), vec(args[1]), num(args[2])),
  determinant: (args) => determinant(vec(args[0])),
  transpose: (args) => transpose(vec(args[0])),
  vec3f: (args) => (args.length === 1 ? lift((x) => x, [num(args[0]), num(args[0]), num(args[0])]) : args.map(num)),
  mat4x4f: (args) => args.map(num),
  u32: (args) => Math.max(0, Math.trunc(num(args[0]))),
  i32: (args) => Math.trunc(num(args[0])),
  f32: (args) => num(args[0]),
  select: (args) => ((args[2] as boolean) ? args[1]! : args[0]!),
  // The kernel library.
  rsl_param_f32: (args, env) => env.paramFloat(num(args[0])),
  rsl_param_u32: (args, env) => env.paramWord(num(args[0])),
  rsl_param_vec3: (args, env) => [0, 1, 2].map((k) => env.paramFloat(num(args[0]) + k)),
  rsl_param_mat4: (args, env) => [...Array(16).keys()].map((k) => env.paramFloat(num(args[0]) + k)),
  rsl_div_or_zero_f32: (args) => (num(args[1]) === 0 ? 0 : num(args[0]) / num(args[1])),
  rsl_div_or_zero_vec3: (args) => (num(args[1]) === 0 ? [0, 0, 0] : vec(args[0]).map((x) => x / num(args[1]))),
  rsl_mod_f32: binary((x, y) => (y === 0 ? 0 : x - y * Math.floor(x / y))),
  rsl_mod_vec3: binary((x, y) => (y === 0 ? 0 : x - y * Math.floor(x / y))),
  rsl_normalize: (args) => normalize(vec(a0(args))),
  rsl_faceforward: (args) => (dot(vec(args[1]), vec(args[2])) > 0 ? scale(vec(args[0]), -1) : vec(args[0])),
  rsl_ptlined: (args) => pointLineDistance(vec(args[0]), vec(args[1]), vec(args[2])),
  rsl_rotate: (args) => rotatePoint(vec(args[0]), num(args[1]), vec(args[2]), vec(args[3])),
  rsl_depth: (args) => vec(a0(args))[2]!,
  rsl_transform_point: (args) => transformPoint(vec(args[0]), vec(args[1])),
  rsl_transform_vector: (args) => matVec(vec(args[0]), [...vec(args[1]), 0]).slice(0, 3),
  rsl_transform_normal: (args) => matVec(transpose(inverse(vec(args[0]))), [...vec(args[1]), 0]).slice(0, 3),
  rsl_transform_color: (args) => args[1]!,
  rsl_transform_float: (args) => args[1]!,
  rsl_scalar_mat: (args) => scalarMatrix(num(args[0])),
  rsl_translate: (args) => Array.from(mat4.fromTranslation(new Array<number>(16).fill(0), vec(args[0]))),
  rsl_scale: (args) => Array.from(mat4.fromScaling(new Array<number>(16).fill(0), vec(args[0]))),
  rsl_rotation: (args) => {
    const axis = vec(args[1]);
    // gl-matrix gives null for a zero axis; the kernel's normalise leaves it zero (a degenerate matrix).
    const r = mat4.fromRotation(new Array<number>(16).fill(0), num(args[0]), axis);
    return r ? Array.from(r) : scalarMatrix(Math.cos(num(args[0]))).map((x, k) => (k === 15 ? 1 : x));
  },
  rsl_inverse: (args) => inverse(vec(args[0])),
  rsl_setcomp_vec3: (args) => setComponent(vec(args[0]), num(args[1]), num(args[2])),
  rsl_setcomp_mat4: (args) => setMatrixComponent(vec(args[0]), num(args[1]), num(args[2]), num(args[3])),
  rsl_fresnel_kr: (args) => fresnelKr(vec(args[0]), vec(args[1]), num(args[2])),
  rsl_specularbrdf: (args) => {
    const h = normalize(add(vec(args[0]), vec(args[2])));
    const x = specularFalloff(dot(vec(args[1]), h), num(args[3]));
    return [x, x, x];
  },
  rsl_pow_f32: binary(powRsl),
  rsl_pow_vec3: binary(powRsl),
  rsl_asin: unary((x) => Math.asin(Math.min(1, Math.max(-1, x)))),
  rsl_acos: unary((x) => Math.acos(Math.min(1, Math.max(-1, x)))),
  rsl_filterstep: (args) => filterstep(...(args.map(num) as [number, number, number, number])),
  ...Object.fromEntries(Object.entries(SPLINE_BASES).map(([name, basis]) => [`rsl_spline_weights_${name}`, (args: Value[]) => splineWeights(basis, num(args[0]))])),
  rsl_spline_weights_linear: (args) => [0, 1 - num(args[0]), num(args[0]), 0],
  rsl_spline_f32: (args) => dot(vec(args[0]), args.slice(1).map(num)),
  rsl_spline_vec3: (args) => [0, 1, 2].map((c) => dot(vec(args[0]), args.slice(1).map((p) => vec(p)[c]!))),
  rsl_hsv_to_rgb: (args) => hsvToRgb(vec(args[0])),
  rsl_hsl_to_rgb: (args) => hslToRgb(vec(args[0])),
  rsl_xyz_to_rgb: (args) => apply3(XYZ_TO_RGB, vec(args[0])),
  rsl_rgb_to_xyz: (args) => apply3(RGB_TO_XYZ, vec(args[0])),
  rsl_yiq_to_rgb: (args) => apply3(YIQ_TO_RGB, vec(args[0])),
  rsl_rgb_to_yiq: (args) => apply3(RGB_TO_YIQ, vec(args[0])),
  rsl_xyy_to_rgb: (args) => xyyToRgb(vec(args[0])),
  rsl_rgb_to_xyy: (args) => rgbToXyy(vec(args[0])),
  rsl_rgb_to_hsv: (args) => rgbToHsv(vec(args[0])),
  rsl_rgb_to_hsl: (args) => rgbToHsl(vec(args[0])),
  rsl_rgb_to_rgb: (args) => args[0]!,
  rsl_noise1: (args) => perlin(vec(args[0]).map(f32), [0, 0, 0], 0),
  rsl_noise3: (args) => [0, 1, 2].map((seed) => perlin(vec(args[0]).map(f32), [0, 0, 0], seed)),
  rsl_pnoise1: (args) => perlin(vec(args[0]).map(f32), vec(args[1]).map(period), 0),
  rsl_pnoise3: (args) => [0, 1, 2].map((seed) => perlin(vec(args[0]).map(f32), vec(args[1]).map(period), seed)),
  rsl_noise4_1: (args) => perlin([...vec(args[0]), num(args[1])].map(f32), [0, 0, 0, 0], 0),
  rsl_noise4_3: (args) => [0, 1, 2].map((seed) => perlin([...vec(args[0]), num(args[1])].map(f32), [0, 0, 0, 0], seed)),
  rsl_pnoise4_1: (args) => perlin([...vec(args[0]), num(args[1])].map(f32), [...vec(args[2]), num(args[3])].map(period), 0),
  rsl_pnoise4_3: (args) => [0, 1, 2].map((seed) => perlin([...vec(args[0]), num(args[1])].map(f32), [...vec(args[2]), num(args[3])].map(period), seed)),
  rsl_cellnoise1: (args) => cellnoise(vec(args[0]), 7),
  rsl_cellnoise3: (args) => [7, 8, 9].map((seed) => cellnoise(vec(args[0]), seed)),
  rsl_cellnoise4_1: (args) => cellnoise([...vec(args[0]), num(args[1])], 7),
  rsl_cellnoise4_3: (args) => [7, 8, 9].map((seed) => cellnoise([...vec(args[0]), num(args[1])], seed)),
  rsl_random_f32: (_, env) => randomFloat(env),
  rsl_random_vec3: (_, env) => [randomFloat(env), randomFloat(env), randomFloat(env)],
  rsl_random_uniform_f32: (_, env) => (env.nextUniformRandom() >>> 8) / 16777216,
  rsl_random_uniform_vec3: (_, env) => [0, 1, 2].map(() => (env.nextUniformRandom() >>> 8) / 16777216),
};
