// Packs primitives into their GPU records (the layout is src/layout/primitive-record.ts) and the
// records' auxiliary blocks (user variables, Bézier control values of vertex variables).
import { BicubicBit, PrimitiveFlag, PrimitiveKind, RECORD, type PrimitiveKindName } from '../layout/primitive-record.ts';
import { BLOBBY_SHAPE } from '../layout/blobby-field.ts';

/**
 * Vertex-class variables of a bicubic (Bézier) record: the Bézier control values of each, component
 * by component, 16 per component (row v, column u), as P's control points are. The dicer evaluates
 * them with the Bernstein basis; the corner values of the same variables are then unused.
 */
export interface BicubicVertexValues {
  s?: ArrayLike<number>;
  t?: ArrayLike<number>;
  Cs?: ArrayLike<number>;
  Os?: ArrayLike<number>;
  N?: ArrayLike<number>;
  /** Per user component row (the rows of PrimitiveRecordInput.user): its 16 control values, or
   * undefined where the row keeps its 4 corner values. */
  userRows?: readonly (ArrayLike<number> | undefined)[];
}

export interface PrimitiveRecordInput {
  kind: PrimitiveKindName;
  flags: number;
  paramBase: number;
  pipeline: number;
  shadingRate: number;
  displacementBound: number;
  objectToCamera: ArrayLike<number>;
  geometry: ArrayLike<number>;
  s: ArrayLike<number>;
  t: ArrayLike<number>;
  Cs: ArrayLike<number>;
  Os: ArrayLike<number>;
  N?: ArrayLike<number>;
  /** Level of detail importance interval; default [0, 1) (every sample). */
  lod?: readonly [number, number];
  /** User primitive variables' corner values (component-major: variable, component, then the four
   * corners), userFloats of them, camera space for points, vectors and normals. */
  user?: ArrayLike<number>;
  /** Bicubic records only: vertex-class variables as Bézier control values. */
  bicubic?: BicubicVertexValues;
  /** The motion block of a record that moves within the shutter (motion/motion-keys.ts). */
  motion?: Float32Array;
  /** The trim block of a NuPatch record a TrimCurve crosses (convert/trim-curves.ts). */
  trim?: Float32Array;
  /** The field block of a Blobby record (src/layout/blobby-field.ts, convert/blobby-program.ts); its
   * place goes into the record's geometry word BLOBBY_SHAPE.field. */
  field?: Float32Array;
  /** 1 + the record's primitive solid in the CSG table (convert/solids.ts); 0 or absent outside solids. */
  solid?: number;
}

/**
 * The auxiliary block of a record (at RECORD.aux in the buffer userFloatsData returns):
 * - with PrimitiveFlag.bicubicVertex, first ceil(rows / 32) mask words (u32 bits; bit r of word
 *   r / 32 set: user row r has 16 control values);
 * - each user component row in layout order: 4 corner values (00, 10, 01, 11), or 16 Bézier control
 *   values (row v, column u) where its mask bit is set;
 * - the standard variables named in RECORD.bicubicMask, in the order s, t, Cs, Os, N: 16 control
 *   values per component;
 * - a Blobby record's field block;
 * - the motion block where RECORD.motion is not 0;
 * - the trim block where RECORD.trim is not 0.
 */
const STANDARD_BICUBIC = [['s', 1], ['t', 1], ['Cs', 3], ['Os', 3], ['N', 3]] as const;

/** Flags of an edge-neighbour entry (PrimitiveRecords.joinHalf): the edge is half of the edge across
 * (JOIN_HALF), or the edge across is one of two halves of this one (JOIN_HALVES). The record index
 * below them stays under 2^26. */
export const JOIN_HALF = 1 << 30;
export const JOIN_HALVES = 1 << 29;

