// The field of a Blobby (RI 3.2 §5.6, RiBlobby): its code array read into primitive fields (leaves)
// and the operators that combine them. Each leaf is the soft-object bump (1 - r²)³ of the distance r
// in its own unit space (1 at the centre, 0 from r = 1 outwards); the surface is where the combined
// field equals BLOBBY_THRESHOLD. The operators become a program (blobby-program.ts) that the CPU
// and the GPU (reyes-blobby.wgsl) both run.
import { mat4 } from 'gl-matrix';

/** The field value on the surface. */
export const BLOBBY_THRESHOLD = 0.5;

/** Primitive-field opcodes (Table 5.2) and combining opcodes (Table 5.3). */
const LEAF = { constant: 1000, ellipsoid: 1001, segment: 1002, plane: 1003 } as const;
export const OPERATOR = { add: 0, multiply: 1, maximum: 2, minimum: 3, subtract: 4, divide: 5, negate: 6, identity: 7 } as const;

/** An axis-aligned box, object space. */
export interface Box {
  lo: [number, number, number];
  hi: [number, number, number];
}

/** A leaf with a bounded field: zero outside `box`; `toUnit` takes object space to its unit space
 * (affine, column-major 4 × 4); `size` is its smallest half extent in object space (from the centre,
 * or a segment's axis, to where its field ends), for the cells that find its surface. */
interface BoundedLeaf {
  toUnit: Float64Array;
  box: Box;
  size: number;
}

export type Leaf =
  | { kind: 'constant'; value: number }
  | (BoundedLeaf & { kind: 'ellipsoid' })
  /** Ends and radius in unit space. */
  | (BoundedLeaf & { kind: 'segment'; start: [number, number, number]; end: [number, number, number]; radius: number })
  | { kind: 'plane' };

/** One entry of the code: a leaf, or an operator over the results of earlier entries. */
export type Instruction = { leaf: number } | { operator: number; operands: number[] };

export interface BlobbyField {
  /** Primitive fields in code order (their index is the vertex/varying index of the primitive variables). */
  leaves: Leaf[];
  /** The code's entries; the last one's result is the field. */
  instructions: Instruction[];
  /** Object-space box outside which no bounded leaf contributes; undefined with none. */
  bound: Box | undefined;
}

