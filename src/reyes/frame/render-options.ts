// What a render is asked for (RenderOptions) and what it hands back (RenderedFrame): the public
// types of renderFrame and prepareFrame.
import type { FloatImage, VariableImage } from '../../image/image.ts';
import type { GridVariableType } from '../../layout/grid-layout.ts';
import type { FrameCamera, PixelRect } from '../camera.ts';
import type { RegionKind } from '../frame-gpu.ts';
import type { ShadingKernelProvider } from '../shading/shading-kernel.ts';
import type { PipelineConfig } from '../pipeline/pipeline-config.ts';
import type { FrameStats } from '../stats.ts';

export interface RenderOptions {
  /** --res: overrides Format. */
  resolution?: [number, number];
  /** --samples: overrides PixelSamples (n × n). */
  samples?: number;
  /** Memory budget in bytes; default the RIB's `Option "limits" "gpumemory" [MiB]`, else the runtime's. */
  budgetBytes?: number;
  /** Bucket mode: fixed N × N buckets instead of the schedulers (pipeline/pipeline-config.ts bucketPipeline). */
  bucketSize?: number;
  /** How the stages bin the screen and schedule the bins (`--pipeline FILE`); default RenderAnts'
   * memory-budget bins, or buckets with `bucketSize`. */
  pipeline?: PipelineConfig;
  /** Where shading kernels come from; by default compiled RSL with the standard shaders only (no
   * shader files), the built-in surfaces as its fallback. */
  shading?: ShadingKernelProvider;
  /** Grid size limit; default the largest balanced grid binary dicing makes within the largest
   * workgroup the device allows, at most 256 (153 vertices: 16 × 8 micropolygons). */
  maxVertices?: number;
  /** Times each stage's passes on the GPU with timestamp queries (FrameStats.stageGpuMs) where the
   * adapter offers 'timestamp-query'; default true. */
  gpuTimings?: boolean;
  /** Called for every region the schedulers finish (`split` false) or cut in two (`split` true):
   * dicing regions, sampling regions, and in bucket mode each bucket before its work. Rectangles are
   * in raster pixels of the whole image (before CropWindow), x1 and y1 exclusive. The same list is in
   * RenderedFrame.regions. */
  onRegion?(kind: RegionKind, rect: PixelRect, split: boolean): void;
  /** Called as regions finish their stages with the pixels of the (cropped) image done so far, each
   * pixel weighted by its region's last finished stage (schedulers/progress.ts): rising, reaching
   * pixelsTotal when the last region is filtered. */
  onProgress?(pixelsDone: number, pixelsTotal: number): void;
  /** Called after each sampling region's pixels are filtered into `image` (the render's own, filled
   * so far; before the Imager runs): `rect` in pixels of `image`, x1 and y1 exclusive. */
  onPixels?(image: FloatImage, rect: PixelRect): void;
  /** Cancels the render at the next stage or region: the promise rejects with an AbortError
   * (cancel.ts), every buffer of the render released and the device usable. */
  signal?: AbortSignal;
  /** Report the outline of every shaded grid (RenderedFrame.gridOutlines). */
  gridOutlines?: boolean;
  /** Report which scene primitive each pixel's nearest sample belongs to (RenderedFrame.primitiveIds). */
  primitiveIds?: boolean;
  /** Output variables to render besides colour: grid variables (N, P, s, Cs, ...) and, with a type,
   * surface shader output parameters (which join the grid layout), each sampled, composited through
   * Oi and filtered like Ci (RenderedFrame.variables). */
  outputVariables?: OutputVariableRequest[];
}

/** An output variable a Display asks for: its name, and its type where the Display declares one. */
export interface OutputVariableRequest {
  name: string;
  type?: GridVariableType;
}

export type { RegionKind };

/** A region the schedulers chose (see RenderOptions.onRegion). */
export interface RegionReport {
  kind: RegionKind;
  rect: PixelRect;
  split: boolean;
}

export interface RenderedFrame {
  image: FloatImage;
  camera: FrameCamera;
  stats: FrameStats;
  warnings: string[];
  /** Every region the schedulers diced, sampled, split or (bucket mode) started, in order. */
  regions: RegionReport[];
  /** With RenderOptions.gridOutlines: 8 floats per shaded grid, the raster positions (x, y; pixels of
   * the whole image, as regions) of its corner vertices (u, v) = (0, 0), (1, 0), (1, 1), (0, 1) after
   * shading (displaced). A grid diced in several dicing regions appears once per region. */
  gridOutlines?: Float32Array;
  /** With RenderOptions.primitiveIds: per pixel of `image` (row-major), the index in Frame.primitives
   * of the primitive whose sample is nearest within the pixel, -1 where no sample covers it. */
  primitiveIds?: Int32Array;
  /** With RenderOptions.outputVariables: each variable's filtered image (its values in r, g, b;
   * coverage in alpha), for the names the grid layout has. */
  variables: Map<string, VariableImage>;
}
