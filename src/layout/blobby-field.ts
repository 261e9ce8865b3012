// The field block of a Blobby record (KIND_BLOBBY, src/layout/primitive-record.ts): what the GPU needs
// to put a point of the record's biquadratic patch on the implicit surface and to shade it there. It sits
// in the auxiliary buffer at RECORD.aux + (the record's geometry word BLOBBY_SHAPE.field) - 1, packed by
// src/reyes/convert/blobby-program.ts and read by shaders/kernels/reyes-blobby.wgsl:
//   header (BLOBBY_FIELD), then `leaves` leaves of BLOBBY_LEAF.floats each, then `program` instruction
//   words, then `blends` blended variables of BLOBBY_BLEND.values + `leaves` floats each.
// The program is postfix over a stack of (gradient, value): leaves push, operators pop their operands
// and push the result, so an operator of n operands is n - 1 pairwise steps; a step whose second
// operand is a leaf names it in its own word.
import type { ConstantGroup } from './wgsl-constants.ts';

/** A Blobby record's geometry words: its patch (object space), then the field block's place. */
export const BLOBBY_SHAPE = {
  /** The biquadratic patch's 3 × 3 points × 3, at u, v = 0, ½, 1 (row v, column u): it passes
   * through them (Lagrange), and they lie on the surface. */
  points: 0,
  /** u32 bits: 1 + the float offset, from RECORD.aux, of the record's field block. */
  field: 27,
  /** How far (camera space) the surface lies from the patch at most: bound/split bounds the patch
   * padded by it. */
  pad: 28,
  words: 29,
} as const;

/** Float offsets in the field block's header. */
export const BLOBBY_FIELD = {
  /** The field value on the surface. */
  threshold: 0,
  /** u32 bits: the leaves in the block (those that can reach the record). */
  leaves: 1,
  /** u32 bits: the program's instruction words. */
  program: 2,
  /** u32 bits: the blended variables. */
  blends: 3,
  /** How far (object space) projection may move a point from where the patch puts it: the record's
   * leaves are those that reach within this distance of its corners' box. */
  reach: 4,
  /** Object → camera for normals, 3 × 3 column-major (the inverse transpose), negated where the
   * primitive's orientation turns the outward normal in. */
  normalMatrix: 5,
  floats: 14,
} as const;

/** Float offsets in one leaf. */
export const BLOBBY_LEAF = {
  /** u32 bits: a BlobbyLeafKind. */
  kind: 0,
  /** Object → the leaf's unit space, 3 × 4 column-major; a constant leaf's value in its first word. */
  toUnit: 1,
  /** Segments, in unit space: the start, the axis (end - start), 1 / |axis|² (0 for a point) and
   * 1 / radius². */
  start: 13,
  axis: 16,
  inverseAxisLength2: 19,
  inverseRadius2: 20,
  floats: 21,
} as const;

export const BlobbyLeafKind = { constant: 0, ellipsoid: 1, segment: 2 } as const;

/** Instruction words: the operation in the low bits (BLOBBY_OP_MASK), a leaf's index from
 * BLOBBY_OP_SHIFT up; an operator with BLOBBY_OP_LEAF_OPERAND set takes that leaf as its second
 * operand instead of the top of the stack. */
export const BlobbyOp = {
  /** Push leaf (word >> 8)'s field. */
  leaf: 0,
  /** Push 0 (a leaf that cannot reach the record, an empty sum). */
  zero: 1,
  /** Push 1 (an empty product). */
  one: 2,
  add: 3,
  multiply: 4,
  maximum: 5,
  minimum: 6,
  /** The deeper operand less the top one. */
  subtract: 7,
  /** The deeper operand over the top one; 0 where the top one is 0. */
  divide: 8,
  negate: 9,
} as const;

export const BLOBBY_OP_SHIFT = 8;
export const BLOBBY_OP_MASK = 0x7f;
export const BLOBBY_OP_LEAF_OPERAND = 0x80;

/** The most entries a program may hold on the stack (the kernel's stack array, which keeps the
 * entries under the top). */
export const BLOBBY_STACK = 16;

/** Newton steps at most that put a point onto the surface, on the GPU (blobbyProject) and on the CPU
 * (convert/blobby-mesh.ts): the patch's points start a small part of a coarse cell off the surface,
 * and each step squares the error. */
export const BLOBBY_NEWTON_STEPS = 8;

/** Float offsets in one blended variable (its values follow, one per leaf of the block). */
export const BLOBBY_BLEND = {
  /** u32 bits: the component it sets: 0-10 the dicer's standard components (s, t, Cs, Os, N), from
   * BLOBBY_BLEND_USER the user rows in layout order. */
  target: 0,
  /** Its value where no leaf's field is positive: the mean over every leaf of the primitive. */
  fallback: 1,
  values: 2,
} as const;

/** The first user-row target (past the dicer's 11 standard components). */
export const BLOBBY_BLEND_USER = 11;

/** WGSL: BLOBBY_SHAPE_FIELD, BLOBBY_FIELD_REACH, ..., BLOBBY_LEAF_TO_UNIT, ..., BLOBBY_OP_ADD, ... */
export const BLOBBY_FIELD_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'BLOBBY_SHAPE_', values: BLOBBY_SHAPE },
  { prefix: 'BLOBBY_FIELD_', values: BLOBBY_FIELD },
  { prefix: 'BLOBBY_LEAF_', values: BLOBBY_LEAF },
  { prefix: 'BLOBBY_KIND_', values: BlobbyLeafKind },
  { prefix: 'BLOBBY_OP_', values: { ...BlobbyOp, shift: BLOBBY_OP_SHIFT, mask: BLOBBY_OP_MASK, leafOperand: BLOBBY_OP_LEAF_OPERAND } },
  { prefix: 'BLOBBY_BLEND_', values: { ...BLOBBY_BLEND, user: BLOBBY_BLEND_USER } },
  { prefix: 'BLOBBY_', values: { stack: BLOBBY_STACK, newtonSteps: BLOBBY_NEWTON_STEPS } },
];
