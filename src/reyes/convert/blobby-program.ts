// A Blobby's operators as a postfix program over a stack of (gradient, value), the form the GPU runs
// (reyes-blobby.wgsl) and the CPU runs the same way here: a record's program holds only the leaves
// that can reach it, the others folded away. Folding drops what is exactly zero there (x + 0 = x,
// x · 0 = 0, ...), so two records that keep different leaves compute the same bits wherever the
// leaves only one of them keeps are zero: on their shared edge, which keeps neighbouring grids
// together. Then the field block a record carries (src/layout/blobby-field.ts).
import { BLOBBY_BLEND, BLOBBY_FIELD, BLOBBY_LEAF, BLOBBY_OP_LEAF_OPERAND, BLOBBY_OP_MASK, BLOBBY_OP_SHIFT, BLOBBY_STACK, BlobbyLeafKind, BlobbyOp } from '../../layout/blobby-field.ts';
import { BLOBBY_THRESHOLD, leafField, OPERATOR, type BlobbyField, type Leaf } from './blobby-field.ts';

/** Instruction words past this make a Blobby's program too long (shared results are repeated). */
const MAX_PROGRAM_WORDS = 1 << 16;

export interface BlobbyProgram {
  /** Instruction words (the operation, a leaf's index in `leaves` from BLOBBY_OP_SHIFT up). */
  words: number[];
  /** The field's leaves the program holds, by their index in the code. */
  leaves: number[];
  /** The deepest stack it needs. */
  depth: number;
  /** runProgram's stack and projectOntoSurface's field, made at their first run. */
  stack?: Float64Array;
  gradient?: Float64Array;
}

/** Instruction words as a tree of pieces, flattened once at the end (a fragment's code is shared by
 * every operator that uses its result, without copying). */
type Code = number | readonly Code[];

/** A compiled sub-expression: exactly zero, or code (leaf operands by their index in the code) of
 * `length` words. */
type Fragment = { zero: true } | { zero: false; code: Code; length: number; depth: number };

const ZERO: Fragment = { zero: true };
const push = (word: number): Fragment => ({ zero: false, code: word, length: 1, depth: 1 });

/**
 * The field's program with the leaves `keep` accepts (constants always; planes never, their field is
 * 0), or a message saying why it cannot run on the GPU. The block's leaves are every kept leaf, in
 * code order (they weigh the blended variables even where the program folds them away).
 */
export function compileProgram(field: BlobbyField, keep: (leaf: number) => boolean): BlobbyProgram | string {
  const kept = field.leaves.map((leaf, i) => leaf.kind === 'constant' || (leaf.kind !== 'plane' && keep(i)));
  const memo = new Map<number, Fragment>();
  const fragment = (k: number): Fragment => {
    let made = memo.get(k);
    if (!made) memo.set(k, (made = build(k)));
    return made;
  };
  const build = (k: number): Fragment => {
    const ins = field.instructions[k]!;
    if ('leaf' in ins) return kept[ins.leaf] ? push(BlobbyOp.leaf | (ins.leaf << BLOBBY_OP_SHIFT)) : ZERO;
    const operands = ins.operands.map(fragment);
    switch (ins.operator) {
      case OPERATOR.add: return combine(operands.filter((f) => !f.zero), BlobbyOp.add, ZERO);
      case OPERATOR.multiply: return operands.some((f) => f.zero) ? ZERO : combine(operands, BlobbyOp.multiply, push(BlobbyOp.one));
      case OPERATOR.maximum: return combine(operands.map(explicit), BlobbyOp.maximum, ZERO);
      case OPERATOR.minimum: return combine(operands.map(explicit), BlobbyOp.minimum, ZERO);
      case OPERATOR.subtract: {
        const [a, b] = operands as [Fragment, Fragment];
        if (b.zero) return a;
        return a.zero ? negate(b) : combine([a, b], BlobbyOp.subtract, ZERO);
      }
      // 0 / b is 0, and so is a / 0 (the division's rule for a zero divisor).
      case OPERATOR.divide: return operands.some((f) => f.zero) ? ZERO : combine(operands, BlobbyOp.divide, ZERO);
      case OPERATOR.negate: return negate(operands[0]!);
      default: return operands[0]!;
    }
  };
  // Entries in code order, so that each one's operands are made before it (no deep recursion).
  field.instructions.forEach((_, k) => fragment(k));
  const root = fragment(field.instructions.length - 1);
  if (!root.zero && root.length > MAX_PROGRAM_WORDS) return `its code repeats shared results into more than ${MAX_PROGRAM_WORDS} instructions`;
  const code = root.zero ? [BlobbyOp.zero] : flatten(root.code);
  const depth = root.zero ? 1 : root.depth;
  if (depth > BLOBBY_STACK) return `its operators nest deeper than the ${BLOBBY_STACK} results the GPU evaluates at a time`;
  const leaves = kept.flatMap((k, i) => (k ? [i] : []));
  const local = new Map(leaves.map((leaf, i) => [leaf, i]));
  const shift = 2 ** BLOBBY_OP_SHIFT;
  const namesLeaf = (word: number): boolean => (word & BLOBBY_OP_MASK) === BlobbyOp.leaf || (word & BLOBBY_OP_LEAF_OPERAND) !== 0;
  return {
    words: code.map((word) => (namesLeaf(word) ? (word % shift) + local.get(Math.floor(word / shift))! * shift : word)),
    leaves,
    depth,
  };
}

