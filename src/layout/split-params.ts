// The bound/split kernel's parameters (reyes-bound-split.wgsl SplitParams, packed by
// stages/bound-split.ts once per window of the queue), and the counters it adds to.
import { MAX_CLIP_PLANES } from './sample-params.ts';
import { uniformStruct } from './uniform-struct.ts';
import type { ConstantGroup } from './wgsl-constants.ts';

export const SPLIT_PARAMS = uniformStruct('SplitParams', [
  { name: 'count', type: 'u32' },
  { name: 'maxVertices', type: 'u32' },
  { name: 'readyBase', type: 'u32' },
  { name: 'maxDepth', type: 'u32' },
  { name: 'region', type: 'vec4f', comment: 'raster x0, y0, x1, y1 (with the filter apron)' },
  { name: 'near', type: 'f32' },
  { name: 'far', type: 'f32' },
  { name: 'eyeSplit', type: 'f32', comment: 'pieces reaching nearer than this (perspective) are split' },
  { name: 'perspective', type: 'u32' },
  { name: 'cameraToRaster', type: 'mat4x4f' },
  { name: 'clipCount', type: 'u32' },
  { name: 'eyeSplits', type: 'u32', comment: 'Option "limits" "eyesplits"' },
  { name: 'lensRadius', type: 'f32', comment: 'DepthOfField (camera units; 0 for a pinhole)' },
  { name: 'focalDistance', type: 'f32' },
  { name: 'clipPlanes', type: { vec4fArray: MAX_CLIP_PLANES }, comment: '(n, d): camera-space points with n·P + d > 0 are clipped' },
  { name: 'cuts', type: 'u32', comment: "the region's edges inside the crop window (bits x0, y0, x1, y1: REGION_CUT_*)" },
]);

/** Word offsets of the counters bound/split adds to over a region (atomics, read back per window). */
export const SPLIT_COUNTERS = {
  /** Pieces culled at the eye-split limit. */
  eyeSplitCulls: 0,
  /** Vertices of the ready pieces' grids, and how many of those grids fill over half a record (no
   * two of them share one): what the dicing scheduler weighs their records by. */
  readyVertices: 1,
  readyLargeGrids: 2,
  words: 3,
} as const;

/** WGSL: SPLIT_COUNTER_EYE_SPLIT_CULLS, ..., SPLIT_COUNTER_WORDS. */
export const SPLIT_COUNTER_CONSTANTS: readonly ConstantGroup[] = [{ prefix: 'SPLIT_COUNTER_', values: SPLIT_COUNTERS }];

/** Bits of SplitParams.cuts: the region's edges that cut it from a neighbouring region (inside the
 * crop window), past which a piece is diced again by the neighbour. */
export const REGION_CUT = { x0: 1, y0: 2, x1: 4, y1: 8 } as const;

/** WGSL: REGION_CUT_X0, ..., REGION_CUT_Y1. */
export const REGION_CUT_CONSTANTS: readonly ConstantGroup[] = [{ prefix: 'REGION_CUT_', values: REGION_CUT }];
