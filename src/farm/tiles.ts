// `--tiles CxR`: a frame cut into C × R crop tiles, each rendered as a CropWindow of its own. The cut
// follows whole pixels of the frame's picture (the part its own CropWindow keeps), and each tile's
// fractions sit half a pixel before its first pixel so the renderer's rounding (camera.ts: the
// first pixel is ceil(resolution × fraction)) gives exactly those pixels back.
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
  const [width, height] = resolution ?? [options.xResolution, options.yResolution];
  const [cx0, cx1, cy0, cy1] = options.cropWindow;
  const pixel = (size: number, fraction: number): number => Math.min(size, Math.max(0, Math.ceil(size * fraction)));
  const [px0, px1, py0, py1] = [pixel(width, cx0), pixel(width, cx1), pixel(height, cy0), pixel(height, cy1)];
  if (px1 - px0 < columns || py1 - py0 < rows) {
    throw new TileLayoutError(`--tiles ${columns}x${rows}: the picture is only ${px1 - px0}×${py1 - py0} pixels`);
  }
  const x = cuts(px0, px1, columns);
  const y = cuts(py0, py1, rows);
  const fraction = (p: number, size: number): number => (p === 0 ? 0 : p === size ? 1 : (p - 0.5) / size);
  const tiles: Tile[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      tiles.push({
        index: tiles.length,
        crop: [fraction(x[c]!, width), fraction(x[c + 1]!, width), fraction(y[r]!, height), fraction(y[r + 1]!, height)],
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
