// A shader that cannot be found is reported at the RIB request that names it (file:line:col of the
// LightSource or Surface), by `reyes render` on stderr and in the renderer's warnings on every render
// of the frame, even where only the built-in default surface shades (it needs no lights), and the
// page reads the position back out of the warning.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { renderWarning } from '../../src/viewer/viewer-app.ts';
import { renderFrame } from '../../src/reyes/index.ts';
import { reyes } from '../cli/run-reyes.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText } from './render-helpers.ts';

const scratch = mkdtempSync(join(tmpdir(), 'reyes-not-found-'));

const SCENE = `Format 8 6 1
Projection "perspective" "fov" 40
Translate 0 0 5
WorldBegin
  LightSource "Global_Distant" "distantlight"
  LightSource "distantlight" 2
  AttributeBegin
    Surface "nosuchsurface" "Kd" [0.5]
    Sphere 1 -1 1 360
  AttributeEnd
WorldEnd
`;

describe('a missing shader', () => {
  const gpu = useGpuRuntime();

  it('is reported by reyes render at the LightSource and Surface requests', async () => {
    const rib = join(scratch, 'missing.rib');
    writeFileSync(rib, SCENE);
    const { code, stderr } = await reyes(['render', rib, '-o', join(scratch, 'missing.png')]);
    expect(code, stderr).toBe(0);
    const lines = stderr.split('\n');
    expect(lines).toContain(`${rib}:5:3: warning: light shader "Global_Distant" not found; the light is skipped`);
    expect(lines).toContain(`${rib}:8:5: warning: surface shader "nosuchsurface" not found; using the default surface`);
    // No message names a shader file that does not exist.
    expect(stderr).not.toMatch(/Global_Distant\.sl|nosuchsurface\.sl/);
  });

  it('is reported on every render with one provider, and the page lists it at the request', async () => {
    const frame = await frameFromText(SCENE);
    const provider = new RslShadingProvider();
    for (let pass = 0; pass < 2; pass++) {
      const { warnings } = await renderFrame(gpu(), frame, { shading: provider.provide, gpuTimings: false });
      expect(warnings).toContain('<input>:5:3: light shader "Global_Distant" not found; the light is skipped');
      expect(warnings).toContain('<input>:8:5: surface shader "nosuchsurface" not found; using the default surface');
    }
    expect(renderWarning('scene.rib', 'scene.rib:5:3: light shader "Global_Distant" not found; the light is skipped')).toEqual([
      { severity: 'warning', file: 'scene.rib', line: 5, column: 3, text: 'light shader "Global_Distant" not found; the light is skipped', source: 'render' },
    ]);
  });

  it('that does not compile is one message at the request, then each compiler error once with its position', () => {
    const text = 'scene.rib:8:5: surface shader "broken" does not compile (1 error in broken.sl); using the default surface\nbroken.sl:2:8: error: undefined variable "x"';
    expect(renderWarning('scene.rib', text)).toEqual([
      { severity: 'warning', file: 'scene.rib', line: 8, column: 5, text: 'surface shader "broken" does not compile (1 error in broken.sl); using the default surface', source: 'render' },
      { severity: 'error', file: 'broken.sl', line: 2, column: 8, text: 'undefined variable "x"', source: 'rsl' },
    ]);
  });
});
