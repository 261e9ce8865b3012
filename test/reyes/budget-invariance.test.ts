// Invariance: the same scene rendered with different memory budgets and in bucket mode gives the
// same picture (jitter depends on subpixel coordinates only), and the allocator's peak never
// exceeds the budget. Run on an opaque scene (atomic fast path) and a semi-transparent one (sort).
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { BudgetTooSmallError } from '../../src/reyes/errors.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const MiB = 1024 * 1024;

function scene(opacity: number): string {
  let spheres = '';
  for (let k = 0; k < 6; k++) {
    spheres += `AttributeBegin\nTranslate ${(k % 3) - 1} ${Math.floor(k / 3) - 0.5} ${k * 0.3}\nColor [${0.3 + k * 0.1} 0.5 ${0.9 - k * 0.1}]\nSphere 0.8 -0.8 0.8 360\nAttributeEnd\n`;
  }
  return `Format 96 72 1
PixelSamples 2 2
Projection "perspective" "fov" 45
Translate 0 0 4
WorldBegin
Opacity [${opacity} ${opacity} ${opacity}]
${spheres}WorldEnd`;
}

describe('budget invariance', () => {
  const gpu = useGpuRuntime();

  for (const [name, opacity] of [['opaque', 1], ['semi-transparent', 0.6]] as const) {
    it(`${name}: budgets of 2, 8, 32 and 256 MiB and bucket mode give the same picture`, async () => {
      const frame = await frameFromText(scene(opacity));
      const reference = await render(gpu(), frame, { budgetBytes: 256 * MiB });
      expect(reference.rendered.stats.opaqueFastPath).toBe(opacity === 1);
      for (const budget of [2, 8, 32]) {
        const other = await render(gpu(), frame, { budgetBytes: budget * MiB });
        expect(other.rendered.stats.peakBytes).toBeLessThanOrEqual(budget * MiB);
        expect(compareImages(other.image, reference.image).max, `${budget} MiB`).toBeLessThanOrEqual(1);
        if (budget === 2) expect(other.rendered.stats.dicingSplits + other.rendered.stats.samplingSplits).toBeGreaterThan(0);
      }
      const bucket = await render(gpu(), frame, { budgetBytes: 256 * MiB, bucketSize: 16 });
      expect(bucket.rendered.stats.dicingRegions).toBe(6 * 5);
      expect(compareImages(bucket.image, reference.image).max).toBeLessThanOrEqual(1);
    });
  }

  it('a budget too small for any region is a BudgetTooSmallError', async () => {
    const frame = await frameFromText(scene(1));
    await expect(render(gpu(), frame, { budgetBytes: 64 * 1024 })).rejects.toBeInstanceOf(BudgetTooSmallError);
  });

  it('Option "limits" "gpumemory" [MiB] sets the budget; RenderOptions.budgetBytes (--budget) overrides it', async () => {
    const frame = await frameFromText(`Option "limits" "gpumemory" [2]\n${scene(1)}`);
    const fromRib = await render(gpu(), frame);
    expect(fromRib.rendered.warnings).toEqual([]);
    expect(fromRib.rendered.stats.budgetBytes).toBe(2 * MiB);
    expect(fromRib.rendered.stats.peakBytes).toBeLessThanOrEqual(2 * MiB);
    expect(fromRib.rendered.stats.dicingSplits + fromRib.rendered.stats.samplingSplits).toBeGreaterThan(0);
    const overridden = await render(gpu(), frame, { budgetBytes: 32 * MiB });
    expect(overridden.rendered.stats.budgetBytes).toBe(32 * MiB);
    expect(compareImages(overridden.image, fromRib.image).max).toBeLessThanOrEqual(1);
    // Too small for any region, from the RIB alone.
    const tiny = await frameFromText(`Option "limits" "gpumemory" [0.0625]\n${scene(1)}`);
    await expect(render(gpu(), tiny)).rejects.toBeInstanceOf(BudgetTooSmallError);
    // Not a positive number: a warning at the Option, and the runtime's budget.
    const badScene = parseRibSync(`Option "limits" "gpumemory" [-1]\n${scene(1)}`, { fileName: 'bad.rib' });
    expect(badScene.warnings.map((w) => `${w.file}:${w.line}:${w.column} ${w.message}`))
      .toContain('bad.rib:1:1 Option "limits" "gpumemory" must be a positive number of MiB, not [-1]; ignored');
    const bad = await render(gpu(), badScene.frames[0]!);
    expect(bad.rendered.stats.budgetBytes).toBe(gpu().allocator.budget);
  });
});