/** Reads a Blobby's code; problems are messages through `warn` (an unreadable code gives undefined). */
export function readBlobbyField(nleaf: number, code: readonly number[], floats: readonly number[], warn: (message: string) => void): BlobbyField | undefined {
  const leaves: Leaf[] = [];
  const instructions: Instruction[] = [];
  const matrixAt = (at: number): Float64Array | undefined => (at < 0 || at + 16 > floats.length ? undefined : Float64Array.from(floats.slice(at, at + 16)));
  let warnedPlane = false;
  for (let c = 0; c < code.length;) {
    const op = code[c++]!;
    const fail = (what: string): undefined => {
      warn(`Blobby: ${what} (code word ${c - 1}); the Blobby is skipped`);
      return undefined;
    };
    if (op >= 1000) {
      const at = code[c++];
      if (at === undefined) return fail(`opcode ${op} has no operand`);
      if (op === LEAF.constant) {
        if (at < 0 || at >= floats.length) return fail(`constant's float index ${at} is outside the ${floats.length} floats`);
        leaves.push({ kind: 'constant', value: floats[at]! });
      } else if (op === LEAF.ellipsoid) {
        const toObject = matrixAt(at);
        const toUnit = toObject && affineInverse(toObject);
        if (!toObject || !toUnit) return fail(`ellipsoid's matrix at float ${at} is missing, singular or projective`);
        leaves.push({ kind: 'ellipsoid', toUnit, box: unitBox(toObject, [-1, -1, -1], [1, 1, 1]), size: smallestScale(toUnit) });
      } else if (op === LEAF.segment) {
        const toObject = matrixAt(at + 7);
        const toUnit = toObject && affineInverse(toObject);
        const radius = floats[at + 6]!;
        if (!toObject || !toUnit || !(radius > 0)) return fail(`segment at float ${at} needs 23 floats (ends, radius > 0, an invertible affine matrix)`);
        const start = [floats[at]!, floats[at + 1]!, floats[at + 2]!] as [number, number, number];
        const end = [floats[at + 3]!, floats[at + 4]!, floats[at + 5]!] as [number, number, number];
        const lo = [0, 1, 2].map((k) => Math.min(start[k]!, end[k]!) - radius) as [number, number, number];
        const hi = [0, 1, 2].map((k) => Math.max(start[k]!, end[k]!) + radius) as [number, number, number];
        leaves.push({ kind: 'segment', toUnit, start, end, radius, box: unitBox(toObject, lo, hi), size: radius * smallestScale(toUnit) });
      } else if (op === LEAF.plane) {
        c++; // the float index after the depth file's string index
        if (!warnedPlane) warn('Blobby: repelling planes (opcode 1003, from depth files) are not rendered; their field is 0');
        warnedPlane = true;
        leaves.push({ kind: 'plane' });
      } else {
        return fail(`unknown primitive field opcode ${op}`);
      }
      instructions.push({ leaf: leaves.length - 1 });
      continue;
    }
    let operands: number[];
    if (op <= OPERATOR.minimum) {
      const count = code[c++] ?? -1;
      if (count < 0 || c + count > code.length) return fail(`operator ${op} has a bad operand count`);
      operands = code.slice(c, c + count);
      c += count;
    } else if (op <= OPERATOR.divide) {
      operands = code.slice(c, c + 2);
      c += 2;
    } else if (op <= OPERATOR.identity) {
      operands = code.slice(c, c + 1);
      c += 1;
    } else {
      return fail(`unknown opcode ${op}`);
    }
    const arity = op <= OPERATOR.minimum ? operands.length : op <= OPERATOR.divide ? 2 : 1;
    if (operands.length !== arity || operands.some((o) => !(o >= 0 && o < instructions.length))) return fail(`operator ${op} names a result not computed before it`);
    instructions.push({ operator: op, operands });
  }
  if (instructions.length === 0) return undefined;
  if (leaves.length !== nleaf) warn(`Blobby: nleaf is ${nleaf} but the code has ${leaves.length} primitive fields`);
  return { leaves, instructions, bound: unionBox(leaves) };
}

/** The inverse of an affine 4 × 4 (column-major); undefined when singular or projective. */
function affineInverse(m: Float64Array): Float64Array | undefined {
  if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] === 0) return undefined;
  const inverse = new Float64Array(16);
  return mat4.invert(inverse, m) && inverse.every(Number.isFinite) ? inverse : undefined;
}

/** The box of the unit-space box [lo, hi] taken to object space by `toObject`. */
function unitBox(toObject: Float64Array, lo: readonly number[], hi: readonly number[]): Box {
  const box: Box = { lo: [Infinity, Infinity, Infinity], hi: [-Infinity, -Infinity, -Infinity] };
  for (let k = 0; k < 8; k++) {
    const q = [k & 1 ? hi[0]! : lo[0]!, k & 2 ? hi[1]! : lo[1]!, k & 4 ? hi[2]! : lo[2]!];
    const w = toObject[15]!;
    for (let c = 0; c < 3; c++) {
      const v = (toObject[c]! * q[0]! + toObject[4 + c]! * q[1]! + toObject[8 + c]! * q[2]! + toObject[12 + c]!) / w;
      box.lo[c] = Math.min(box.lo[c]!, v);
      box.hi[c] = Math.max(box.hi[c]!, v);
    }
  }
  return box;
}

/** The smallest stretch of unit space in object space: 1 over toUnit's largest stretch. */
function smallestScale(toUnit: Float64Array): number {
  return 1 / largestScale(toUnit);
}

/** The largest singular value of a column-major 4 × 4's linear part (power iteration on its Gram
 * matrix): how far it takes a unit vector at most. */
