// Render-time problems name the request behind them, and the exit status tells a frame that
// rendered from one that rendered while the scene had errors (5).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/render.ts';
import { reyes } from '../cli/run-reyes.ts';

/** A surface whose every part checks alone, but whose kernel nests past WGSL's limit once f is inlined. */
const ifs = (v: string): string => `if (${v} < t) { ${v} += 1; `.repeat(40);
const DEEP = `float f(float a) { float x = a; ${ifs('x')}${'}'.repeat(40)} return x; }
surface deep() { float y = s; ${ifs('y')}y = f(y); ${'}'.repeat(40)} Ci = y; }
`;

describe('reyes render messages and exit status', () => {
  it('a Format too large is an error at the request, the frame renders at the default size, and the status is 5', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-messages-'));
    const rib = path.join(dir, 'scene.rib');
    writeFileSync(path.join(dir, 'deep.sl'), DEEP);
    writeFileSync(rib, 'Format 100000 100000 1\nFormat 8 6 1\nPixelSamples 1 1\nDisplay "out.tif" "file" "rgba"\nWorldBegin\n  Surface "deep"\n  Sphere 1 -1 1 360\nWorldEnd\n');
    const result = await reyes(['render', rib]);
    expect(EXIT.sceneErrors).toBe(5);
    expect(result.code, result.stderr).toBe(EXIT.sceneErrors);
    expect(result.stderr).toContain(`${rib}:1:1: error: Format: 100000 × 100000 is 10000000000 pixels; at most 134217728 (e.g. 16384 × 8192) are rendered; Format ignored`);
    expect(result.stderr).toContain(`${rib}:6:3: warning: shading pipeline (deep) does not compile; using the default surface`);
    expect(result.stdout).toContain(`wrote ${path.join(dir, 'out.tif')}`);
  });

  it('warnings alone leave the status 0; --res too large is a usage error (4)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-messages-'));
    const rib = path.join(dir, 'scene.rib');
    writeFileSync(rib, 'Format 8 6 1\nPixelSamples 1 1\nDisplay "out.tif" "file" "rgba"\nWorldBegin\n  Surface "missing"\n  Sphere 1 -1 1 360\nWorldEnd\n');
    const warned = await reyes(['render', rib]);
    expect(warned.code, warned.stderr).toBe(EXIT.ok);
    expect(warned.stderr).toContain(`${rib}:5:3: warning: surface shader "missing" not found`);
    const big = await reyes(['render', rib, '--res', '100000x100000']);
    expect(big.code).toBe(EXIT.usage);
    expect(big.stderr).toContain('reyes render: --res 100000x100000: 100000 × 100000 is 10000000000 pixels; at most 134217728');
  });
});
