// The registry gives each named map a slot once, warns once for a missing one, and keeps the atlas
// within one storage binding by reading the largest maps at a coarser level.
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { ATLAS } from '../../src/texture/texture-atlas.ts';
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

  it('reads the largest map at a coarser level when the atlas would pass the binding limit', () => {
    const registry = new TextureRegistry(storage);
    registry.slot('big.tex', undefined, () => {});
    registry.slot('small.tex', undefined, () => {});
    const full = registry.atlas(mat4.create())!;
    // 64² + 32² + ... texels of the big map, 8² + ... of the small one.
    const limit = (full.length - 64 * 64) * 4;
    const warnings: string[] = [];
    const trimmed = registry.atlas(mat4.create(), limit, (m) => warnings.push(m))!;
    expect(trimmed.length * 4).toBeLessThanOrEqual(limit);
    const level0 = (atlas: Uint32Array, slot: number): number[] => {
      const at = ATLAS.header + slot * ATLAS.mapWords + ATLAS.levelTable;
      return [atlas[at]!, atlas[at + 1]!];
    };
    expect([level0(trimmed, 0), level0(trimmed, 1)]).toEqual([[32, 32], [8, 8]]);
    expect(warnings).toEqual([`texture "big.tex": read at 32×32 instead of 64×64, so that every map fits one storage binding (${limit} bytes)`]);
  });
});
