// Every real-world scene under scenes/ribtools/ renders at low resolution with compiled RSL shading
// without an error: standard shaders (plastic, matte, metal, the lights) compile and shade, while
// shaders that are not found fall back to the default surface with a warning naming them.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { standardShaderSource } from '../../src/rsl/index.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { coverage, loadFrame, render, ROOT } from './render-helpers.ts';

const DIR = path.join(ROOT, 'scenes/ribtools');

describe('ribtools scenes render', () => {
  const gpu = useGpuRuntime();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.rib')).sort()) {
    it(file, async () => {
      const frame = await loadFrame(path.join(DIR, file));
      const { image, rendered } = await render(gpu(), frame, { resolution: [64, 48], samples: 1 });
      expect(rendered.stats.grids).toBeGreaterThan(0);
      const covered = coverage(image);
      expect(covered).toBeGreaterThan(0.005);
      expect(covered).toBeLessThanOrEqual(1);
      const surfaces = new Set(frame.primitives.map((p) => p.attributes.surface?.name).filter((n) => n && n !== 'constant' && n !== 'defaultsurface'));
      for (const name of surfaces) {
        const warned = rendered.warnings.some((w) => w.includes(`"${name}"`) && w.includes('default surface'));
        expect(warned, `${name}: ${rendered.warnings.join('; ')}`).toBe(standardShaderSource(name!) === undefined);
      }
      expect(rendered.warnings.filter((w) => w.includes('does not compile'))).toEqual([]);
    });
  }
});
