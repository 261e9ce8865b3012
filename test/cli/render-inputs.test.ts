// What `reyes render` reads: several RIB files as one stream in order (options, then the scene),
// the RIB on standard input ("-"), and --crop overriding the scene's CropWindow.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

/** Options only: a 16 × 16 picture with a box filter one pixel wide, so every pixel is its own colour. */
const OPTIONS = 'Format 16 16 1\nPixelSamples 2 2\nPixelFilter "box" 1 1\n';
/** A world without a Format: red on the left half of the screen, blue on the right, a bad request on line 9. */
const SCENE = [
  'Projection "orthographic"', 'ScreenWindow -1 1 -1 1', 'WorldBegin', 'Translate 0 0 5', 'Surface "constant"',
  'Color 1 0 0', 'Polygon "P" [-1 -1 0 0 -1 0 0 1 0 -1 1 0]', 'Color 0 0 1', 'Bogus 3',
  'Polygon "P" [0 -1 0 1 -1 0 1 1 0 0 1 0]', 'WorldEnd', '',
].join('\n');

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reyes-inputs-'));
  mkdirSync(path.join(dir, 'scene'));
  writeFileSync(path.join(dir, 'options.rib'), OPTIONS);
  writeFileSync(path.join(dir, 'scene', 'scene.rib'), SCENE);
  return dir;
}

/** The picture as rows of 'R', 'B' (pure red or blue, opaque) or '?' per pixel. */
function colours(file: string): { width: number; height: number; rows: string[] } {
  const png = PNG.sync.read(readFileSync(file));
  const rows: string[] = [];
  for (let y = 0; y < png.height; y++) {
    let row = '';
    for (let x = 0; x < png.width; x++) {
      const [r, g, b, a] = png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4);
      row += a !== 255 || g !== 0 ? '?' : r === 255 && b === 0 ? 'R' : r === 0 && b === 255 ? 'B' : '?';
    }
    rows.push(row);
  }
  return { width: png.width, height: png.height, rows };
}

describe('reyes render: inputs', () => {
  it('reads several RIB files in order as one stream, each diagnostic at its own file and line', async () => {
    const dir = folder();
    const out = path.join(dir, 'out.png');
    const result = await reyes(['render', path.join(dir, 'options.rib'), path.join(dir, 'scene', 'scene.rib'), '-o', out]);
    expect(result.code, result.stderr).toBe(0);
    // The first file's Format and filter apply to the second's frame (without it: 640 × 480).
    const picture = colours(out);
    expect([picture.width, picture.height]).toEqual([16, 16]);
    for (const row of picture.rows) expect(row).toBe('R'.repeat(8) + 'B'.repeat(8));
    expect(result.stderr).toContain(`${path.join(dir, 'scene', 'scene.rib')}:9:1: warning: Bogus: unknown request`);
  });

  it('reads the RIB from standard input given "-", alone or after an options file', async () => {
    const dir = folder();
    const alone = await reyes(['render', '-', '-o', path.join(dir, 'alone.png')], {}, OPTIONS + SCENE);
    expect(alone.code, alone.stderr).toBe(0);
    expect(colours(path.join(dir, 'alone.png')).rows).toEqual(Array(16).fill('R'.repeat(8) + 'B'.repeat(8)));
    // Named <stdin> in diagnostics, lines counted from the start of what was piped (3 option lines).
    expect(alone.stderr).toContain('<stdin>:12:1: warning: Bogus: unknown request');

    const after = await reyes(['render', path.join(dir, 'options.rib'), '-', '-o', path.join(dir, 'after.png')], {}, SCENE);
    expect(after.code, after.stderr).toBe(0);
    expect(colours(path.join(dir, 'after.png')).width).toBe(16);
    expect(after.stderr).toContain('<stdin>:9:1: warning: Bogus: unknown request');
  });

  it('--crop renders the part of the image it names, in place of the scene\'s CropWindow', async () => {
    const dir = folder();
    // The scene's own CropWindow (the red half) is overridden.
    writeFileSync(path.join(dir, 'cropped.rib'), `${OPTIONS}CropWindow 0 0.5 0 1\n${SCENE}`);
    const right = await reyes(['render', path.join(dir, 'cropped.rib'), '--crop', '0.5', '1', '0', '0.25', '-o', path.join(dir, 'right.png')]);
    expect(right.code, right.stderr).toBe(0);
    // x from 8 to 16, y from 0 to 4: blue only.
    expect(colours(path.join(dir, 'right.png'))).toEqual({ width: 8, height: 4, rows: Array(4).fill('B'.repeat(8)) });
    // PRMan's spelling, one word per number; the window straddles the edge: x 4 to 12.
    const middle = await reyes(['render', path.join(dir, 'cropped.rib'), '-crop', '.25', '.75', '0', '1', '-o', path.join(dir, 'middle.png')]);
    expect(middle.code, middle.stderr).toBe(0);
    expect(colours(path.join(dir, 'middle.png')).rows).toEqual(Array(16).fill('RRRRBBBB'));
  });

  it('refuses a bad --crop, a missing input and a second "-" with exit status 4 or 1 and a message', async () => {
    const dir = folder();
    const scene = path.join(dir, 'scene', 'scene.rib');
    const bad = await reyes(['render', scene, '--crop', '0.5', '0.2', '0', '1']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('--crop must be four fractions x0 x1 y0 y1 in [0,1] with x0 < x1 and y0 < y1, not "0.5 0.2 0 1"');
    const three = await reyes(['render', scene, '--crop', '0', '1', '0']);
    expect(three.code).toBe(4);
    const missing = await reyes(['render', path.join(dir, 'options.rib'), path.join(dir, 'none.rib')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read ${path.join(dir, 'none.rib')}`);
    const twice = await reyes(['render', '-', '-'], {}, SCENE);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('standard input ("-") can be read only once');
  });
});
