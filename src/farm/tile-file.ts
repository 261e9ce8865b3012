// A rendered tile waiting in the shared folder for its frame's merge: its float pixels (colour,
// alpha, depth, output variables) and the camera the Displays record, stored with Node's structured
// serializer (node:v8), which keeps typed arrays as they are. Written to a temporary name and renamed,
// so a merge never reads half a file.
import { readFile, rename, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { FloatImage, VariableImage } from '../image/image.ts';
import type { RenderedFrame } from '../reyes/render-frame.ts';

export interface TilePixels {
  image: FloatImage;
  variables: Map<string, VariableImage>;
  camera: Pick<RenderedFrame['camera'], 'worldToCamera' | 'cameraToNdc'>;
}

/** Where a submission's tiles wait: a hidden folder in its output folder, one file per tile. */
export function tileFilePath(outputDir: string, jobId: string): string {
  return path.join(outputDir, '.reyes-farm-tiles', `${jobId}.tile`);
}

export async function writeTileFile(file: string, rendered: TilePixels): Promise<void> {
  const { image, variables, camera } = rendered;
  const bytes = serialize({
    image, variables, camera: { worldToCamera: Float32Array.from(camera.worldToCamera), cameraToNdc: Float32Array.from(camera.cameraToNdc) },
  });
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
}

export async function readTileFile(file: string): Promise<TilePixels> {
  return deserialize(await readFile(file)) as TilePixels;
}

export async function removeTileFile(file: string): Promise<void> {
  await rm(file, { force: true });
}
