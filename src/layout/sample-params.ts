// The sampling kernels' parameters (reyes-sample.wgsl SampleParams, packed by stages/sample.ts), and
// the number of ClippingPlane planes a kernel takes (also bound/split's).
import type { ConstantGroup } from './wgsl-constants.ts';
import { uniformStruct } from './uniform-struct.ts';

/** ClippingPlane planes the kernels take; more are warned about and ignored. */
export const MAX_CLIP_PLANES = 16;

/** WGSL: MAX_CLIP_PLANES. */
export const CLIP_PLANE_CONSTANTS: readonly ConstantGroup[] = [{ prefix: '', values: { MAX_CLIP_PLANES } }];

/** Invocations per workgroup of the sampling kernels over a grid's micropolygons (one workgroup a
 * grid, each invocation taking every SAMPLE_LANES-th micropolygon; the count and write passes keep a
 * sample count and offset per (grid, invocation)), and of opaqueColour (a pixel or a tie entry each). */
export const SAMPLE_LANES = 64;
export const COLOUR_LANES = 64;

/** WGSL: SAMPLE_LANES, COLOUR_LANES (reyes-sample.wgsl). */
export const SAMPLE_KERNEL_CONSTANTS: readonly ConstantGroup[] = [{ prefix: '', values: { SAMPLE_LANES, COLOUR_LANES } }];

export const SAMPLE_PARAMS = uniformStruct('SampleParams', [
  { name: 'gridCount', type: 'u32' },
  { name: 'nx', type: 'u32', comment: 'PixelSamples' },
  { name: 'ny', type: 'u32' },
  { name: 'originX', type: 'i32', comment: 'sample region, in global subpixels' },
  { name: 'originY', type: 'i32' },
  { name: 'width', type: 'u32' },
  { name: 'height', type: 'u32' },
  { name: 'near', type: 'f32' },
  { name: 'far', type: 'f32' },
  { name: 'perspective', type: 'u32' },
  { name: 'clipCount', type: 'u32', comment: 'ClippingPlane planes in clipPlanes' },
  { name: 'cameraToRaster', type: 'mat4x4f' },
  { name: 'clipPlanes', type: { vec4fArray: MAX_CLIP_PLANES }, comment: '(n, d): camera-space points with n·P + d > 0 are clipped' },
  { name: 'lensRadius', type: 'f32', comment: 'DepthOfField (camera units; 0 for a pinhole)' },
  { name: 'focalDistance', type: 'f32' },
  { name: 'mode', type: 'u32', comment: "opaqueResolve's walk (RESOLVE_OWNERS 0, RESOLVE_COLOURS 1, RESOLVE_ALL_OWNERS 2) or opaqueColour's pass (COLOUR_PIXELS 0, CHECK_TIES 1)" },
]);
