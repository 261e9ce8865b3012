// What the main thread and a device thread say to each other (structured clone; pixel buffers are
// transferred, not copied). One definition for both sides.
import type { FloatImage, VariableImage } from '../../image/image.ts';
import type { Frame } from '../../rib/scene.ts';
import type { PixelRect } from '../camera.ts';
import type { RegionReport, RenderOptions } from '../frame/render-options.ts';
import type { FrameStats } from '../stats.ts';

/** Where a device thread finds shaders and textures (Node): as `reyes render` sets them up. */
export interface DeviceShading {
  /** The scene's folder: relative shader and texture names start there. */
  sceneDir: string;
  /** Where made textures were written (the output folder). */
  outputDir?: string;
  /** --shader-path folders. */
  shaderPath?: string[];
}

/** The render options a device thread can be sent: the plain data ones (no callbacks, providers or signals). */
export type RegionRenderOptions = Pick<RenderOptions, 'resolution' | 'samples' | 'budgetBytes' | 'bucketSize' | 'pipeline' | 'maxVertices' | 'gpuTimings' | 'outputVariables'>;

/** The data options of `options`, as a device thread takes them. */
export function regionRenderOptions(options: RenderOptions): RegionRenderOptions {
  const { resolution, samples, budgetBytes, bucketSize, pipeline, maxVertices, gpuTimings, outputVariables } = options;
  const picked: RegionRenderOptions = { resolution, samples, budgetBytes, bucketSize, pipeline, maxVertices, gpuTimings, outputVariables };
  for (const key of Object.keys(picked) as (keyof RegionRenderOptions)[]) if (picked[key] === undefined) delete picked[key];
  return picked;
}

export type ToDevice =
  | { type: 'frame'; frame: Frame; options: RegionRenderOptions; shading?: DeviceShading }
  | { type: 'region'; region: PixelRect; cropWindow: [number, number, number, number] }
  | { type: 'close' };

export interface RegionPixels {
  image: FloatImage;
  variables: Map<string, VariableImage>;
  warnings: string[];
  stats: FrameStats;
  regions: RegionReport[];
}

export type FromDevice =
  | { type: 'ready'; adapter: string }
  | { type: 'pixels'; pixels: RegionPixels }
  | { type: 'error'; message: string };