export function largestScale(m: ArrayLike<number>): number {
  const gram = (i: number, j: number): number => m[i * 4]! * m[j * 4]! + m[i * 4 + 1]! * m[j * 4 + 1]! + m[i * 4 + 2]! * m[j * 4 + 2]!;
  let x = [1, 0.7, 0.4];
  let largest = 0;
  for (let k = 0; k < 32; k++) {
    const y = [0, 1, 2].map((i) => gram(i, 0) * x[0]! + gram(i, 1) * x[1]! + gram(i, 2) * x[2]!);
    largest = Math.hypot(...y);
    if (!(largest > 0)) return 0;
    x = y.map((v) => v / largest);
  }
  return Math.sqrt(largest);
}

/** The union of the bounded leaves' boxes. */
function unionBox(leaves: readonly Leaf[]): Box | undefined {
  const box: Box = { lo: [Infinity, Infinity, Infinity], hi: [-Infinity, -Infinity, -Infinity] };
  for (const leaf of leaves) {
    if (leaf.kind !== 'ellipsoid' && leaf.kind !== 'segment') continue;
    for (let c = 0; c < 3; c++) {
      box.lo[c] = Math.min(box.lo[c]!, leaf.box.lo[c]!);
      box.hi[c] = Math.max(box.hi[c]!, leaf.box.hi[c]!);
    }
  }
  return box.lo[0] <= box.hi[0] ? box : undefined;
}

/** Whether box `outer` holds box `inner` grown by `pad` on every side. */
export function contains(outer: Box, inner: Box, pad: number): boolean {
  for (let c = 0; c < 3; c++) if (inner.lo[c]! - pad < outer.lo[c]! || inner.hi[c]! + pad > outer.hi[c]!) return false;
  return true;
}

/** Whether boxes a and b meet, b grown by `pad` on every side. */
export function boxesMeet(a: Box, b: Box, pad: number): boolean {
  for (let c = 0; c < 3; c++) if (a.lo[c]! > b.hi[c]! + pad || a.hi[c]! < b.lo[c]! - pad) return false;
  return true;
}

/**
 * Leaf `leaf`'s field at object-space point p into out: (gradient x, y, z, value), as
 * reyes-blobby.wgsl's blobbyLeaf computes it (in doubles). Planes are 0.
 */
export function leafField(leaf: Leaf, p: ArrayLike<number>, out: Float64Array): Float64Array {
  out[0] = out[1] = out[2] = out[3] = 0;
  if (leaf.kind === 'constant') {
    out[3] = leaf.value;
    return out;
  }
  if (leaf.kind === 'plane') return out;
  const m = leaf.toUnit;
  const x = p[0]!, y = p[1]!, z = p[2]!;
  let dx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
  let dy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
  let dz = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
  let scale = 1;
  if (leaf.kind === 'segment') {
    const sx = leaf.start[0], sy = leaf.start[1], sz = leaf.start[2];
    const ax = leaf.end[0] - sx, ay = leaf.end[1] - sy, az = leaf.end[2] - sz;
    const length2 = ax * ax + ay * ay + az * az;
    const along = length2 > 0 ? Math.min(1, Math.max(0, ((dx - sx) * ax + (dy - sy) * ay + (dz - sz) * az) / length2)) : 0;
    dx -= sx + ax * along;
    dy -= sy + ay * along;
    dz -= sz + az * along;
    scale = 1 / (leaf.radius * leaf.radius);
  }
  const r2 = (dx * dx + dy * dy + dz * dz) * scale;
  if (r2 >= 1) return out;
  const s = 1 - r2;
  const g = -6 * s * s * scale;
  // To object space: the transpose of the linear part.
  out[0] = g * (m[0]! * dx + m[1]! * dy + m[2]! * dz);
  out[1] = g * (m[4]! * dx + m[5]! * dy + m[6]! * dz);
  out[2] = g * (m[8]! * dx + m[9]! * dy + m[10]! * dz);
  out[3] = s * s * s;
  return out;
}
