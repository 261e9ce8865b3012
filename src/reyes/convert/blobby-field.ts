// The field of a Blobby (RI 3.2 §5.6, RiBlobby): its code array read into primitive fields (leaves)
// and the operators that combine them, evaluated at object-space points. Each leaf is the soft-object
// bump (1 - r²)³ of the distance r in its own unit space (1 at the centre, 0 from r = 1 outwards);
// the surface is where the combined field equals BLOBBY_THRESHOLD.
import { mat4, vec3 } from 'gl-matrix';

/** The field value on the surface. */
export const BLOBBY_THRESHOLD = 0.5;

/** Primitive-field opcodes (Table 5.2) and combining opcodes (Table 5.3). */
const LEAF = { constant: 1000, ellipsoid: 1001, segment: 1002, plane: 1003 } as const;
const OPERATOR = { add: 0, multiply: 1, maximum: 2, minimum: 3, subtract: 4, divide: 5, negate: 6, identity: 7 } as const;

type Leaf =
  | { kind: 'constant'; value: number }
  /** toUnit: object → the unit sphere's space (the inverse of the code's matrix). */
  | { kind: 'ellipsoid'; toUnit: mat4; toObject: mat4 }
  | { kind: 'segment'; toUnit: mat4; toObject: mat4; start: vec3; end: vec3; radius: number }
  | { kind: 'plane' };

type Instruction = { leaf: number } | { operator: number; operands: number[] };

export interface BlobbyField {
  /** Primitive fields in code order (their index is the vertex/varying index of the primitive variables). */
  leaves: Leaf[];
  /** The field at an object-space point. */
  value(p: ArrayLike<number>): number;
  /** Each leaf's own field at p (the weights that blend the leaves' variables). */
  leafValues(p: ArrayLike<number>, out: Float64Array): void;
  /** Object-space box [min, max] outside which no bounded leaf contributes; undefined with none. */
  bound: [vec3, vec3] | undefined;
}

/** The soft-object bump of a squared distance: (1 - r²)³ inside the unit sphere, 0 outside. */
export function bump(r2: number): number {
  if (r2 >= 1) return 0;
  const s = 1 - r2;
  return s * s * s;
}

function leafValue(leaf: Leaf, p: ArrayLike<number>, q: vec3, t: vec3): number {
  switch (leaf.kind) {
    case 'constant': return leaf.value;
    case 'plane': return 0;
    case 'ellipsoid':
      vec3.transformMat4(q, vec3.set(q, p[0]!, p[1]!, p[2]!), leaf.toUnit);
      return bump(vec3.squaredLength(q));
    case 'segment': {
      vec3.transformMat4(q, vec3.set(q, p[0]!, p[1]!, p[2]!), leaf.toUnit);
      const axis = vec3.subtract(t, leaf.end, leaf.start);
      const length2 = vec3.squaredLength(axis);
      const along = length2 > 0 ? Math.min(1, Math.max(0, (vec3.dot(q, axis) - vec3.dot(leaf.start, axis)) / length2)) : 0;
      vec3.scaleAndAdd(t, leaf.start, axis, along);
      return bump(vec3.squaredDistance(q, t) / (leaf.radius * leaf.radius));
    }
  }
}

