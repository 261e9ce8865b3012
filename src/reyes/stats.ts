// Per-frame statistics (`--stats`): how much work each stage did, how the schedulers cut the
// frame, the peak bytes the allocator saw and the time per stage (wall time around each submitted
// stage, including the read-backs the schedulers need; and, on adapters with 'timestamp-query', the
// GPU time of each stage's compute passes from timestamp queries).

import type { StageNode } from './pipeline/stage-graph.ts';
import { emptyTextureStats, type TextureStats } from '../texture/tile-pool.ts';

/** Per stage; imager is 0 without an Imager shader. */
export interface StageTimes { convert: number; boundSplit: number; dice: number; shade: number; sample: number; composite: number; filter: number; imager: number }

export interface FrameStats {
  resolution: [number, number];
  pixelSamples: [number, number];
  mode: 'scheduler' | 'bucket';
  /** The stage graph the render ran: each stage's bins, schedule and module (pipeline/stage-graph.ts). */
  stages?: StageNode[];
  budgetBytes: number;
  /** Scene primitives and the GPU records (pieces of splittable form) they became. */
  scenePrimitives: number;
  primitiveRecords: number;
  /** Pieces ready to dice after bound/split, summed over dicing regions. */
  primitivesAfterSplit: number;
  boundSplitIterations: number;
  /** Pieces culled because they still straddled the eye plane after the eye splits, summed over
   * dicing regions. */
  eyeSplitCulls: number;
  grids: number;
  micropolygons: number;
  /** Vertices shaded (grid vertices run through shading kernels). */
  verticesShaded: number;
  /** Sample points tested: every subpixel of each micropolygon's raster bound within its sampling
   * region (the conservative count). On the transparent path these are the points written, sorted
   * and composited; on the opaque fast path the points the depth pass tests (counted on the GPU). */
  samplePoints: number;
  /** Grids diced this render (0 when a prepared frame re-shades the grids it kept). */
  gridsDiced: number;
  /** Grids a prepared frame kept from an earlier render and shaded again without dicing. */
  gridsReused: number;
  /** Grids run through their shading kernels this render (a prepared frame's targeted edit shades
   * only the grids the edits reach; every other render shades every grid). */
  gridsShaded: number;
  /** How a prepared frame (frame/prepared-frame.ts) served this render: 'prepared' (first render,
   * grids kept), 'targeted' (the edits it was given updated parameter blocks in place, without a
   * whole-frame conversion, and only the grids whose blocks changed were shaded again; the others
   * keep their shaded values), 'targeted, rediced' (colour edits updated records in place; the kept
   * regions holding them were diced and shaded again, the others untouched), 'reused' (kept grids
   * shaded again after a whole-frame conversion and diff), 'rediced' (kept ready pieces diced again:
   * colours or primitive variables changed, or a kernel displaces), 'full: <why>' (rendered from
   * scratch), or undefined outside prepared frames. */
  reuse?: string;
  /** Pixels a targeted render sampled again (the marked grids' box with the filter's reach, per kept
   * region); the others are its last picture's. Absent where every pixel was sampled. */
  resampledPixels?: number;
  /** Why a prepared frame's render given edits (PreparedRenderOptions.edits) could not apply them in
   * place and took the whole-frame path (its reuse says how that went). */
  untargeted?: string;
  dicingRegions: number;
  samplingRegions: number;
  shadingBatches: number;
  /** The texture tile pool's work: lookups, tile misses, grids shaded again, uploads. */
  textures: TextureStats;
  /** Regions the schedulers split because they did not fit the budget. */
  dicingSplits: number;
  samplingSplits: number;
  opaqueFastPath: boolean;
  /** Sampling regions of the opaque path whose subpixels' owners were found again by walking their
   * micropolygons (more ties than the tie list holds, or a candidate a concurrent store made stale;
   * stages/sample.ts). */
  opaqueWalks: number;
  /** Ties the opaque path's depth passes met (a micropolygon reaching the nearest depth a subpixel
   * had so far), summed over sampling regions. */
  opaqueTies: number;
  /** Grids the sampling passes took (the opaque path's depth pass, the transparent path's write
   * pass), summed over sampling regions: each region takes the grids whose raster bound meets it
   * (stages/sample.ts gridsMeeting), not every grid of its dicing region. */
  gridsSampled: number;
  peakBytes: number;
  /** Compute pipelines the frame created (the others came from the device's cache of earlier
   * frames): on lavapipe each is compiled at its first dispatch, so a first frame pays for them. */
  pipelinesCreated: number;
  /** Of pipelinesCreated, those a stage created at its first use rather than the frame asking for
   * them up front (frame/prewarm.ts): reseam after displacement, output variables, the imager, the
   * opaque path's walk (sampleOpaque). */
  pipelinesCreatedOnUse: number;
  /** Wall time per stage (ms) around each submitted stage, read-backs included. */
  stageMs: StageTimes;
  /** GPU time per stage (ms): the sum of its compute passes' timestamp-query durations (convert is
   * CPU work and stays 0). Absent where the adapter has no 'timestamp-query' or timing is off. */
  stageGpuMs?: StageTimes;
  /** GPU time per kernel (ms by pipeline label, "file.wgsl:entryPoint"), summed over its passes, where
   * stageGpuMs is timed: which pass of a stage costs. */
  passGpuMs?: Record<string, number>;
  totalMs: number;
  /** The frame's "auto" shadow maps (src/reyes/shadows): one depth pass per light, before the frame. */
  shadowPasses?: ShadowPassStats[];
  warnings: string[];
}

/** One light's "auto" shadow map in a frame. */
export interface ShadowPassStats {
  /** The light's handle. */
  light: string;
  /** The light's parameter set to "auto" that names the map. */
  parameter: string;
  /** The map's width and height (Attribute "light" "shadowmapsize"). */
  size: number;
  /** Wall time of its depth pass; 0 when the map made for an earlier frame still held. */
  ms: number;
  /** True when an earlier frame's map of the same light, view and geometry was used. */
  reused: boolean;
}

export function emptyStats(): FrameStats {
  return {
    resolution: [0, 0],
    pixelSamples: [0, 0],
    mode: 'scheduler',
    budgetBytes: 0,
    scenePrimitives: 0,
    primitiveRecords: 0,
    primitivesAfterSplit: 0,
    boundSplitIterations: 0,
    eyeSplitCulls: 0,
    grids: 0,
    micropolygons: 0,
    verticesShaded: 0,
    samplePoints: 0,
    gridsDiced: 0,
    gridsReused: 0,
    gridsShaded: 0,
    dicingRegions: 0,
    samplingRegions: 0,
    shadingBatches: 0,
    textures: emptyTextureStats(),
    dicingSplits: 0,
    samplingSplits: 0,
    opaqueFastPath: false,
    opaqueWalks: 0,
    opaqueTies: 0,
    gridsSampled: 0,
    peakBytes: 0,
    pipelinesCreated: 0,
    pipelinesCreatedOnUse: 0,
    stageMs: { convert: 0, boundSplit: 0, dice: 0, shade: 0, sample: 0, composite: 0, filter: 0, imager: 0 },
    totalMs: 0,
    warnings: [],
  };
}
