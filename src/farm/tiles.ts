// `--tiles CxR`: a frame cut into C × R crop tiles, each rendered as a CropWindow of its own. The cut
// follows whole pixels of the frame's picture (the part its own CropWindow keeps); crop-rect.ts
// turns each tile into the CropWindow that renders exactly its pixels.
import { cropWindowFor, pictureArea } from '../reyes/devices/crop-rect.ts';
import type { Options } from '../rib/scene.ts';
import type { Tile } from './jobs.ts';

export class TileLayoutError extends Error {}

export function parseTileGrid(text: string): [number, number] {
  const m = /^(\d+)x(\d+)$/i.exec(text.trim());
  const columns = Number(m?.[1]);
  const rows = Number(m?.[2]);
  if (!m || columns < 1 || rows < 1) throw new TileLayoutError(`--tiles must be CxR (e.g. 2x2), not "${text}"`);
  return [columns, rows];
}

/** The tiles of a frame with these options (and --res override), in rows from the top. */
export function frameTiles(options: Options, resolution: [number, number] | undefined, columns: number, rows: number): Tile[] {
  const { width, height, rect: picture } = pictureArea(options, resolution);
  const { x0: px0, x1: px1, y0: py0, y1: py1 } = picture;
  if (px1 - px0 < columns || py1 - py0 < rows) {
    throw new TileLayoutError(`--tiles ${columns}x${rows}: the picture is only ${px1 - px0}×${py1 - py0} pixels`);
  }
  const x = cuts(px0, px1, columns);
  const y = cuts(py0, py1, rows);
  const tiles: Tile[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      tiles.push({
        index: tiles.length,
        crop: cropWindowFor({ x0: x[c]!, x1: x[c + 1]!, y0: y[r]!, y1: y[r + 1]! }, width, height),
        rect: { x0: x[c]! - x[0]!, x1: x[c + 1]! - x[0]!, y0: y[r]! - y[0]!, y1: y[r + 1]! - y[0]! },
      });
    }
  }
  return tiles;
}

/** `parts` + 1 pixel boundaries from `first` to `last`, as even as whole pixels allow. */
function cuts(first: number, last: number, parts: number): number[] {
  return Array.from({ length: parts + 1 }, (_, k) => first + Math.round(((last - first) * k) / parts));
}
