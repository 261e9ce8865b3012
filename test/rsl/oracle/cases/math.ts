// Mathematical functions (RI 3.2 section 15.1), expected values from their definitions via Math.
import type { OracleCase } from '../oracle-case.ts';
import { col, oc, pt, vc, nm } from '../oracle-case.ts';
import { clamp, mix, smoothstep } from '../reference.ts';

const f = (expr: string, args: Record<string, number>, expect: number, tolerance?: number): OracleCase => oc('float', expr, args, expect, tolerance);
const PI = Math.PI;

export const MATH_CASES: OracleCase[] = [
  f('radians(a)', { a: 180 }, PI),
  f('radians(a)', { a: -45 }, -PI / 4),
  f('degrees(a)', { a: PI / 2 }, 90),
  f('degrees(a)', { a: -1 }, -180 / PI),
  f('PI', {}, PI),
  ...[0.3, -1.2, 2.5].map((a) => f('sin(a)', { a }, Math.sin(a))),
  ...[0.3, -1.2, 2.5].map((a) => f('cos(a)', { a }, Math.cos(a))),
  ...[0.3, -1.2].map((a) => f('tan(a)', { a }, Math.tan(a))),
  ...[0.5, -0.9, 1].map((a) => f('asin(a)', { a }, Math.asin(a))),
  ...[0.5, -0.9, 0].map((a) => f('acos(a)', { a }, Math.acos(a))),
  ...[0.5, -3, 40].map((a) => f('atan(a)', { a }, Math.atan(a))),
  ...[[1, 1], [1, -1], [-1, -1], [-2, 0.5], [0, -1]].map(([y, x]) => f('atan(y, x)', { y: y!, x: x! }, Math.atan2(y!, x!))),
  ...[[2, 3], [2, 0.5], [9, -0.5], [0.3, 2.2], [-2, 3], [-2, 2]].map(([x, y]) => f('pow(x, y)', { x: x!, y: y! }, Math.pow(x!, y!))),
  oc('color', 'pow(c, y)', { c: col(0.25, 4, 9), y: 0.5 }, [0.5, 2, 3]),
  oc('point', 'pow(p, y)', { p: pt(2, 3, 0.5), y: 2 }, [4, 9, 0.25]),
  ...[0, 1, -2, 3.5].map((x) => f('exp(x)', { x }, Math.exp(x))),
  oc('color', 'exp(c)', { c: col(0, 1, -1) }, [1, Math.E, 1 / Math.E]),
  ...[4, 2, 0.25, 0].map((x) => f('sqrt(x)', { x }, Math.sqrt(x))),
  oc('vector', 'sqrt(v)', { v: vc(4, 9, 16) }, [2, 3, 4]),
  ...[4, 0.25, 2].map((x) => f('inversesqrt(x)', { x }, 1 / Math.sqrt(x))),
  oc('normal', 'inversesqrt(n)', { n: nm(4, 1, 0.25) }, [0.5, 1, 2]),
  ...[1, Math.E, 10, 0.5].map((x) => f('log(x)', { x }, Math.log(x))),
  ...[[8, 2], [100, 10], [0.25, 2], [27, 3]].map(([x, b]) => f('log(x, b)', { x: x!, b: b! }, Math.log(x!) / Math.log(b!))),
  oc('color', 'log(c)', { c: col(1, Math.E, 0.5) }, [0, 1, Math.log(0.5)]),
  // mod(a, b) is a - b floor(a / b): in [0, b) for positive b, whatever the sign of a.
  ...[[7.5, 2], [-2.5, 2], [6, 3], [-0.25, 1], [5.3, 1.3]].map(([a, b]) => f('mod(a, b)', { a: a!, b: b! }, a! - b! * Math.floor(a! / b!))),
  oc('point', 'mod(p, b)', { p: pt(3.5, -1.5, 7), b: 2 }, [1.5, 0.5, 1]),
  oc('vector', 'mod(v, w)', { v: vc(5, 7, -1), w: vc(3, 4, 5) }, [2, 3, 4]),
  ...[-3.5, 0, 2].map((x) => f('abs(x)', { x }, Math.abs(x))),
  oc('color', 'abs(c)', { c: col(-1, 2, -0.5) }, [1, 2, 0.5]),
  // sign: -1, 0 or 1 (section 15.1: "0 if its argument is zero").
  ...[-3.5, 0, 2].map((x) => f('sign(x)', { x }, Math.sign(x))),
  oc('vector', 'sign(v)', { v: vc(-2, 0, 5) }, [-1, 0, 1]),
  f('min(a, b)', { a: 3, b: -1 }, -1),
  f('max(a, b)', { a: 3, b: -1 }, 3),
  f('min(a, b, c, d)', { a: 3, b: 5, c: -2, d: 0 }, -2),
  f('max(a, b, c, d)', { a: 3, b: 5, c: -2, d: 0 }, 5),
  oc('color', 'min(c, d)', { c: col(1, 5, 3), d: col(2, 4, 3) }, [1, 4, 3]),
  oc('point', 'max(p, q)', { p: pt(1, 5, -3), q: pt(2, 4, -4) }, [2, 5, -3]),
  ...[[-1, 0, 1], [0.5, 0, 1], [2, 0, 1], [0.2, 0.3, 0.6]].map(([x, lo, hi]) => f('clamp(x, lo, hi)', { x: x!, lo: lo!, hi: hi! }, clamp(x!, lo!, hi!))),
  oc('color', 'clamp(c, lo, hi)', { c: col(-1, 0.5, 2), lo: col(0, 0, 0), hi: col(1, 1, 1) }, [0, 0.5, 1]),
  ...[[1, 5, 0.25], [-2, 2, 0.5], [3, 7, 0], [3, 7, 1], [0, 10, 1.5]].map(([a, b, t]) => f('mix(a, b, t)', { a: a!, b: b!, t: t! }, mix(a!, b!, t!))),
  oc('color', 'mix(c, d, t)', { c: col(0, 1, 2), d: col(4, 5, 6), t: 0.25 }, [1, 2, 3]),
  oc('color', 'mix(c, d, e)', { c: col(0, 1, 2), d: col(4, 5, 6), e: col(0, 0.5, 1) }, [0, 3, 6]),
  oc('point', 'mix(p, q, t)', { p: pt(0, 0, 0), q: pt(2, 4, 8), t: 0.75 }, [1.5, 3, 6]),
  ...[2.7, -2.7, 3].map((x) => f('floor(x)', { x }, Math.floor(x))),
  ...[2.2, -2.7, 3].map((x) => f('ceil(x)', { x }, Math.ceil(x))),
  ...[2.4, 2.6, -2.4, -2.6].map((x) => f('round(x)', { x }, Math.round(x))),
  oc('color', 'floor(c) + ceil(c)', { c: col(0.5, -1.5, 2) }, [1, -3, 4]),
  // step(min, value): 0 when value < min, else 1.
  ...[[0.5, 0.4], [0.5, 0.5], [0.5, 0.6], [-1, -2]].map(([lo, x]) => f('step(lo, x)', { lo: lo!, x: x! }, x! < lo! ? 0 : 1)),
  ...[[0, 1, 0.5], [0, 1, 0.25], [0.2, 0.8, 0.1], [0.2, 0.8, 0.9], [1, 3, 2.5]].map(([lo, hi, x]) => f('smoothstep(lo, hi, x)', { lo: lo!, hi: hi!, x: x! }, smoothstep(lo!, hi!, x!))),
];