/** Packs records into one buffer of RECORD.floats floats each, and their auxiliary blocks into another. */
export class PrimitiveRecords {
  /** Auxiliary blocks (user corner values, Bézier control values of vertex variables). */
  private aux = new Float32Array(0);
  private auxWords = new Uint32Array(0);
  private auxLength = 0;
  private data = new Float32Array(RECORD.floats * 64);
  private words = new Uint32Array(this.data.buffer);
  count = 0;
  /** The primitive kinds of its records, bit 1 << PrimitiveKind each (the kernels leave the others'
   * surfaces out: shapeConstants in convert/convert-frame.ts). */
  kinds = 0;
  /** Some record has trim curves, or a level-of-detail range other than [0, 1) (the sampling
   * kernels leave the tests of what no record has out: sampleFeatureConstants in stages/sample.ts). */
  trims = false;
  detailLevels = false;
  /** Source primitive index of each record (for messages and statistics). */
  readonly sources: number[] = [];
  /** Per record and RecordEdge: -1, or the record edge across it that bounds the same curve (patches
   * of one mesh) as (record * 4 + edge) * 2 + 1 where the parameters along the two run opposite ways,
   * with JOIN_HALF or JOIN_HALVES for an edge joined by joinHalf. */
  private across: number[] = [];

  /** `userFloats`: 4 × the components of the frame's user primitive variables (the corner values of
   * one record that keeps every user variable bilinear). */
  constructor(readonly userFloats = 0) {
    this.growAux(userFloats * 64);
  }

  private growAux(length: number): void {
    if (length <= this.aux.length) return;
    const grown = new Float32Array(Math.max(length, this.aux.length * 2, 64));
    grown.set(this.aux.subarray(0, this.auxLength));
    this.aux = grown;
    this.auxWords = new Uint32Array(grown.buffer);
  }

  add(input: PrimitiveRecordInput, source: number): void {
    if ((this.count + 1) * RECORD.floats > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
      this.words = new Uint32Array(grown.buffer);
    }
    const rows = this.userFloats / 4;
    const bicubic = input.kind === 'bezier' ? input.bicubic : undefined;
    const userRows = bicubic?.userRows?.slice(0, rows) ?? [];
    const hasUserBezier = userRows.some((row) => row !== undefined);
    let bicubicMask = 0;
    for (const [name] of STANDARD_BICUBIC) if (bicubic?.[name]) bicubicMask |= BicubicBit[name];

    const auxBase = this.auxLength;
    const maskWords = hasUserBezier ? Math.ceil(rows / 32) : 0;
    let auxFloats = maskWords;
    for (let r = 0; r < rows; r++) auxFloats += userRows[r] ? 16 : 4;
    for (const [name, components] of STANDARD_BICUBIC) if (bicubicMask & BicubicBit[name]) auxFloats += 16 * components;
    auxFloats += (input.field?.length ?? 0) + (input.motion?.length ?? 0) + (input.trim?.length ?? 0);
    this.growAux(auxBase + auxFloats);
    let at = auxBase;
    for (let w = 0; w < maskWords; w++) {
      let mask = 0;
      for (let b = 0; b < 32 && w * 32 + b < rows; b++) if (userRows[w * 32 + b]) mask |= 1 << b;
      this.auxWords[at++] = mask >>> 0;
    }
    for (let r = 0; r < rows; r++) {
      const controls = userRows[r];
      if (controls) {
        for (let i = 0; i < 16; i++) this.aux[at++] = controls[i] ?? 0;
      } else {
        for (let i = 0; i < 4; i++) this.aux[at++] = input.user?.[r * 4 + i] ?? 0;
      }
    }
    for (const [name, components] of STANDARD_BICUBIC) {
      const controls = bicubic?.[name];
      if (!controls || !(bicubicMask & BicubicBit[name])) continue;
      for (let i = 0; i < 16 * components; i++) this.aux[at++] = controls[i] ?? 0;
    }
    const fieldWord = input.field ? 1 + at - auxBase : 0;
    if (input.field) {
      this.aux.set(input.field, at);
      at += input.field.length;
    }
    const motionWord = input.motion ? 1 + at - auxBase : 0;
    if (input.motion) {
      this.aux.set(input.motion, at);
      at += input.motion.length;
    }
    const trimWord = input.trim ? 1 + at - auxBase : 0;
    if (input.trim) {
      this.aux.set(input.trim, at);
      at += input.trim.length;
    }
    this.auxLength = at;

    const base = this.count * RECORD.floats;
    this.words[base + RECORD.kind] = PrimitiveKind[input.kind];
    this.kinds |= 1 << PrimitiveKind[input.kind];
    if (input.trim) this.trims = true;
    if (input.lod && (input.lod[0] > 0 || input.lod[1] < 1)) this.detailLevels = true;
    this.words[base + RECORD.flags] = input.flags | (input.N ? PrimitiveFlag.hasNormals : 0) | (hasUserBezier ? PrimitiveFlag.bicubicVertex : 0);
    this.words[base + RECORD.paramBase] = input.paramBase;
    this.words[base + RECORD.pipeline] = input.pipeline;
    this.data[base + RECORD.shadingRate] = input.shadingRate;
    this.data[base + RECORD.displacementBound] = input.displacementBound;
    this.words[base + RECORD.aux] = auxBase;
    this.words[base + RECORD.bicubicMask] = bicubicMask;
    this.data.set(input.objectToCamera, base + RECORD.matrix);
    this.data.set(input.geometry, base + RECORD.geometry);
    if (input.field) this.words[base + RECORD.geometry + BLOBBY_SHAPE.field] = fieldWord;
    this.data.set(input.s, base + RECORD.s);
    this.data.set(input.t, base + RECORD.t);
    this.data.set(input.Cs, base + RECORD.Cs);
    this.data.set(input.Os, base + RECORD.Os);
    if (input.N) this.data.set(input.N, base + RECORD.N);
    this.data.set(input.lod ?? [0, 1], base + RECORD.lod);
    this.words[base + RECORD.motion] = motionWord;
    this.words[base + RECORD.trim] = trimWord;
    this.words[base + RECORD.solid] = input.solid ?? 0;
    this.count++;
    this.sources.push(source);
    this.across.push(-1, -1, -1, -1);
  }

