// The CSG table compositing reads (reyes-composite.wgsl; built by src/reyes/convert/solids.ts): u32
// words. Each primitive solid (a "primitive" SolidBegin block, or a geometric primitive given
// directly in a set-operation block) is a leaf; each top-level solid is an expression over its
// leaves in postfix order with binary operators, left-deep (A − B − C is (A − B) − C), so that
// evaluating it needs a stack no deeper than the nesting. A record's RECORD.solid names its leaf.
//   words[0]                      leaf count
//   words[1 + 2 leaf + 0, 1]      the node range [start, end) of the leaf's top-level solid
//   words[start .. end)           nodes: op | argument << SOLID_NODE_SHIFT (a leaf's argument is its index)
import type { ConstantGroup } from './wgsl-constants.ts';

export const SOLID_TABLE = {
  leafCount: 0,
  /** The first leaf's node range. */
  leaves: 1,
  /** Words per leaf. */
  leafWords: 2,
} as const;

export const SolidOp = { leaf: 0, union: 1, intersection: 2, difference: 3 } as const;
export type SolidOpName = keyof typeof SolidOp;

export const SOLID_NODE = {
  /** The op in the low bits, the argument above. */
  shift: 2,
  opMask: 3,
} as const;

/** Leaves a frame may have (compositing keeps one inside bit per leaf per subpixel). */
export const MAX_SOLID_LEAVES = 256;
/** Values a solid's evaluation may stack (bits of one u32). */
export const MAX_SOLID_STACK = 32;

/** WGSL: SOLID_TABLE_LEAF_COUNT, ..., SOLID_OP_LEAF, ..., SOLID_NODE_SHIFT, SOLID_NODE_OP_MASK, MAX_SOLID_LEAVES. */
export const SOLID_TABLE_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'SOLID_TABLE_', values: SOLID_TABLE },
  { prefix: 'SOLID_OP_', values: SolidOp },
  { prefix: 'SOLID_NODE_', values: SOLID_NODE },
  { prefix: '', values: { MAX_SOLID_LEAVES, MAX_SOLID_STACK } },
];
