// Values of the reference interpreter and the arithmetic on them, with WGSL's meaning: a float is a
// number, a triple or vec4 an array of 3 or 4 numbers, a matrix 16 numbers in WGSL's column-major
// order (m[c * 4 + r] is column c, row r), a bool a boolean. Computed in doubles; the interpreter
// rounds every IR value to f32 so that it sees what the kernel stores.
import { mat4 } from 'gl-matrix';

export type Value = number | boolean | number[];

export function isMatrix(x: Value): x is number[] {
  return Array.isArray(x) && x.length === 16;
}

export function num(x: Value | undefined): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'boolean') return x ? 1 : 0;
  throw new Error(`expected a scalar, found ${JSON.stringify(x)}`);
}

export function vec(x: Value | undefined): number[] {
  if (Array.isArray(x)) return x;
  throw new Error(`expected a vector or matrix, found ${JSON.stringify(x)}`);
}

export function bool(x: Value | undefined): boolean {
  if (typeof x === 'boolean') return x;
  throw new Error(`expected a bool, found ${JSON.stringify(x)}`);
}

/** Applies f per component; scalars broadcast against vectors (as WGSL's mixed scalar-vector forms). */
export function lift(f: (...xs: number[]) => number, ...args: Value[]): Value {
  const width = Math.max(...args.map((a) => (Array.isArray(a) ? a.length : 0)));
  if (width === 0) return f(...args.map(num));
  return [...Array(width).keys()].map((k) => f(...args.map((a) => (Array.isArray(a) ? a[k]! : num(a)))));
}

export const identity = (): number[] => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** WGSL `a * b` for column-major matrices. */
export function matMul(a: number[], b: number[]): number[] {
  return Array.from(mat4.multiply(new Array<number>(16).fill(0), a, b));
}

/** WGSL `m * v` for a column vector of 4. */
export function matVec(m: number[], v: number[]): number[] {
  return [0, 1, 2, 3].map((r) => m[r]! * v[0]! + m[4 + r]! * v[1]! + m[8 + r]! * v[2]! + m[12 + r]! * v[3]!);
}

/** Inverse, or the identity when singular (what the kernel's rsl_inverse returns). */
export function inverse(m: number[]): number[] {
  const out = mat4.invert(new Array<number>(16).fill(0), m);
  return out ? Array.from(out) : identity();
}

export function transpose(m: number[]): number[] {
  return Array.from(mat4.transpose(new Array<number>(16).fill(0), m));
}

export function determinant(m: number[]): number {
  return mat4.determinant(m);
}

export const dot = (a: number[], b: number[]): number => a.reduce((s, x, k) => s + x * b[k]!, 0);
export const cross = (a: number[], b: number[]): number[] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
export const length = (a: number[]): number => Math.sqrt(dot(a, a));
export const scale = (a: number[], s: number): number[] => a.map((x) => x * s);
export const add = (a: number[], b: number[]): number[] => a.map((x, k) => x + b[k]!);
export const sub = (a: number[], b: number[]): number[] => a.map((x, k) => x - b[k]!);

/** Normalises, leaving a zero vector alone. */
export function normalize(a: number[]): number[] {
  const l = length(a);
  return l === 0 ? a : scale(a, 1 / l);
}

/** + - * / as WGSL defines them on the operand shapes the IR produces. */
export function arithmetic(op: '+' | '-' | '*' | '/', a: Value, b: Value): Value {
  if (isMatrix(a) && isMatrix(b)) {
    if (op === '*') return matMul(a, b);
    if (op === '+' || op === '-') return lift(op === '+' ? (x, y) => x + y : (x, y) => x - y, a, b);
    throw new Error('matrix division is not a WGSL operator');
  }
  switch (op) {
    case '+': return lift((x, y) => x + y, a, b);
    case '-': return lift((x, y) => x - y, a, b);
    case '*': return lift((x, y) => x * y, a, b);
    case '/': return lift((x, y) => x / y, a, b);
  }
}

/** Rounds every number to the nearest f32, as a kernel's store of the value would. */
export function toF32(x: Value): Value {
  if (typeof x === 'number') return Math.fround(x);
  if (Array.isArray(x)) return x.map((c) => Math.fround(c));
  return x;
}

export function equal(a: Value, b: Value): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.every((x, k) => x === b[k]);
  return num(a) === num(b);
}
