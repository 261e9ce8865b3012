// Types of the two untyped packages the Blobby polygoniser uses (blobby.ts), as far as it uses them.
declare module 'ndarray' {
  export interface NdArray {
    data: ArrayLike<number>;
    shape: number[];
    stride: number[];
    offset: number;
  }
  export default function ndarray(data: ArrayLike<number>, shape?: number[]): NdArray;
}

declare module 'surface-nets' {
  import type { NdArray } from 'ndarray';
  /** The level set of `array` at `level`: vertices in index coordinates and, in 3-D, triangles. */
  export default function surfaceNets(array: NdArray, level?: number): { positions: number[][]; cells: number[][] };
}
