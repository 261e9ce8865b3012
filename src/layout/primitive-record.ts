// The GPU form of a primitive: one fixed-size record of f32 words (integers stored as their bits)
// that the bound/split, dice and sample kernels read (packed by src/reyes/primitive-record.ts).
// Every scene primitive becomes one or more of a few splittable kinds: a bicubic Bézier patch, a
// bilinear patch, one of the seven quadrics, or a Blobby patch (a biquadratic patch near an implicit
// surface, put onto it by the field in its auxiliary block: src/layout/blobby-field.ts).
import type { ConstantGroup } from './wgsl-constants.ts';

export const PrimitiveKind = {
  bezier: 0,
  bilinear: 1,
  sphere: 2,
  cone: 3,
  cylinder: 4,
  hyperboloid: 5,
  paraboloid: 6,
  disk: 7,
  torus: 8,
  blobby: 9,
} as const;
export type PrimitiveKindName = keyof typeof PrimitiveKind;

export const PrimitiveFlag = {
  /** Ng = -(dPdu × dPdv) in camera space (orientation and handedness). */
  flipNormal: 1,
  twoSided: 2,
  matte: 4,
  /** The record carries corner normals N (camera space). */
  hasNormals: 8,
  /** ShadingInterpolation "smooth": colours are interpolated across micropolygons. */
  smooth: 16,
  /** The record's auxiliary block starts with row-mask words: its user variables may carry 16 Bézier
   * control values per component (vertex class on a bicubic patch) instead of 4 corner values. */
  bicubicVertex: 32,
  /** A curve's ribbon (convert/curves.ts): v along the curve, u across it. Spanning its whole width
   * it has no neighbour along its length, so bound/split dices it at any rate along v. */
  ribbon: 64,
} as const;

/** Bits of RECORD.bicubicMask: standard variables given as vertex class on a bicubic patch. */
export const BicubicBit = { s: 1, t: 2, Cs: 4, Os: 8, N: 16 } as const;

/** Float offsets of a record's fields. */
export const RECORD = {
  kind: 0,
  flags: 1,
  /** Float offset of the primitive's shader parameters in its pipeline's parameter buffer. */
  paramBase: 2,
  /** Index of the shading pipeline (kernel) that shades it. */
  pipeline: 3,
  shadingRate: 4,
  /** Attribute "displacementbound" sphere, in camera-space units. */
  displacementBound: 5,
  /** Float offset (u32 bits) of the record's block in the auxiliary buffer (userFloatsData). */
  aux: 6,
  /** u32 bits: which standard variables of a bicubic record follow the patch basis (BicubicBit); their
   * 16 Bézier control values per component sit in the auxiliary block, not in the corner fields. */
  bicubicMask: 7,
  /** object → camera, 16 floats column-major. */
  matrix: 8,
  /** Bézier: 16 points × 3 (row v, column u); bilinear: 4 points (00, 10, 01, 11); quadrics: arguments;
   * Blobby: BLOBBY_SHAPE (src/layout/blobby-field.ts). */
  geometry: 24,
  /** Corner values in the order (u,v) = (0,0), (1,0), (0,1), (1,1), interpolated bilinearly. */
  s: 72,
  t: 76,
  Cs: 80,
  Os: 92,
  N: 104,
  /** Level of detail: the interval [lo, hi) of sample importance the primitive draws
   * (convert/level-of-detail.ts); [0, 1) draws every sample. */
  lod: 116,
  /** u32 bits: 0 for a record that does not move within the shutter, else 1 + the float offset, from
   * RECORD.aux, of its motion block in the auxiliary buffer (src/reyes/motion/motion-keys.ts). */
  motion: 118,
  /** u32 bits: 0 for a record no TrimCurve crosses, else 1 + the float offset, from RECORD.aux, of its
   * trim block in the auxiliary buffer (src/layout/trim-block.ts). */
  trim: 119,
  /** u32 bits: 0 for a record outside CSG solids, else 1 + its primitive solid's leaf in the CSG table
   * (src/layout/solid-table.ts). */
  solid: 120,
  floats: 121,
} as const;

/** Edges of a record's parameter square, in the seam table's order (stages/grid-seams.ts). */
export const RecordEdge = { v0: 0, v1: 1, u0: 2, u1: 3 } as const;

/** WGSL: REC_KIND, REC_FLOATS, ..., KIND_SPHERE, ..., FLAG_MATTE, ..., BICUBIC_CS, ... */
export const PRIMITIVE_RECORD_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: 'REC_', values: RECORD },
  { prefix: 'KIND_', values: PrimitiveKind },
  { prefix: 'FLAG_', values: PrimitiveFlag },
  { prefix: 'BICUBIC_', values: BicubicBit },
];
