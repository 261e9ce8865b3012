// What every stage of a frame shares on the GPU: the runtime, the camera, the grid layout, the
// primitive records, the shading pipelines, the sampling settings and the statistics.
import type { CommandRecorder, GpuRuntime } from '../gpu/runtime.ts';
import type { GridLayout } from '../layout/grid-layout.ts';
import type { FrameCamera } from './camera.ts';
import type { FrameMotion, ShadingPipeline } from './convert/convert-frame.ts';
import type { ProgressStage } from './schedulers/progress.ts';
import type { KernelSpaces } from './shading/spaces.ts';
import type { FrameStats } from './stats.ts';
import type { TilePool } from '../texture/tile-pool.ts';

export interface FrameGpu {
  gpu: GpuRuntime;
  camera: FrameCamera;
  /** What the shading kernels' FrameUniforms hold. */
  spaces: KernelSpaces;
  layout: GridLayout;
  /** The primitive records (primitive-record.ts). In a frame whose records pass one storage binding,
   * each dicing region's own records instead (frame/record-batches.ts), `records` their frame indices. */
  prims: GPUBuffer;
  /** User primitive variables' corner values, PrimitiveRecords.userFloats per record. */
  userCorners: GPUBuffer;
  primCount: number;
  /** Each bound record's index among the frame's records, where they are not the same. */
  records?: Uint32Array;
  /** Per record and edge, the record edge across it (PrimitiveRecords.edgeNeighbours). */
  edgeNeighbours: Int32Array;
  /** Each shading pipeline's parameter blocks, and the loop flags of a kernel whose loops report the
   * cap (shading/loop-cap.ts), fresh each render. */
  pipelines: (ShadingPipeline & { paramBuffer: GPUBuffer; loopFlags?: GPUBuffer })[];
  /** The texture tile pool (src/texture/tile-pool.ts): bindings 5 and 6 of kernels that look maps up. */
  textures: TilePool;
  /** PixelSamples. */
  nx: number;
  ny: number;
  filter: { code: number; xWidth: number; yWidth: number };
  /** Pixels of filter support beyond a region's edge that its samples must cover. */
  apron: number;
  /** True when every sample is opaque (mattes always are): the atomic-depth fast path applies. */
  opaque: boolean;
  /** The CSG table compositing evaluates (src/layout/solid-table.ts). */
  solids: Uint32Array;
  /** Which kinds of motion the frame holds (the kernels' specialisation: motionConstants). */
  motion: FrameMotion;
  /** The primitive kinds the frame's records hold (the kernels' specialisation: shapeConstants). */
  shapeKinds: number;
  /** Pipelines the frame created when it asked for its stages' pipelines up front (frame/prewarm.ts). */
  pipelinesPrepared: number;
  /** What the frame's records use beyond plain surfaces (PrimitiveRecords.trims, .detailLevels). */
  recordUses: { trims: boolean; detailLevels: boolean };
  stats: FrameStats;
  /** Time passes with timestamp queries (FrameStats.stageGpuMs); false when the adapter cannot. */
  profile: boolean;
  /** One u32 the opaque fast path adds the sample points it tests to (read once per render). */
  sampleCounter: GPUBuffer;
  /** What the caller asked to see of the schedulers' work (render-frame.ts). */
  insight: FrameInsight;
  /** Cancels the render: the schedulers stop at the next region or stage (cancel.ts). */
  signal?: AbortSignal;
}

export type RegionKind = 'dicing' | 'sampling' | 'bucket';

/** Reports of the schedulers' work: regions as they are diced, sampled or split, finished pixels,
 * and, when asked, grid outlines and the primitive record under each pixel. */
export interface FrameInsight {
  /** A region the schedulers finished (`split` false) or cut in two (`split` true). */
  region(kind: RegionKind, rect: Region, split: boolean): void;
  /** Progress: `rect` finished `stage` (schedulers/progress.ts). */
  stageDone(rect: Region, stage: ProgressStage): void;
  /** Progress: `rect`'s stages are thrown away and will run again. */
  redo(rect: Region): void;
  /** Collect each shaded grid's corners in raster space here (8 floats per grid), when defined. */
  outlines?: number[];
  /** Collect the primitive record of each pixel's nearest sample here (the image's size, row-major;
   * 0xffffffff where none), when defined. */
  ids?: Uint32Array;
}

export type Stage = keyof FrameStats['stageMs'];

/** A command recorder whose passes are timed on the GPU when the frame profiles. */
export function stageRecorder(frame: FrameGpu, label: string): CommandRecorder {
  return frame.gpu.recorder(label, { profile: frame.profile });
}

/** Adds a submitted recorder's GPU pass times to the stage (or, per pass label, the stage `stage` picks). */
export function addGpuTimes(frame: FrameGpu, recorder: CommandRecorder, stage: Stage | ((passLabel: string) => Stage)): void {
  const { stageGpuMs: times, passGpuMs: passes } = frame.stats;
  if (!recorder.timings || !times) return;
  for (const t of recorder.timings) {
    times[typeof stage === 'string' ? stage : stage(t.label)] += t.milliseconds;
    if (passes) passes[t.label] = (passes[t.label] ?? 0) + t.milliseconds;
  }
}

export interface ReadyPieces {
  buffer: GPUBuffer;
  count: number;
}

/** A rectangle in global pixels (x1, y1 exclusive). */
export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function regionArea(r: Region): number {
  return Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0);
}

/** Wall time of `work` added to the stage's total in the statistics. */
export async function timed<T>(frame: FrameGpu, stage: keyof FrameStats['stageMs'], work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    frame.stats.stageMs[stage] += performance.now() - start;
  }
}
