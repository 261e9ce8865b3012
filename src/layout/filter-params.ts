// The pixel filter's parameters (image-filter.wgsl FilterParams, packed by stages/filter.ts) and the
// block of pixels each invocation filters, which the host's dispatch counts in.
import type { ConstantGroup } from './wgsl-constants.ts';
import { uniformStruct } from './uniform-struct.ts';

/** Pixels along each side of the square block one invocation filters, and invocations per workgroup. */
export const FILTER_BLOCK = { pixels: 4, lanes: 64 } as const;

/** WGSL: FILTER_BLOCK_PIXELS, FILTER_BLOCK_LANES. */
export const FILTER_BLOCK_CONSTANTS: readonly ConstantGroup[] = [{ prefix: 'FILTER_BLOCK_', values: FILTER_BLOCK }];

export const FILTER_PARAMS = uniformStruct('FilterParams', [
  { name: 'pixelX', type: 'i32', comment: 'output rectangle, global pixels' },
  { name: 'pixelY', type: 'i32' },
  { name: 'width', type: 'u32' },
  { name: 'height', type: 'u32' },
  { name: 'originX', type: 'i32', comment: 'subpixel buffer, global subpixels' },
  { name: 'originY', type: 'i32' },
  { name: 'bufferWidth', type: 'u32' },
  { name: 'bufferHeight', type: 'u32' },
  { name: 'nx', type: 'u32', comment: 'PixelSamples' },
  { name: 'ny', type: 'u32' },
  { name: 'xWidth', type: 'f32', comment: 'PixelFilter widths, in pixels' },
  { name: 'yWidth', type: 'f32' },
]);
