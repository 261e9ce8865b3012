// NaN or infinity (as the GPU's 32-bit floats hold numbers) in a primitive's transform, arguments
// or positions: one warning at the request, that primitive dropped, the rest of the scene kept.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';
import { reyes } from '../cli/run-reyes.ts';

const DROPPED = 'is not finite as a 32-bit float (NaN, infinite or beyond ±3.4e38); the primitive is dropped';

const SCENE = `Format 32 24 1
PixelSamples 1 1
Projection "perspective" "fov" 40
Translate 0 0 5
WorldBegin
AttributeBegin
  Translate 1e999 0 0
  Sphere 1 -1 1 360
AttributeEnd
AttributeBegin
  Polygon "P" [-1 -1 0  1 -1 0  1 1 1e39  -1 1 0]
AttributeEnd
AttributeBegin
  Scale 1e30 1e30 1e30
  Scale 1e30 1e30 1e30
  Sphere 1 -1 1 360
AttributeEnd
Sphere 1e40 -1 1 360
ObjectBegin 1
  Sphere 1 -1 1 360
  Polygon "P" [0 0 0  1 0 0  1e999 1 0]
  Polygon "P" [0 0 0  1 0 0  -1e999 1 0]
ObjectEnd
ObjectInstance 1
Sphere 0.5 -0.5 0.5 360
WorldEnd
`;

describe('non-finite numbers in a primitive', () => {
  it('warn once per request, at the request, and drop only that primitive', () => {
    const scene = parseRibSync(SCENE, { fileName: 'nan.rib' });
    expect(scene.errors).toEqual([]);
    expect(scene.warnings.map((w) => [w.line, w.column, w.request, w.message])).toEqual([
      [8, 3, 'Sphere', `the transform of this Sphere ${DROPPED}`],
      [11, 3, 'Polygon', `"P" of this Polygon ${DROPPED}`],
      [16, 3, 'Sphere', `the transform of this Sphere ${DROPPED}`],
      [18, 1, 'Sphere', `"radius" of this Sphere ${DROPPED}`],
      [24, 1, 'ObjectInstance', `"P" of this Polygon ${DROPPED}`],
    ]);
    // The instance's finite sphere and the last sphere remain.
    expect(scene.frames[0]!.primitives.map((p) => [p.geometry.type, p.source.line])).toEqual([['Sphere', 24], ['Sphere', 25]]);
  });

  it('reyes render draws the rest of the scene', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-nan-'));
    const rib = path.join(dir, 'nan.rib');
    writeFileSync(rib, SCENE.replace('WorldBegin', 'Display "nan.png" "png" "rgba"\nWorldBegin'));
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${rib}:9:3: warning: Sphere: the transform of this Sphere ${DROPPED}`);
    expect(result.stderr).not.toContain('eye plane');
    const png = PNG.sync.read(readFileSync(path.join(dir, 'nan.png')));
    const alpha = (x: number, y: number): number => png.data[(y * png.width + x) * 4 + 3]!;
    // The unit sphere at distance 5 in a 40° view covers the centre, not the corners.
    expect(alpha(16, 12)).toBe(255);
    expect(alpha(0, 0)).toBe(0);
  });
});