  /** Records that edge `edgeA` of record `a` and edge `edgeB` of record `b` are one curve. */
  join(a: number, edgeA: number, b: number, edgeB: number, reversed: boolean): void {
    this.across[a * 4 + edgeA] = (b * 4 + edgeB) * 2 + (reversed ? 1 : 0);
    this.across[b * 4 + edgeB] = (a * 4 + edgeA) * 2 + (reversed ? 1 : 0);
  }

  /** Records that edge `edgeFine` of record `fine` is the half of edge `edgeCoarse` of record
   * `coarse` (a T-junction of an adaptively refined subdivision mesh) that starts where its own
   * parameter is 0: at the coarse edge's parameter 0, or at 1 where `reversed`. The coarse edge keeps
   * the last half joined to it (the seam table needs only that it has halves). */
  joinHalf(coarse: number, edgeCoarse: number, fine: number, edgeFine: number, reversed: boolean): void {
    this.across[fine * 4 + edgeFine] = ((coarse * 4 + edgeCoarse) * 2 + (reversed ? 1 : 0)) | JOIN_HALF;
    this.across[coarse * 4 + edgeCoarse] = ((fine * 4 + edgeFine) * 2 + (reversed ? 1 : 0)) | JOIN_HALVES;
  }

  /** The edges across each record's edges (4 per record, see `across`). */
  edgeNeighbours(): Int32Array {
    return Int32Array.from(this.across);
  }

  /** The auxiliary blocks of the `count` records (at least 4 floats, for a non-empty binding): the
   * user variables' corner values and the Bézier control values of vertex variables on bicubic
   * records; record k's block starts at its RECORD.aux word. */
  userFloatsData(): Float32Array {
    return this.auxLength > 0 ? this.aux.subarray(0, this.auxLength) : new Float32Array(4);
  }

  /** The packed records (a view of `count` records). */
  floats(): Float32Array {
    return this.data.subarray(0, this.count * RECORD.floats);
  }
}
