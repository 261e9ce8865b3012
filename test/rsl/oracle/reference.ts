// Small independent helpers for the expected values: vectors as arrays, matrices as 16 numbers by
// rows in RenderMan's convention (points are row vectors, p' = p M, translation in the last row).
// Written from the definitions, not from the compiler or its interpreter.
import { mat4 } from 'gl-matrix';

export type V3 = [number, number, number];

export const add = (a: readonly number[], b: readonly number[]): V3 => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];
export const sub = (a: readonly number[], b: readonly number[]): V3 => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
export const mul = (a: readonly number[], k: number): V3 => [a[0]! * k, a[1]! * k, a[2]! * k];
export const dot = (a: readonly number[], b: readonly number[]): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
export const cross = (a: readonly number[], b: readonly number[]): V3 => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
export const len = (a: readonly number[]): number => Math.hypot(a[0]!, a[1]!, a[2]!);
export const unit = (a: readonly number[]): V3 => mul(a, 1 / len(a));

export const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Row-major product a b. */
export function matMul(a: readonly number[], b: readonly number[]): number[] {
  return [...Array(16).keys()].map((k) => {
    const r = Math.floor(k / 4);
    const c = k % 4;
    return [0, 1, 2, 3].reduce((s, i) => s + a[r * 4 + i]! * b[i * 4 + c]!, 0);
  });
}

/** Inverse by gl-matrix (an independent library; its layout is the transpose, which commutes with inversion). */
export function matInverse(m: readonly number[]): number[] {
  const out = mat4.invert(mat4.create(), m as unknown as mat4);
  if (!out) throw new Error('singular matrix in a test');
  return Array.from(out);
}

export const transpose = (m: readonly number[]): number[] => [...Array(16).keys()].map((k) => m[(k % 4) * 4 + Math.floor(k / 4)]!);

/** Determinant by cofactor expansion along the first row. */
export function determinant(m: readonly number[]): number {
  const minor = (rows: number[], cols: number[]): number => {
    if (rows.length === 1) return m[rows[0]! * 4 + cols[0]!]!;
    return cols.reduce((s, c, k) => s + (k % 2 === 0 ? 1 : -1) * m[rows[0]! * 4 + c]! * minor(rows.slice(1), cols.filter((x) => x !== c)), 0);
  };
  return minor([0, 1, 2, 3], [0, 1, 2, 3]);
}

/** p M with the homogeneous divide. */
export function transformPoint(m: readonly number[], p: readonly number[]): V3 {
  const h = [0, 1, 2, 3].map((c) => p[0]! * m[c]! + p[1]! * m[4 + c]! + p[2]! * m[8 + c]! + m[12 + c]!);
  return [h[0]! / h[3]!, h[1]! / h[3]!, h[2]! / h[3]!];
}

export const transformVector = (m: readonly number[], v: readonly number[]): V3 =>
  [0, 1, 2].map((c) => v[0]! * m[c]! + v[1]! * m[4 + c]! + v[2]! * m[8 + c]!) as V3;

/** Normals transform by the inverse transpose. */
export const transformNormal = (m: readonly number[], n: readonly number[]): V3 => transformVector(transpose(matInverse(m)), n);

export const translation = (t: readonly number[]): number[] => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, t[0]!, t[1]!, t[2]!, 1];
export const scaling = (s: readonly number[]): number[] => [s[0]!, 0, 0, 0, 0, s[1]!, 0, 0, 0, 0, s[2]!, 0, 0, 0, 0, 1];

/** Rotation by `angle` radians about `axis` (through the origin), by Rodrigues' formula applied to the basis. */
export function rotation(angle: number, axis: readonly number[]): number[] {
  const rows = [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map((e) => rotateAbout(e, angle, [0, 0, 0], axis));
  return [...rows[0]!, 0, ...rows[1]!, 0, ...rows[2]!, 0, 0, 0, 0, 1];
}

/** Rotates point q by `angle` about the axis through a along direction d (right-handed about d). */
export function rotateAbout(q: readonly number[], angle: number, a: readonly number[], d: readonly number[]): V3 {
  const k = unit(d);
  const v = sub(q, a);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return add(a, add(add(mul(v, c), mul(cross(k, v), s)), mul(k, dot(k, v) * (1 - c))));
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
export const mix = (a: number, b: number, t: number): number => a * (1 - t) + b * t;
export const smoothstep = (lo: number, hi: number, x: number): number => {
  const t = clamp((x - lo) / (hi - lo), 0, 1);
  return t * t * (3 - 2 * t);
};
