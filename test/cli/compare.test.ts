// `reyes compare`: the tests' difference figures between two pictures and the exit status over
// the tolerance. The pictures are written by independent encoders (pngjs, utif2).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import UTIF from 'utif2';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

function writePng(file: string, width: number, height: number, rgba: number[]): string {
  const png = new PNG({ width, height });
  png.data.set(rgba);
  writeFileSync(file, PNG.sync.write(png));
  return file;
}

describe('reyes compare', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reyes-compare-'));
  const A = [10, 20, 30, 255, 0, 0, 0, 255];
  // Red 3 higher in the first pixel, alpha 1 lower in the second: max 3, mean (3 + 1) / 8.
  const B = [13, 20, 30, 255, 0, 0, 0, 254];
  const a = writePng(path.join(dir, 'a.png'), 2, 1, A);
  const b = writePng(path.join(dir, 'b.png'), 2, 1, B);

  it('prints the largest and mean channel difference and the channels over the tolerance', async () => {
    const exact = await reyes(['compare', a, b]);
    expect(exact.code).toBe(1);
    expect(exact.stdout).toBe('max 3  mean 0.5000  over 2 of 8 channels (tolerance 0)\n');
    const one = await reyes(['compare', a, b, '--tolerance', '1']);
    expect(one.code).toBe(1);
    expect(one.stdout).toContain('over 1 of 8 channels (tolerance 1)');
    const three = await reyes(['compare', a, b, '--tolerance', '3']);
    expect(three.code).toBe(0);
    expect(three.stdout).toContain('over 0 of 8 channels (tolerance 3)');
  });

  it('reads an 8-bit TIFF as the PNG of the same pixels', async () => {
    const tiff = path.join(dir, 'a.tif');
    writeFileSync(tiff, new Uint8Array(UTIF.encodeImage(new Uint8Array(A), 2, 1)));
    const result = await reyes(['compare', tiff, a]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('max 0  mean 0.0000  over 0 of 8 channels (tolerance 0)\n');
  });

  it('says when sizes differ (status 1), and refuses unreadable files and bad tolerances (status 4)', async () => {
    const wide = writePng(path.join(dir, 'wide.png'), 1, 2, A);
    const sizes = await reyes(['compare', a, wide]);
    expect(sizes.code).toBe(1);
    expect(sizes.stdout).toBe(`sizes differ: ${a} is 2×1, ${wide} is 1×2\n`);
    const text = path.join(dir, 'note.txt');
    writeFileSync(text, 'not a picture');
    const unreadable = await reyes(['compare', a, text]);
    expect(unreadable.code).toBe(4);
    expect(unreadable.stderr).toContain(`reyes compare: cannot read ${text}: not a TIFF or PNG picture`);
    const bad = await reyes(['compare', a, b, '--tolerance', '-1']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('--tolerance must be an integer from 0 to 255, not "-1"');
  });
});