/** An operand that must be pushed even when it is zero (the maximum or minimum of it and others). */
function explicit(f: Fragment): Fragment {
  return f.zero ? push(BlobbyOp.zero) : f;
}

function negate(f: Fragment): Fragment {
  return f.zero ? ZERO : { zero: false, code: [f.code, BlobbyOp.negate], length: f.length + 1, depth: f.depth };
}

/** Operands folded pairwise, left to right: a leaf after the first is named by the step itself,
 * any other operand is pushed first (one more stack entry). */
function combine(operands: Fragment[], op: number, empty: Fragment): Fragment {
  const present = operands.filter((f): f is Extract<Fragment, { zero: false }> => !f.zero);
  if (present.length === 0) return empty;
  let { depth, length } = present[0]!;
  const code: Code[] = [present[0]!.code];
  for (const f of present.slice(1)) {
    if (typeof f.code === 'number' && (f.code & BLOBBY_OP_MASK) === BlobbyOp.leaf) {
      code.push(f.code + op + BLOBBY_OP_LEAF_OPERAND);
      length += 1;
      continue;
    }
    depth = Math.max(depth, 1 + f.depth);
    length += f.length + 1;
    code.push(f.code, op);
  }
  return { zero: false, code, length, depth };
}

/** The words of a code tree in order. */
function flatten(code: Code): number[] {
  const words: number[] = [];
  const pending: Code[] = [code];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next === 'number') words.push(next);
    else for (let k = next.length - 1; k >= 0; k--) pending.push(next[k]!);
  }
  return words;
}

/**
 * The program's field at object-space point p into out: (gradient x, y, z, value), as
 * reyes-blobby.wgsl's blobbyField computes it (in doubles).
 */
export function runProgram(program: BlobbyProgram, leaves: readonly Leaf[], p: ArrayLike<number>, out: Float64Array): Float64Array {
  // The entries under the top, 4 numbers each, then a leaf's field.
  const stack = (program.stack ??= new Float64Array(4 * program.depth + 4));
  const leaf = stack.subarray(4 * program.depth);
  const shift = 2 ** BLOBBY_OP_SHIFT;
  let tx = 0, ty = 0, tz = 0, tw = 0;
  let depth = 0;
  for (const word of program.words) {
    const op = word & BLOBBY_OP_MASK;
    const leafOperand = (word & BLOBBY_OP_LEAF_OPERAND) !== 0;
    let bx = 0, by = 0, bz = 0, bw = op === BlobbyOp.one ? 1 : 0;
    if (op === BlobbyOp.leaf || leafOperand) {
      leafField(leaves[program.leaves[Math.floor(word / shift)]!]!, p, leaf);
      bx = leaf[0]!;
      by = leaf[1]!;
      bz = leaf[2]!;
      bw = leaf[3]!;
    }
    if (op <= BlobbyOp.one) {
      const at = 4 * depth++;
      stack[at] = tx;
      stack[at + 1] = ty;
      stack[at + 2] = tz;
      stack[at + 3] = tw;
      tx = bx;
      ty = by;
      tz = bz;
      tw = bw;
      continue;
    }
    if (op === BlobbyOp.negate) {
      tx = -tx;
      ty = -ty;
      tz = -tz;
      tw = -tw;
      continue;
    }
    let ax = tx, ay = ty, az = tz, aw = tw;
    if (!leafOperand) {
      const at = 4 * --depth;
      ax = stack[at]!;
      ay = stack[at + 1]!;
      az = stack[at + 2]!;
      aw = stack[at + 3]!;
      bx = tx;
      by = ty;
      bz = tz;
      bw = tw;
    }
    if (op === BlobbyOp.add || op === BlobbyOp.subtract) {
      const sign = op === BlobbyOp.add ? 1 : -1;
      tx = ax + sign * bx;
      ty = ay + sign * by;
      tz = az + sign * bz;
      tw = aw + sign * bw;
    } else if (op === BlobbyOp.multiply) {
      tx = ax * bw + bx * aw;
      ty = ay * bw + by * aw;
      tz = az * bw + bz * aw;
      tw = aw * bw;
    } else if (op === BlobbyOp.maximum || op === BlobbyOp.minimum) {
      const second = op === BlobbyOp.maximum ? bw > aw : bw < aw;
      tx = second ? bx : ax;
      ty = second ? by : ay;
      tz = second ? bz : az;
      tw = second ? bw : aw;
    } else if (bw === 0) {
      tx = ty = tz = tw = 0;
    } else {
      const d2 = bw * bw;
      tx = (ax * bw - bx * aw) / d2;
      ty = (ay * bw - by * aw) / d2;
      tz = (az * bw - bz * aw) / d2;
      tw = aw / bw;
    }
  }
  out[0] = tx;
  out[1] = ty;
  out[2] = tz;
  out[3] = tw;
  return out;
}

