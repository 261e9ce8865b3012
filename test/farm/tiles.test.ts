// Crop tiles (--tiles) cover a frame's picture exactly once, and the renderer's own crop rounding
// (frameCamera) gives each tile back exactly its pixels; --frames picks frames by FrameBegin number.
import { describe, expect, it } from 'vitest';
import { frameTiles, parseTileGrid } from '../../src/farm/tiles.ts';
import { selectFrames } from '../../src/farm/frame-list.ts';
import { frameCamera } from '../../src/reyes/camera.ts';
import { parseRibSync } from '../../src/rib/index.ts';

function frameWith(options: string) {
  const scene = parseRibSync(`${options}\nProjection "perspective"\nWorldBegin\nWorldEnd\n`);
  expect(scene.errors).toEqual([]);
  return scene.frames[0]!;
}

describe('frameTiles', () => {
  const cases: [string, [number, number] | undefined, number, number][] = [
    ['Format 40 30 1', undefined, 2, 2],
    ['Format 37 23 1', undefined, 3, 4],
    ['Format 640 480 1\nCropWindow 0.13 0.71 0.2 0.9', undefined, 4, 3],
    ['Format 64 48 1', [101, 77], 5, 7],
    ['Format 9 7 1', undefined, 9, 7],
  ];
  for (const [options, resolution, columns, rows] of cases) {
    it(`${options.replace('\n', ', ')}${resolution ? ` at ${resolution.join('x')}` : ''} in ${columns}x${rows} tiles`, () => {
      const frame = frameWith(options);
      const full = frameCamera(frame, resolution ? { resolution } : {}).crop;
      const tiles = frameTiles(frame.options, resolution, columns, rows);
      expect(tiles).toHaveLength(columns * rows);
      const width = full.x1 - full.x0;
      const height = full.y1 - full.y0;
      const covered = new Uint8Array(width * height);
      for (const tile of tiles) {
        const { x0, x1, y0, y1 } = tile.rect;
        expect(x1 - x0).toBeGreaterThanOrEqual(Math.floor(width / columns));
        expect(x1 - x0).toBeLessThanOrEqual(Math.ceil(width / columns));
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) covered[y * width + x]!++;
        // What the renderer crops for the tile's CropWindow is the tile, in pixels of the whole image.
        const cropped = { ...frame, options: { ...frame.options, cropWindow: tile.crop } };
        expect(frameCamera(cropped, resolution ? { resolution } : {}).crop).toEqual({ x0: full.x0 + x0, x1: full.x0 + x1, y0: full.y0 + y0, y1: full.y0 + y1 });
      }
      expect([...covered].every((n) => n === 1)).toBe(true);
    });
  }

  it('refuses more tiles than pixels and a grid that is not CxR', () => {
    expect(() => frameTiles(frameWith('Format 4 4 1').options, undefined, 5, 1)).toThrow(/only 4×4 pixels/);
    expect(parseTileGrid('3X2')).toEqual([3, 2]);
    expect(() => parseTileGrid('2')).toThrow(/--tiles must be CxR/);
    expect(() => parseTileGrid('0x2')).toThrow(/--tiles must be CxR/);
  });
});

describe('selectFrames', () => {
  const scene = parseRibSync([3, 4, 5, 9].map((n) => `FrameBegin ${n}\nWorldBegin\nWorldEnd\nFrameEnd\n`).join(''));

  it('takes FrameBegin numbers, ranges and lists, in scene order', () => {
    expect(selectFrames(scene.frames, undefined)).toEqual([0, 1, 2, 3]);
    expect(selectFrames(scene.frames, '4-5')).toEqual([1, 2]);
    expect(selectFrames(scene.frames, '9,3')).toEqual([0, 3]);
  });

  it('names the frames that are not in the scene', () => {
    expect(() => selectFrames(scene.frames, '1-4')).toThrow('the scene has no frame 1, 2 (its frames are 3-5, 9)');
    expect(() => selectFrames(scene.frames, '5-4')).toThrow(/first ≤ last/);
  });
});
