// The paged atlas (src/layout/texture-pages.ts) with every tile resident: what a tile pool holds
// when it has room for all of a frame's maps, and what the lookup tests bind directly.
import type { mat4 } from 'gl-matrix';
import { ATLAS, TILE } from '../layout/texture-pages.ts';
import type { TextureMap } from './texture-map.ts';
import { tileTable, tileTexels } from './tile-table.ts';

/** The atlas of `maps` (slot = index; undefined for a name that found nothing), tile k of the
 * table in pool slot k. */
export function packAtlas(maps: readonly (TextureMap | undefined)[], cameraToWorld?: mat4): Uint32Array {
  const table = tileTable(maps, cameraToWorld);
  const atlas = new Uint32Array(table.words.length + table.tiles.length * TILE.words);
  atlas.set(table.words);
  const floats = new Float32Array(atlas.buffer);
  const pagesStart = table.words[ATLAS.pagesStart]!;
  table.tiles.forEach((tile, k) => {
    atlas[pagesStart + k] = k;
    floats.set(tileTexels(maps[tile.map]!, tile), table.words.length + k * TILE.words);
  });
  return atlas;
}
