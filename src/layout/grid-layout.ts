// The one definition of how a diced grid sits in GPU memory, shared by the dicer (which writes it),
// the shading kernels (which read and write it) and the sampler (which reads it).
//
// Bindings of a shading kernel (group 0):
//   0  grids:    array<f32>, read_write   all grids' vertex data, SoA within each grid record
//   1  gridInfo: array<u32>, read         GRID_INFO.words words per grid: nu, nv, record base (in
//                                          floats, into `grids`), parameter block base (in floats,
//                                          into `params`)
//   2  params:   array<f32>, read         shader-instance and light parameters (see ParamLayout)
//   3  frame:    uniform FrameUniforms    grid count, time, the loop cap and the space matrices
//  12  rsl_loop_flags: array<u32>, rw    one flag per RSL loop position, set when the loop cap stops
//                                          that loop (kernels with such loops: src/reyes/shading/loop-cap.ts)
//
// One workgroup shades one grid; vertex (i, j) of an nu × nv grid is local invocation j*nu + i, and
// nu*nv is at most `maxVertices` (the workgroup size). Within a grid record, variable `name` with
// `components` floats occupies floats [offset, offset + components*maxVertices): component c of
// vertex k is at record base + offset + c*maxVertices + k. Grids of few vertices share a record
// (packGridRecords): a grid's base is then its record's plus its first vertex slot.
import { mat4 } from 'gl-matrix';
import type { ConstantGroup } from './wgsl-constants.ts';

export type GridVariableType = 'float' | 'point' | 'vector' | 'normal' | 'color';

export interface GridVariable {
  name: string;
  type: GridVariableType;
  components: 1 | 3;
  /** Float offset of the variable's first component within a grid record. */
  offset: number;
}

export interface GridLayout {
  maxVertices: number;
  variables: GridVariable[];
  /** Floats per grid record. */
  recordFloats: number;
  /** Bytes of grid storage per vertex (the dicer's and shading scheduler's estimate). */
  bytesPerVertex: number;
}

/** Where grids sit in the grids buffer: each one's base (a float offset) and the records they fill. */
export interface GridRecords {
  bases: Uint32Array;
  records: number;
}

/**
 * The grids of `vertices[g]` vertices each, in order, packed into records: a grid takes the next
 * free vertex slots of the current record (its rows then stay within the record's rows of every
 * variable) or, where too few are left, starts a new one. A point's disk (18 vertices) or a short
 * piece of hair takes a share of a record, not all of it. Bases ascend with the grids.
 */
export function packGridRecords(layout: GridLayout, vertices: ArrayLike<number>): GridRecords {
  const bases = new Uint32Array(vertices.length);
  let records = 0;
  let slot = layout.maxVertices;
  for (let g = 0; g < vertices.length; g++) {
    const n = vertices[g]!;
    if (slot + n > layout.maxVertices) {
      records++;
      slot = 0;
    }
    bases[g] = (records - 1) * layout.recordFloats + slot;
    slot += n;
  }
  return { bases, records };
}

/** Word offsets of a grid's entry in gridInfo. */
export const GRID_INFO = {
  nu: 0,
  nv: 1,
  /** Float offset of the grid's record in `grids`. */
  recordBase: 2,
  /** Float offset of its parameter block in `params`. */
  paramBase: 3,
  words: 4,
} as const;

/** WGSL: GRID_INFO_NU, ..., GRID_INFO_WORDS. */
export const GRID_INFO_CONSTANTS: readonly ConstantGroup[] = [{ prefix: 'GRID_INFO_', values: GRID_INFO }];

/** Standard variables, in record order: what the dicer fills in and the shaders may read. */
export const STANDARD_GRID_VARIABLES: readonly { name: string; type: GridVariableType }[] = [
  { name: 'P', type: 'point' }, { name: 'N', type: 'normal' }, { name: 'Ng', type: 'normal' }, { name: 'I', type: 'vector' },
  { name: 'dPdu', type: 'vector' }, { name: 'dPdv', type: 'vector' }, { name: 'u', type: 'float' }, { name: 'v', type: 'float' },
  { name: 'du', type: 'float' }, { name: 'dv', type: 'float' }, { name: 's', type: 'float' }, { name: 't', type: 'float' },
  { name: 'Cs', type: 'color' }, { name: 'Os', type: 'color' },
];

/** Outputs come last, so a dicer may leave them unwritten. */
export const OUTPUT_GRID_VARIABLES: readonly { name: string; type: GridVariableType }[] = [
  { name: 'Ci', type: 'color' }, { name: 'Oi', type: 'color' },
];

/**
 * An imager's grid is a tile of pixels of the filtered image (vertex (i, j) the pixel i columns right
 * of and j rows below the tile's first): its raster position P (the pixel centre, z = 0), the
 * premultiplied colour Ci, the opacity Oi and the coverage alpha (RI 3.2 section 12.5).
 */
