// The farm's jobs, as they travel through the queue: one definition of their data, names and ids.
// A frame renders whole ('frame') or as crop tiles ('tile') whose parent ('merge') runs when the last
// tile has finished and writes the frame's Displays (a BullMQ flow). Paths are absolute: workers read
// the scene and write the pictures in a folder every machine mounts at the same place.
import { createHash } from 'node:crypto';
import type { PixelRect } from '../reyes/camera.ts';

export const JOB_NAMES = { frame: 'frame', tile: 'tile', merge: 'merge' } as const;

/** How every job of a submission renders (what `reyes render` takes as options). */
export interface RenderSettings {
  /** The RIB files, absolute, read in order as one stream. */
  scene: string[];
  /** Folder the Displays' names are placed in, absolute. */
  outputDir: string;
  /** --shader-path folders, absolute. */
  shaderPath: string[];
  /** --res, overriding Format. */
  resolution?: [number, number];
  /** --samples, overriding PixelSamples. */
  samples?: number;
}

export interface FrameJobData {
  settings: RenderSettings;
  /** Index in the scene's frames (0-based). */
  frameIndex: number;
  /** The FrameBegin number (index + 1 where the world has none), for messages and status. */
  frameNumber: number;
}

/** One crop tile of a frame. */
export interface Tile {
  index: number;
  /** The CropWindow the tile renders: fractions x0 x1 y0 y1. */
  crop: [number, number, number, number];
  /** Its pixels inside the frame's picture (after the scene's own CropWindow), x1 and y1 exclusive. */
  rect: PixelRect;
}

export interface TileJobData extends FrameJobData {
  tile: Tile;
  /** Where the tile's pixels wait for the merge (tile-file.ts). */
  tileFile: string;
}

export interface MergeJobData extends FrameJobData {
  tiles: { tile: Tile; tileFile: string }[];
}

/** What a finished job hands back (kept in Redis, shown by `reyes farm status`). */
export interface JobResult {
  /** Files written ('wrote …' lines). */
  files: string[];
  warnings: string[];
  /** Time spent rendering or merging, ms. */
  workMs: number;
}

/** Names a submission: the same scene text with the same settings and tiling gives the same key, so a
 * resubmission finds its jobs (and skips the frames already done), while an edited scene renders anew. */
export function submissionKey(settings: RenderSettings, sceneTexts: readonly Uint8Array[], tiles: string | undefined): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ settings, tiles: tiles ?? null }));
  for (const text of sceneTexts) hash.update(text);
  return hash.digest('hex').slice(0, 16);
}

/** Job ids (BullMQ refuses ':' in custom ids). */
export function frameJobId(key: string, frameIndex: number): string {
  return `${key}-f${frameIndex}`;
}

export function tileJobId(key: string, frameIndex: number, tile: number): string {
  return `${frameJobId(key, frameIndex)}-t${tile}`;
}
