// The parameter block of a shading pipeline: where each shader-instance parameter, space matrix,
// attribute() query and match() table sits (byte offsets), so the page and the renderer fill blocks
// (packParameters, src/rsl/params.ts) without recompiling. The compiler (src/rsl/lower.ts) lays it out.
import type { TypeName } from '../rsl/types.ts';

export interface ParamEntry {
  /** The shader instance: 'displacement', 'surface', 'atmosphere', 'imager' or 'light0', 'light1', ... */
  instance: string;
  shader: string;
  name: string;
  type: TypeName;
  arrayLength?: number;
  /** Default components, or the string for string parameters (stored as its token). */
  default: number[] | string;
  /** Byte offset within the pipeline's parameter block. */
  offset: number;
  /** The space a point/vector/normal default is given in; the kernel transforms it on load. */
  space?: string;
  /** True when a user primitive variable of the same name overrides it per vertex. */
  fromPrimitiveVariable: boolean;
  /** A string parameter transform() and friends take as a space name (looked up at run time). */
  namesSpace?: true;
  /** A string parameter environment() takes as its map name: "raytrace" is the traced environment. */
  namesEnvironment?: true;
}

/**
 * A space matrix in the parameter block: 32 floats at `offset` bytes, the space → current (camera)
 * matrix then its inverse, both column-major. "shader" space is per shader instance
 * (`__shaderToCurrent` of 'surface', 'light0', ...); "object" space is per primitive, one for the
 * whole pipeline (`__objectToCurrent`, instance 'object'); a named coordinate system of the scene
 * (CoordinateSystem) is instance 'coordsys' with its name (LowerOptions.coordinateSystems). Only
 * spaces the pipeline uses are there.
 */
export interface SpaceMatrixEntry {
  instance: string;
  /** '__shaderToCurrent', '__objectToCurrent', or the coordinate system's name. */
  name: string;
  space: 'shader' | 'object' | 'named';
  offset: number;
}

/**
 * match(pattern, subject) with a constant pattern and a subject known only at run time: the result
 * for every token the kernel can see (the pipeline's strings, then the fresh tokens packParameters
 * gives the scene's other strings), filled by packParameters. Three header words at `offset`: the
 * table's word, its length, and a 0 read for a token past the end; the table itself at `tableOffset`.
 */
export interface MatchTableEntry {
  pattern: string;
  offset: number;
  tableOffset: number;
  tableLength: number;
}

export interface ParamLayout {
  entries: ParamEntry[];
  /** Per-instance "shader" and per-primitive "object" space matrices (packParameters fills them). */
  spaceMatrices: SpaceMatrixEntry[];
  /** Bytes of one parameter block (16-byte aligned). */
  blockBytes: number;
  /** attribute() queries the kernel reads from the block (packParameters fills them); absent when none. */
  attributes?: AttributeEntry[];
  /** match() tables for subjects known only at run time (packParameters fills them); absent when none. */
  matchTables?: MatchTableEntry[];
  /** The texture maps the kernel looks up (packParameters writes -1, the renderer the slots); absent when none. */
  textures?: TextureSlotEntry[];
}

/**
 * A texture map a shader names, by a constant name or by a string parameter's value: the word at
 * `offset` holds the map's slot in the frame's texture atlas (src/texture/texture-atlas.ts), -1
 * when the name finds no map.
 */
export interface TextureSlotEntry {
  /** The constant name, or the parameter's instance and name. */
  name?: string;
  instance?: string;
  param?: string;
  offset: number;
}

/**
 * An attribute() query in the parameter block: the word at `offset` is 1 when the primitive has the
 * attribute with a value of this shape (packParameters writes it from "attribute:NAME"), then the value.
 */
export interface AttributeEntry {
  name: string;
  type: TypeName;
  arrayLength?: number;
  /** Byte offset of the "has" word; the value follows it. */
  offset: number;
}