/** Reads a Blobby's code; problems are messages through `warn` (an unreadable code gives undefined). */
export function readBlobbyField(nleaf: number, code: readonly number[], floats: readonly number[], warn: (message: string) => void): BlobbyField | undefined {
  const leaves: Leaf[] = [];
  const program: Instruction[] = [];
  const matrixAt = (at: number): mat4 | undefined => {
    if (at < 0 || at + 16 > floats.length) return undefined;
    return mat4.clone(floats.slice(at, at + 16) as unknown as mat4);
  };
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
        const toUnit = toObject && mat4.invert(mat4.create(), toObject);
        if (!toObject || !toUnit) return fail(`ellipsoid's matrix at float ${at} is missing or singular`);
        leaves.push({ kind: 'ellipsoid', toUnit, toObject });
      } else if (op === LEAF.segment) {
        const toObject = matrixAt(at + 7);
        const toUnit = toObject && mat4.invert(mat4.create(), toObject);
        if (!toObject || !toUnit || !(floats[at + 6]! > 0)) return fail(`segment at float ${at} needs 23 floats (ends, radius > 0, an invertible matrix)`);
        leaves.push({
          kind: 'segment', toUnit, toObject, radius: floats[at + 6]!,
          start: vec3.fromValues(floats[at]!, floats[at + 1]!, floats[at + 2]!), end: vec3.fromValues(floats[at + 3]!, floats[at + 4]!, floats[at + 5]!),
        });
      } else if (op === LEAF.plane) {
        c++; // the float index after the depth file's string index
        if (!warnedPlane) warn('Blobby: repelling planes (opcode 1003, from depth files) are not rendered; their field is 0');
        warnedPlane = true;
        leaves.push({ kind: 'plane' });
      } else {
        return fail(`unknown primitive field opcode ${op}`);
      }
      program.push({ leaf: leaves.length - 1 });
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
    if (operands.some((o) => !(o >= 0 && o < program.length))) return fail(`operator ${op} names a result not computed before it`);
    program.push({ operator: op, operands });
  }
  if (program.length === 0) return undefined;
  if (leaves.length !== nleaf) warn(`Blobby: nleaf is ${nleaf} but the code has ${leaves.length} primitive fields`);

  const q = vec3.create();
  const t = vec3.create();
  const results = new Float64Array(program.length);
  const value = (p: ArrayLike<number>): number => {
    program.forEach((ins, k) => {
      if ('leaf' in ins) {
        results[k] = leafValue(leaves[ins.leaf]!, p, q, t);
        return;
      }
      const v = ins.operands.map((o) => results[o]!);
      switch (ins.operator) {
        case OPERATOR.add: results[k] = v.reduce((a, b) => a + b, 0); break;
        case OPERATOR.multiply: results[k] = v.reduce((a, b) => a * b, 1); break;
        case OPERATOR.maximum: results[k] = v.length ? Math.max(...v) : 0; break;
        case OPERATOR.minimum: results[k] = v.length ? Math.min(...v) : 0; break;
        // The first operand less (over) the second, as the operand order of Table 5.3 reads.
        case OPERATOR.subtract: results[k] = v[0]! - v[1]!; break;
        case OPERATOR.divide: results[k] = v[1] !== 0 ? v[0]! / v[1]! : 0; break;
        case OPERATOR.negate: results[k] = -v[0]!; break;
        default: results[k] = v[0]!;
      }
    });
    return results[program.length - 1]!;
  };
  const leafValues = (p: ArrayLike<number>, out: Float64Array): void => {
    leaves.forEach((leaf, i) => (out[i] = leafValue(leaf, p, q, t)));
  };
  return { leaves, value, leafValues, bound: leafBound(leaves) };
}

/** The union of the bounded leaves' boxes (a leaf is zero outside its unit sphere or capsule). */
function leafBound(leaves: readonly Leaf[]): [vec3, vec3] | undefined {
  const lo = vec3.fromValues(Infinity, Infinity, Infinity);
  const hi = vec3.fromValues(-Infinity, -Infinity, -Infinity);
  const p = vec3.create();
  const grow = (toObject: mat4, min: vec3, max: vec3) => {
    for (let k = 0; k < 8; k++) {
      vec3.set(p, k & 1 ? max[0] : min[0], k & 2 ? max[1] : min[1], k & 4 ? max[2] : min[2]);
      vec3.transformMat4(p, p, toObject);
      vec3.min(lo, lo, p);
      vec3.max(hi, hi, p);
    }
  };
  for (const leaf of leaves) {
    if (leaf.kind === 'ellipsoid') grow(leaf.toObject, vec3.fromValues(-1, -1, -1), vec3.fromValues(1, 1, 1));
    else if (leaf.kind === 'segment') {
      const r = vec3.fromValues(leaf.radius, leaf.radius, leaf.radius);
      grow(leaf.toObject, vec3.subtract(vec3.create(), vec3.min(vec3.create(), leaf.start, leaf.end), r), vec3.add(vec3.create(), vec3.max(vec3.create(), leaf.start, leaf.end), r));
    }
  }
  return lo[0] <= hi[0] ? [lo, hi] : undefined;
}
