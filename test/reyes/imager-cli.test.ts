// `reyes render` with an Imager, as a user runs it: the imager's output goes through Exposure and
// Quantize into the file (read back with pngjs), an imager beside the scene is found, and a missing
// one is reported at the Imager request.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { reyes } from '../cli/run-reyes.ts';

const scratch = mkdtempSync(join(tmpdir(), 'reyes-imager-'));

/** An empty 4 × 2 frame with the given Imager line and options. */
function scene(imager: string, options = ''): string {
  return `Format 4 2 1\n${options}\n${imager}\nWorldBegin\nWorldEnd\n`;
}

function pixels(file: string): number[][] {
  const png = PNG.sync.read(readFileSync(file));
  return Array.from({ length: png.width * png.height }, (_, k) => Array.from(png.data.subarray(k * 4, k * 4 + 4)));
}

describe('reyes render with an imager', () => {
  it('writes the imager\'s colour through Exposure and Quantize', async () => {
    const rib = join(scratch, 'exposed.rib');
    writeFileSync(rib, scene('Imager "background" "bgcolor" [0.2 0.1 0.05]', 'Exposure 2 2\nQuantize "rgba" 255 0 255 0'));
    const out = join(scratch, 'exposed.png');
    const { code, stderr } = await reyes(['render', rib, '-o', out]);
    expect(code, stderr).toBe(0);
    // (2 · c)^(1/2) · 255: 161.3, 114.0, 80.6; alpha 1.
    for (const p of pixels(out)) expect(p).toEqual([161, 114, 81, 255]);
  });

  it('finds an imager shader beside the scene, with its parameters', async () => {
    writeFileSync(join(scratch, 'columns.sl'), 'imager columns(float scale = 1)\n{\n  Ci = scale * xcomp(P) / 4;\n  Oi = 1;\n}\n');
    const rib = join(scratch, 'columns.rib');
    writeFileSync(rib, scene('Imager "columns" "float scale" [0.5]', 'Quantize "rgba" 255 0 255 0'));
    const out = join(scratch, 'columns.png');
    const { code, stderr } = await reyes(['render', rib, '-o', out]);
    expect(code, stderr).toBe(0);
    // Pixel centres x + 0.5: 0.5 · (x + 0.5) / 4 · 255 = 15.9, 47.8, 79.7, 111.6.
    expect(pixels(out).map((p) => p[0])).toEqual([16, 48, 80, 112, 16, 48, 80, 112]);
  });

  it('reports a missing imager at the Imager request and renders without it', async () => {
    const rib = join(scratch, 'missing.rib');
    writeFileSync(rib, scene('Imager "nosuchimager"'));
    const out = join(scratch, 'missing.png');
    const { code, stderr } = await reyes(['render', rib, '-o', out]);
    expect(code).toBe(0);
    expect(stderr).toContain(`${rib}:3:1: warning: imager shader "nosuchimager" not found`);
    for (const p of pixels(out)) expect(p[3]).toBe(0);
  });
});
