// The one in-memory form of a texture file (src/texture/texture-file.ts reads and writes it): a
// mip pyramid of float texels with what the Make* request recorded. Level 0 is the picture; each
// further level halves both sizes (rounding up) down to 1×1. Texels are interleaved by channel,
// rows top to bottom: t = 0 is the top row, as RenderMan's texture coordinates run. A cube-face
// map's levels are 3 × 2 grids of its six faces (CUBE_FACES), each face its own pyramid.

export type TextureKind = 'texture' | 'shadow' | 'latlong' | 'cube';
export type WrapMode = 'periodic' | 'clamp' | 'black';

export interface MipLevel {
  width: number;
  height: number;
  /** width × height × channels values. */
  data: Float32Array;
}

export interface TextureMap {
  kind: TextureKind;
  channels: number;
  levels: MipLevel[];
  swrap: WrapMode;
  twrap: WrapMode;
  /** The filter and widths the pyramid was made with (MakeTexture's arguments). */
  filter: string;
  swidth: number;
  twidth: number;
  /** Shadow maps: the light camera's world → screen (NDC-like, x and y in [-1, 1]) and world → camera
   * matrices, row-major with points as row vectors (RenderMan's convention). */
  worldToScreen?: number[];
  worldToCamera?: number[];
  /** Cube-face maps: the field of view of the face pictures, degrees (90: the faces meet at their
   * edges; wider gives the filters room past the seams). */
  fov?: number;
}

export const WRAP_MODES: readonly WrapMode[] = ['periodic', 'clamp', 'black'];

/** The faces of a cube-face map in MakeCubeFaceEnvironment's order; face f of a level (each n × n)
 * lies in column f >> 1 (the axis) and row f & 1 (0: positive, 1: negative) of a 3 × 2 grid, as
 * Aqsis's teqser lays them out:  px py pz / nx ny nz. */
export const CUBE_FACES = ['px', 'nx', 'py', 'ny', 'pz', 'nz'] as const;

/** The sizes of the levels below a width × height picture. */
export function mipSizes(width: number, height: number): [number, number][] {
  const sizes: [number, number][] = [[width, height]];
  while (width > 1 || height > 1) {
    width = Math.max(1, Math.ceil(width / 2));
    height = Math.max(1, Math.ceil(height / 2));
    sizes.push([width, height]);
  }
  return sizes;
}