export const IMAGER_GRID_VARIABLES: readonly { name: string; type: GridVariableType }[] = [
  { name: 'P', type: 'point' }, { name: 'Ci', type: 'color' }, { name: 'Oi', type: 'color' }, { name: 'alpha', type: 'float' },
];

/** Names of the coordinate spaces in FrameUniforms, in matrix order. */
export const SPACES = ['camera', 'world', 'object', 'shader', 'screen', 'raster', 'NDC'] as const;
export type SpaceName = (typeof SPACES)[number];

/**
 * FrameUniforms in WGSL: toCurrent[k] maps space k to camera ("current") space and fromCurrent[k]
 * the inverse, both as WGSL column-major mat4x4f acting on column vectors. loopCap: the most
 * iterations one run of an RSL loop makes (Option "limits" "shaderloopiterations"), 0 for the cap the
 * kernel was compiled with (src/rsl/wgsl.ts rsl_loop_cap).
 */
export const FRAME_UNIFORMS_WGSL = `struct FrameUniforms {
  gridCount: u32,
  time: f32,
  loopCap: u32,
  pad1: u32,
  toCurrent: array<mat4x4f, ${SPACES.length}>,
  fromCurrent: array<mat4x4f, ${SPACES.length}>,
}`;

/** Byte size of FrameUniforms; toCurrent starts at byte 16 and fromCurrent follows it. */
export const FRAME_UNIFORMS_BYTES = 16 + 2 * SPACES.length * 64;

export function spaceIndex(name: string): number | undefined {
  const normalized = name === 'current' ? 'camera' : name;
  const k = (SPACES as readonly string[]).indexOf(normalized);
  return k >= 0 ? k : undefined;
}

/** The grid layout for `maxVertices` vertices per grid and the pipeline's user primitive variables. */
export function gridLayout(maxVertices: number, primitiveVariables: readonly { name: string; type: GridVariableType }[] = []): GridLayout {
  return layoutOf(maxVertices, [...STANDARD_GRID_VARIABLES, ...primitiveVariables, ...OUTPUT_GRID_VARIABLES]);
}

function layoutOf(maxVertices: number, list: readonly { name: string; type: GridVariableType }[]): GridLayout {
  const variables: GridVariable[] = [];
  let offset = 0;
  for (const v of list) {
    if (variables.some((w) => w.name === v.name)) throw new Error(`grid variable '${v.name}' is declared twice`);
    const components = v.type === 'float' ? 1 : 3;
    variables.push({ name: v.name, type: v.type, components, offset });
    offset += components * maxVertices;
  }
  return { maxVertices, variables, recordFloats: offset, bytesPerVertex: (offset / maxVertices) * 4 };
}

/** The layout's user primitive variables (between the standard variables and the outputs), in order. */
export function layoutUserVariables(layout: GridLayout): { name: string; type: GridVariableType }[] {
  const fixed = new Set([...STANDARD_GRID_VARIABLES, ...OUTPUT_GRID_VARIABLES].map((v) => v.name));
  return layout.variables.filter((v) => !fixed.has(v.name)).map((v) => ({ name: v.name, type: v.type }));
}

/** Offsets of grid variables as pipeline override constants of a stage kernel: MAXV, OFF_P, OFF_N, OFF_DPDU, ... */
export function gridOffsetConstants(layout: GridLayout, names: readonly string[]): Record<string, number> {
  const constants: Record<string, number> = { MAXV: layout.maxVertices };
  for (const name of names) {
    const variable = layout.variables.find((v) => v.name === name);
    if (!variable) throw new Error(`grid layout has no variable ${name}`);
    constants[`OFF_${name.toUpperCase()}`] = variable.offset;
  }
  return constants;
}

/** The grid layout of an imager kernel: tiles of at most `maxVertices` pixels. */
export function imagerGridLayout(maxVertices: number): GridLayout {
  return layoutOf(maxVertices, IMAGER_GRID_VARIABLES);
}

/** Frame uniform words for the given matrices (each 16 floats, column-major, space → camera); `loopCap`
 * 0: the cap each kernel was compiled with. */
export function frameUniformWords(gridCount: number, toCurrent: Partial<Record<SpaceName, Float32Array | number[]>> = {}, time = 0, loopCap = 0): Uint32Array {
  const words = new Uint32Array(FRAME_UNIFORMS_BYTES / 4);
  const floats = new Float32Array(words.buffer);
  words[0] = gridCount;
  floats[1] = time;
  words[2] = loopCap;
  SPACES.forEach((space, k) => {
    const m = toCurrent[space] ?? identity();
    floats.set(m, 4 + k * 16);
    floats.set(invert4(Array.from(m)), 4 + (SPACES.length + k) * 16);
  });
  return words;
}

function identity(): number[] {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

/** Inverse of a 4×4 matrix (column-major, gl-matrix); the identity when singular. */
export function invert4(m: ArrayLike<number>): number[] {
  const out = mat4.invert(new Array<number>(16).fill(0), Array.from(m));
  return out ? Array.from(out) : identity();
}
