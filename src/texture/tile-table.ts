// The table part of the paged atlas (src/layout/texture-pages.ts): maps, levels and page entries,
// every entry absent; and the texels of one tile, cut from a map's level, for the pool.
import { mat4 } from 'gl-matrix';
import { ATLAS, PAGE_ABSENT, TILE, tileShift } from '../layout/texture-pages.ts';
import type { TextureKind, TextureMap, WrapMode } from './texture-map.ts';

export const WRAP_CODE: Record<WrapMode, number> = { periodic: 0, clamp: 1, black: 2 };
export const KIND_CODE: Record<TextureKind, number> = { texture: 0, shadow: 1, latlong: 2, cube: 3 };

/** One page entry's tile: map, level and tile position. */
export interface TileAddress {
  map: number;
  level: number;
  tx: number;
  ty: number;
}

export interface TileTable {
  /** Header, map headers and page entries (all PAGE_ABSENT): the atlas up to the pool. */
  words: Uint32Array;
  /** The tile of each page entry, in entry order (coarsest levels are not first: see `byCoarseness`). */
  tiles: TileAddress[];
}

/** The table of `maps` (slot = index; undefined for a name that found nothing). `cameraToWorld`
 * (column-major) places shadow maps' cameras relative to the frame's. */
export function tileTable(maps: readonly (TextureMap | undefined)[], cameraToWorld: mat4 = mat4.create()): TileTable {
  const tiles: TileAddress[] = [];
  const pagesStart = ATLAS.header + maps.length * ATLAS.mapWords;
  const levelPages = maps.map((map, m) => levelsOf(map).map((level, l) => {
    const shift = tileShift(map!.channels);
    const tilesX = Math.ceil(level.width / (1 << shift));
    const tilesY = Math.ceil(level.height / (1 << shift));
    const at = pagesStart + tiles.length;
    for (let ty = 0; ty < tilesY; ty++) for (let tx = 0; tx < tilesX; tx++) tiles.push({ map: m, level: l, tx, ty });
    return { at, tilesX };
  }));
  const words = new Uint32Array(pagesStart + tiles.length);
  const floats = new Float32Array(words.buffer);
  words[ATLAS.mapCount] = maps.length;
  words[ATLAS.poolBase] = words.length;
  words[ATLAS.bitmapWords] = Math.ceil(tiles.length / 32);
  words[ATLAS.pagesStart] = pagesStart;
  words.fill(PAGE_ABSENT, pagesStart);
  maps.forEach((map, m) => {
    if (!map) return;
    const h = ATLAS.header + m * ATLAS.mapWords;
    const levels = levelsOf(map);
    words[h + ATLAS.levels] = levels.length;
    words[h + ATLAS.channels] = map.channels;
    words[h + ATLAS.swrap] = WRAP_CODE[map.swrap];
    words[h + ATLAS.twrap] = WRAP_CODE[map.twrap];
    words[h + ATLAS.kind] = KIND_CODE[map.kind];
    words[h + ATLAS.tileShift] = tileShift(map.channels);
    if (map.kind === 'cube') floats[h + ATLAS.cubeFovCot] = 1 / Math.tan(((map.fov ?? 90) * Math.PI) / 360);
    // RenderMan matrices are row-major for row vectors: the same 16 numbers as a column-major
    // matrix for column vectors, which gl-matrix takes.
    if (map.worldToScreen) floats.set(mat4.multiply(mat4.create(), map.worldToScreen as unknown as mat4, cameraToWorld), h + ATLAS.shadowScreen);
    if (map.worldToCamera) floats.set(mat4.multiply(mat4.create(), map.worldToCamera as unknown as mat4, cameraToWorld), h + ATLAS.shadowCamera);
    levels.forEach((level, l) => {
      const at = h + ATLAS.levelTable + l * ATLAS.levelWords;
      words[at + ATLAS.levelWidth] = level.width;
      words[at + ATLAS.levelHeight] = level.height;
      words[at + ATLAS.levelTilesX] = levelPages[m]![l]!.tilesX;
      words[at + ATLAS.levelPages] = levelPages[m]![l]!.at;
    });
  });
  return { words, tiles };
}

function levelsOf(map: TextureMap | undefined): TextureMap['levels'] {
  return map ? map.levels.slice(0, ATLAS.maxLevels) : [];
}

/** The pool slot content of a tile: TILE.words floats, texels past the level's edge 0. */
export function tileTexels(map: TextureMap, tile: TileAddress): Float32Array<ArrayBuffer> {
  const out = new Float32Array(TILE.words);
  const level = map.levels[tile.level]!;
  const side = 1 << tileShift(map.channels);
  const c = map.channels;
  const x0 = tile.tx * side;
  const y0 = tile.ty * side;
  const width = Math.min(side, level.width - x0);
  for (let y = 0; y < side && y0 + y < level.height; y++) {
    const from = ((y0 + y) * level.width + x0) * c;
    out.set(level.data.subarray(from, from + width * c), y * side * c);
  }
  return out;
}

/** Page entry indices ordered coarsest level first (the order a pool is filled in before any
 * lookup asks). */
export function byCoarseness(table: TileTable): number[] {
  return table.tiles.map((_, k) => k).sort((a, b) => table.tiles[b]!.level - table.tiles[a]!.level || a - b);
}
