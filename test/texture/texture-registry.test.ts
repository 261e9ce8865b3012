// The registry gives each named map a slot once, warns once for a missing one, and lays out the
// page table of the maps it has.
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { ATLAS } from '../../src/layout/texture-pages.ts';
import { buildPyramid } from '../../src/texture/mipmap.ts';
import { encodeTextureFile } from '../../src/texture/texture-file.ts';
import { TextureRegistry } from '../../src/texture/texture-registry.ts';
import { memoryTextureStorage } from '../../src/texture/texture-storage.ts';

function file(size: number): Uint8Array {
  const options = { filter: 'box', swidth: 1, twidth: 1, swrap: 'clamp', twrap: 'clamp' } as const;
  const levels = buildPyramid({ width: size, height: size, data: new Float32Array(size * size).fill(0.5) }, 1, options);
  return encodeTextureFile({ kind: 'texture', channels: 1, levels, ...options });
}

describe('TextureRegistry', () => {
  const storage = memoryTextureStorage(new Map([['big.tex', file(64)], ['small.tex', file(8)]]));

  it('gives a slot per map, -1 with one warning for a missing one', () => {
    const registry = new TextureRegistry(storage);
    const warnings: string[] = [];
    const warn = (m: string): void => { warnings.push(m); };
    expect([registry.slot('big.tex', undefined, warn), registry.slot('small.tex', undefined, warn), registry.slot('big.tex', undefined, warn)]).toEqual([0, 1, 0]);
    expect([registry.slot('none.tex', undefined, warn), registry.slot('none.tex', undefined, warn)]).toEqual([-1, -1]);
    expect(warnings).toEqual(['texture "none.tex" not found (looked in "none.tex"); its lookups return the fill value']);
  });

  it('pages every named map: 64×64 one-channel maps are one tile per level, levels listed finest first', () => {
    const registry = new TextureRegistry(storage);
    registry.slot('big.tex', undefined, () => {});
    registry.slot('small.tex', undefined, () => {});
    const { table } = registry.textures(mat4.create())!;
    // 64² down to 1² (7 levels) and 8² down to 1² (4 levels): a 64-texel tile each.
    expect(table.tiles.map((t) => [t.map, t.level])).toEqual([...[0, 1, 2, 3, 4, 5, 6].map((l) => [0, l]), ...[0, 1, 2, 3].map((l) => [1, l])]);
    const level = (slot: number, l: number): number[] => {
      const at = ATLAS.header + slot * ATLAS.mapWords + ATLAS.levelTable + l * ATLAS.levelWords;
      return [table.words[at + ATLAS.levelWidth]!, table.words[at + ATLAS.levelHeight]!, table.words[at + ATLAS.levelTilesX]!];
    };
    expect([level(0, 0), level(0, 6), level(1, 0)]).toEqual([[64, 64, 1], [1, 1, 1], [8, 8, 1]]);
  });
});
