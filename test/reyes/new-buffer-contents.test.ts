// In Node, Dawn leaves new buffers as the driver gives them (node-gpu.ts dawnFlags: its zeroing
// cost 0.55 ms per MiB on lavapipe). That is only right if no picture depends on what a new buffer
// holds: rendered with every new buffer filled with NEW_BUFFER_FILL words (REYES_GPU_BUFFERS=fill:
// -3.4e38 as a float, an index far out of range) and with them zeroed, every scene here must give
// the same file, byte for byte. The scenes cover the opaque and see-through sampling paths, motion
// blur with depth of field, CSG, displacement (the reseam pass), shadow maps made during the frame,
// and the Blobby and point primitives.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dawnFlags, NEW_BUFFER_FILL } from '../../src/gpu/node-gpu.ts';
import { reyes } from '../cli/run-reyes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCENES = ['transparency', 'motion-dof', 'csg', 'shade-displacement', 'shadow-auto', 'blobby', 'points'];

describe('new GPU buffers in Node', () => {
  it('are unzeroed unless REYES_GPU_BUFFERS=zero, and filled with NEW_BUFFER_FILL under REYES_GPU_BUFFERS=fill', async () => {
    expect(dawnFlags({})).toEqual(['disable-dawn-features=lazy_clear_resource_on_first_use']);
    expect(dawnFlags({ REYES_GPU_BUFFERS: 'fill' })).toEqual(['disable-dawn-features=lazy_clear_resource_on_first_use']);
    expect(dawnFlags({ REYES_GPU_BUFFERS: 'zero' })).toEqual([]);
    const probe = async (mode: string) => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', './src/node/register.js', 'test/gpu/new-buffer-probe.ts'], { cwd: ROOT, env: { ...process.env, REYES_GPU_BUFFERS: mode } });
      return stdout.trim();
    };
    expect(await probe('fill')).toBe(NEW_BUFFER_FILL.toString(16));
    expect(await probe('zero')).toBe('00000000');
  });

  it.each(SCENES)('%s renders the same file whatever new buffers hold', async (scene) => {
    const dir = mkdtempSync(path.join(tmpdir(), `reyes-buffers-${scene}-`));
    const render = async (mode: string) => {
      const out = path.join(dir, `${mode}.tif`);
      const result = await reyes(['render', `scenes/features/${scene}.rib`, '--output-dir', dir, '-o', out, '-q'], { REYES_GPU_BUFFERS: mode });
      expect(result.code, result.stderr).toBe(0);
      return readFileSync(out);
    };
    const filled = await render('fill');
    const zeroed = await render('zero');
    expect(filled.equals(zeroed), `${scene}: the picture depends on what new buffers hold`).toBe(true);
  });
});
