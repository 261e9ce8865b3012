// The GPU form of a primitive: one fixed-size record of f32 words (integers stored as their bits)
// that the bound/split and dice kernels evaluate. Every scene primitive becomes one or more of a
// few splittable kinds: a bicubic Bézier patch, a bilinear patch, or one of the seven quadrics.
// Keep in step with reyes-surface.wgsl.

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
} as const;

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
  /** object → camera, 16 floats column-major. */
  matrix: 8,
  /** Bézier: 16 points × 3 (row v, column u); bilinear: 4 points (00, 10, 01, 11); quadrics: arguments. */
  geometry: 24,
  /** Corner values in the order (u,v) = (0,0), (1,0), (0,1), (1,1), interpolated bilinearly. */
  s: 72,
  t: 76,
  Cs: 80,
  Os: 92,
  N: 104,
  floats: 116,
} as const;

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
  /** User primitive variables' corner values (component-major: variable, component, then the four
   * corners), userFloats of them, camera space for points, vectors and normals. */
  user?: ArrayLike<number>;
}

/** Packs records into one buffer of RECORD.floats floats each. */
export class PrimitiveRecords {
  /** User corner values: `userFloats` per record, record k's at k * userFloats (a separate buffer). */
  private userData = new Float32Array(0);
  private data = new Float32Array(RECORD.floats * 64);
  private words = new Uint32Array(this.data.buffer);
  count = 0;
  /** Source primitive index of each record (for messages and statistics). */
  readonly sources: number[] = [];

  /** `userFloats`: 4 × the components of the frame's user primitive variables. */
  constructor(readonly userFloats = 0) {
    this.userData = new Float32Array(userFloats * 64);
  }

  add(input: PrimitiveRecordInput, source: number): void {
    if ((this.count + 1) * RECORD.floats > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
      this.words = new Uint32Array(grown.buffer);
    }
    const base = this.count * RECORD.floats;
    this.words[base + RECORD.kind] = PrimitiveKind[input.kind];
    this.words[base + RECORD.flags] = input.flags | (input.N ? PrimitiveFlag.hasNormals : 0);
    this.words[base + RECORD.paramBase] = input.paramBase;
    this.words[base + RECORD.pipeline] = input.pipeline;
    this.data[base + RECORD.shadingRate] = input.shadingRate;
    this.data[base + RECORD.displacementBound] = input.displacementBound;
    this.data.set(input.objectToCamera, base + RECORD.matrix);
    this.data.set(input.geometry, base + RECORD.geometry);
    this.data.set(input.s, base + RECORD.s);
    this.data.set(input.t, base + RECORD.t);
    this.data.set(input.Cs, base + RECORD.Cs);
    this.data.set(input.Os, base + RECORD.Os);
    if (input.N) this.data.set(input.N, base + RECORD.N);
    if (this.userFloats > 0) {
      if ((this.count + 1) * this.userFloats > this.userData.length) {
        const grown = new Float32Array(Math.max(this.userData.length * 2, (this.count + 1) * this.userFloats));
        grown.set(this.userData);
        this.userData = grown;
      }
      if (input.user) this.userData.set(Array.from(input.user).slice(0, this.userFloats), this.count * this.userFloats);
    }
    this.count++;
    this.sources.push(source);
  }

  /** The user corner values of the `count` records (at least 4 floats, for a non-empty binding). */
  userFloatsData(): Float32Array {
    return this.userFloats > 0 && this.count > 0 ? this.userData.subarray(0, this.count * this.userFloats) : new Float32Array(4);
  }

  /** The packed records (a view of `count` records). */
  floats(): Float32Array {
    return this.data.subarray(0, this.count * RECORD.floats);
  }
}