/** A variable blended by the leaves' fields: the component it sets (BLOBBY_BLEND.target), its value
 * where no field is positive, and one value per leaf of the field (code order). */
export interface BlobbyBlend {
  target: number;
  fallback: number;
  values: readonly number[];
}

export interface FieldBlockInput {
  program: BlobbyProgram;
  field: BlobbyField;
  reach: number;
  /** Object → camera for normals (column-major 3 × 3), negated where the outward normal is to be
   * turned in. */
  normalMatrix: ArrayLike<number>;
  blends: readonly BlobbyBlend[];
}

/** A record's field block (src/layout/blobby-field.ts). */
export function packFieldBlock(input: FieldBlockInput): Float32Array {
  const { program, field, blends } = input;
  const leafCount = program.leaves.length;
  const floats = BLOBBY_FIELD.floats + leafCount * BLOBBY_LEAF.floats + program.words.length + blends.length * (BLOBBY_BLEND.values + leafCount);
  const block = new Float32Array(floats);
  const words = new Uint32Array(block.buffer);
  block[BLOBBY_FIELD.threshold] = BLOBBY_THRESHOLD;
  words[BLOBBY_FIELD.leaves] = leafCount;
  words[BLOBBY_FIELD.program] = program.words.length;
  words[BLOBBY_FIELD.blends] = blends.length;
  block[BLOBBY_FIELD.reach] = input.reach;
  block.set(input.normalMatrix, BLOBBY_FIELD.normalMatrix);
  let at = BLOBBY_FIELD.floats;
  for (const index of program.leaves) {
    const leaf = field.leaves[index]!;
    if (leaf.kind === 'constant') {
      words[at + BLOBBY_LEAF.kind] = BlobbyLeafKind.constant;
      block[at + BLOBBY_LEAF.toUnit] = leaf.value;
    } else if (leaf.kind === 'ellipsoid' || leaf.kind === 'segment') {
      words[at + BLOBBY_LEAF.kind] = BlobbyLeafKind[leaf.kind];
      block.set(affine(leaf.toUnit), at + BLOBBY_LEAF.toUnit);
      if (leaf.kind === 'segment') {
        const axis = [0, 1, 2].map((c) => leaf.end[c]! - leaf.start[c]!);
        const length2 = axis[0]! ** 2 + axis[1]! ** 2 + axis[2]! ** 2;
        block.set(leaf.start, at + BLOBBY_LEAF.start);
        block.set(axis, at + BLOBBY_LEAF.axis);
        block[at + BLOBBY_LEAF.inverseAxisLength2] = length2 > 0 ? 1 / length2 : 0;
        block[at + BLOBBY_LEAF.inverseRadius2] = 1 / (leaf.radius * leaf.radius);
      }
    }
    at += BLOBBY_LEAF.floats;
  }
  words.set(program.words, at);
  at += program.words.length;
  for (const blend of blends) {
    words[at + BLOBBY_BLEND.target] = blend.target;
    block[at + BLOBBY_BLEND.fallback] = blend.fallback;
    block.set(program.leaves.map((leaf) => blend.values[leaf] ?? 0), at + BLOBBY_BLEND.values);
    at += BLOBBY_BLEND.values + leafCount;
  }
  return block;
}

/** A column-major affine 4 × 4 as 3 × 4: the linear part's columns, then the translation. */
function affine(m: ArrayLike<number>): number[] {
  return [m[0]!, m[1]!, m[2]!, m[4]!, m[5]!, m[6]!, m[8]!, m[9]!, m[10]!, m[12]!, m[13]!, m[14]!];
}
