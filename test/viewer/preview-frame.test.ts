// The page's preview while the camera moves renders without depth of field and with the shutter
// closed at its opening: the same picture as the scene with `DepthOfField` (no arguments: off) and
// `Shutter 0 0` written into its RIB, on Dawn.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { previewFrame } from '../../src/viewer/preview-frame.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render, ROOT } from '../reyes/render-helpers.ts';

describe('the page\'s preview frame', () => {
  const gpu = useGpuRuntime();

  it('renders motion-dof.rib as the RIB does with depth of field off and the shutter closed at its opening', async () => {
    const text = readFileSync(path.join(ROOT, 'scenes/features/motion-dof.rib'), 'utf8');
    expect(text).toMatch(/^Shutter 0 1$/m);
    expect(text).toMatch(/^DepthOfField 2\.8 1 5$/m);
    const frame = await frameFromText(text);
    const preview = previewFrame(frame);
    expect(preview.camera.depthOfField).toBeNull();
    expect(preview.camera.shutter).toEqual([0, 0]);
    const still = await frameFromText(text.replace(/^Shutter 0 1$/m, 'Shutter 0 0').replace(/^DepthOfField .*$/m, 'DepthOfField'));
    const fromPreview = await render(gpu(), preview, { samples: 2 });
    const fromRib = await render(gpu(), still, { samples: 2 });
    const blurred = await render(gpu(), frame, { samples: 2 });
    expect(compareImages(fromPreview.image, fromRib.image).max).toBeLessThanOrEqual(1);
    // And the preview is not the blurred picture.
    expect(compareImages(fromPreview.image, blurred.image).max).toBeGreaterThan(20);
  }, 600_000);
});
