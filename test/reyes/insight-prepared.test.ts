// Insight and interactive re-rendering on lavapipe: the regions the schedulers report tile the frame,
// grid outlines lie on the frame, progress reaches every pixel, the primitive under each pixel,
// sample points counted on the opaque fast path, and prepared frames that re-shade kept grids
// (no dicing for a light edit, re-dicing for a colour edit, the same picture as a full render).
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { quantizeImage } from '../../src/image/quantize.ts';
import { prepareFrame, type RegionReport, type RenderedFrame } from '../../src/reyes/render-frame.ts';
import type { Frame } from '../../src/rib/scene.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render, UNFUSED_COMPOSITE } from './render-helpers.ts';


const MiB = 1024 * 1024;

function scene(opacity = 1, displaced = false): string {
  return `Format 64 48 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 6
WorldBegin
LightSource "ambientlight" 1 "intensity" [0.15]
LightSource "pointlight" 2 "from" [-3 1 -2] "intensity" [6]
Opacity [${opacity} ${opacity} ${opacity}]
AttributeBegin
Translate -1.1 0 0
Color [0.9 0.3 0.2]
Surface "plastic"
${displaced ? 'Attribute "displacementbound" "sphere" [0.1]\nDisplacement "dented" "Km" [0.3]' : ''}
Sphere 1 -1 1 360
AttributeEnd
AttributeBegin
Translate 1.1 0 0
Color [0.3 0.5 0.9]
Surface "plastic"
Sphere 1 -1 1 360
AttributeEnd
WorldEnd`;
}

/** Pixel area of the finished (not split) regions of a kind, and whether any two overlap. */
function tiling(regions: RegionReport[], kind: RegionReport['kind']): { area: number; overlap: boolean } {
  const done = regions.filter((r) => r.kind === kind && !r.split).map((r) => r.rect);
  let area = 0;
  let overlap = false;
  done.forEach((a, i) => {
    area += (a.x1 - a.x0) * (a.y1 - a.y0);
    for (const b of done.slice(i + 1)) if (a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) overlap = true;
  });
  return { area, overlap };
}

function picture(frame: Frame, rendered: RenderedFrame) {
  return quantizeImage(rendered.image, frame.options.exposure, frame.options.quantize.rgba);
}

describe('insight: regions, outlines, progress, primitive ids, sample points', () => {
  const gpu = useGpuRuntime();

  for (const [name, budget] of [['one region', 256 * MiB], ['a budget that splits', 1 * MiB]] as const) {
    it(`dicing and sampling regions tile the frame (${name}); outlines and progress`, async () => {
      // The default surface needs no shading scratch, so a small budget cuts regions rather than batches.
      const frame = await frameFromText(scene().replaceAll('Surface "plastic"', ''));
      const seen: RegionReport[] = [];
      const progress: [number, number][] = [];
      const { rendered } = await render(gpu(), frame, {
        budgetBytes: budget, gridOutlines: true,
        onRegion: (kind, rect, split) => seen.push({ kind, rect, split }),
        onProgress: (done, total) => progress.push([done, total]),
      });
      expect(seen).toEqual(rendered.regions);
      for (const kind of ['dicing', 'sampling'] as const) {
        const t = tiling(rendered.regions, kind);
        expect(t.area, kind).toBe(64 * 48);
        expect(t.overlap, kind).toBe(false);
      }
      expect(rendered.regions.filter((r) => r.split && r.kind === 'dicing').length).toBe(rendered.stats.dicingSplits);
      expect(rendered.regions.filter((r) => r.split && r.kind === 'sampling').length).toBe(rendered.stats.samplingSplits);
      if (budget < 2 * MiB) expect(rendered.stats.dicingSplits + rendered.stats.samplingSplits).toBeGreaterThan(0);
      // Progress: per region and stage (at least two per sampling region), increasing, ending at every pixel.
      expect(progress.length).toBeGreaterThan(rendered.stats.samplingRegions);
      expect(progress.at(-1)).toEqual([64 * 48, 64 * 48]);
      for (let k = 1; k < progress.length; k++) expect(progress[k]![0]).toBeGreaterThan(progress[k - 1]![0]);
      // Outlines: one quad per grid, each touching the frame (with the filter's apron).
      const outlines = rendered.gridOutlines!;
      expect(outlines.length).toBe(8 * rendered.stats.grids);
      expect(rendered.stats.grids).toBeGreaterThan(4);
      for (let g = 0; g < outlines.length / 8; g++) {
        const xs = [0, 2, 4, 6].map((k) => outlines[g * 8 + k]!);
        const ys = [1, 3, 5, 7].map((k) => outlines[g * 8 + k]!);
        expect(Math.max(...xs)).toBeGreaterThan(-2);
        expect(Math.min(...xs)).toBeLessThan(64 + 2);
        expect(Math.max(...ys)).toBeGreaterThan(-2);
        expect(Math.min(...ys)).toBeLessThan(48 + 2);
      }
    });
  }

  it('bucket mode reports each bucket', async () => {
    const frame = await frameFromText(scene());
    const { rendered } = await render(gpu(), frame, { bucketSize: 16 });
    const buckets = rendered.regions.filter((r) => r.kind === 'bucket');
    expect(buckets.length).toBe(4 * 3);
    expect(tiling(rendered.regions, 'bucket').area).toBe(64 * 48);
  });

  for (const opacity of [1, 0.6]) {
    it(`the primitive under each pixel (${opacity === 1 ? 'opaque fast path' : 'sorted samples'})`, async () => {
      const frame = await frameFromText(scene(opacity));
      const { rendered } = await render(gpu(), frame, { primitiveIds: true });
      expect(rendered.stats.opaqueFastPath).toBe(opacity === 1);
      const ids = rendered.primitiveIds!;
      expect(ids.length).toBe(64 * 48);
      // Sphere centres (raster) and the corner background.
      expect(ids[24 * 64 + 18]).toBe(0);
      expect(ids[24 * 64 + 46]).toBe(1);
      expect(ids[0]).toBe(-1);
      // No alpha: no primitive; full alpha (filtered from covered samples only): a primitive.
      for (let k = 0; k < ids.length; k++) {
        const alpha = rendered.image.rgba[k * 4 + 3]!;
        if (alpha === 0) expect(ids[k]).toBe(-1);
        if (alpha > 0.999) expect(ids[k]).toBeGreaterThanOrEqual(0);
      }
      expect(new Set(ids)).toEqual(new Set([-1, 0, 1]));
      // Sample points: the conservative count on both paths, the same number.
      expect(rendered.stats.samplePoints).toBeGreaterThan(64 * 48);
    });
  }

  it('counts the same sample points on the opaque fast path as the sorting path tests', async () => {
    const frame = await frameFromText(scene());
    const fast = await render(gpu(), frame, {});
    const sorted = await render(gpu(), frame, { pipeline: UNFUSED_COMPOSITE });
    expect(fast.rendered.stats.opaqueFastPath).toBe(true);
    expect(fast.rendered.stats.samplePoints).toBe(sorted.rendered.stats.samplePoints);
  });
});

describe('prepared frames', () => {
  const gpu = useGpuRuntime();

  it('a light edit re-shades the kept grids without dicing and matches a full render', async () => {
    const frame = await frameFromText(scene());
    const prepared = await prepareFrame(gpu(), frame, { primitiveIds: true });
    try {
      expect(prepared.first.stats.reuse).toBe('prepared');
      expect(prepared.retained).toBe(true);
      expect(prepared.first.stats.gridsDiced).toBeGreaterThan(0);
      const light = frame.lights[1]!;
      light.params = light.params.map((p) => (p.name === 'intensity' ? { ...p, values: [24] } : p));
      const again = await prepared.render(frame);
      expect(again.stats.reuse).toBe('reused');
      expect(again.stats.gridsDiced).toBe(0);
      expect(again.stats.gridsReused).toBe(prepared.first.stats.grids);
      expect(again.stats.boundSplitIterations).toBe(0);
      const full = await render(gpu(), frame, {});
      expect(compareImages(picture(frame, again), full.image).max).toBeLessThanOrEqual(1);
      expect(compareImages(picture(frame, again), picture(frame, prepared.first)).max).toBeGreaterThan(10);
      expect(again.primitiveIds).toEqual(prepared.first.primitiveIds);
      // Switching the light off changes the kernels (composition): still no dicing.
      frame.primitives.forEach((p) => (p.attributes.lights = p.attributes.lights.filter((id) => id !== 1)));
      const off = await prepared.render(frame);
      expect(off.stats.gridsDiced).toBe(0);
      expect(compareImages(picture(frame, off), (await render(gpu(), frame, {})).image).max).toBeLessThanOrEqual(1);
    } finally {
      prepared.dispose();
    }
  });

  it('a colour edit re-dices from the kept pieces; a camera move renders from scratch', async () => {
    const frame = await frameFromText(scene());
    const prepared = await prepareFrame(gpu(), frame, {});
    try {
      frame.primitives[1]!.attributes.color = [0, 1, 0];
      const again = await prepared.render(frame);
      expect(again.stats.reuse).toBe('rediced');
      expect(again.stats.boundSplitIterations).toBe(0);
      expect(compareImages(picture(frame, again), (await render(gpu(), frame, {})).image).max).toBeLessThanOrEqual(1);
      const moved: Frame = { ...frame, camera: { ...frame.camera, worldToCamera: frame.camera.worldToCamera.map((v, k) => (k === 12 ? v + 0.3 : v)) } };
      const full = await prepared.render(moved);
      expect(full.stats.reuse).toBe('full: the camera changed');
      expect(full.stats.gridsDiced).toBeGreaterThan(0);
      expect(prepared.retained).toBe(false);
    } finally {
      prepared.dispose();
    }
    expect(gpu().allocator.live).toBeGreaterThanOrEqual(0);
  });

  it('with displacement the kept pieces are diced again (the kernel overwrote P and N)', async () => {
    const frame = await frameFromText(scene(1, true));
    const prepared = await prepareFrame(gpu(), frame, {});
    try {
      const light = frame.lights[1]!;
      light.params = light.params.map((p) => (p.name === 'intensity' ? { ...p, values: [12] } : p));
      const again = await prepared.render(frame);
      expect(again.stats.reuse).toBe('rediced');
      expect(again.stats.gridsDiced).toBe(prepared.first.stats.grids);
      expect(compareImages(picture(frame, again), (await render(gpu(), frame, {})).image).max).toBeLessThanOrEqual(1);
    } finally {
      prepared.dispose();
    }
  });

  it('keeps nothing when the grids would take more than its share of the budget', async () => {
    const frame = await frameFromText(scene());
    const prepared = await prepareFrame(gpu(), frame, { budgetBytes: 2 * MiB });
    try {
      expect(prepared.retained).toBe(false);
      expect(prepared.first.stats.reuse).toMatch(/^full: the grids take more than 50% of the budget/);
      const again = await prepared.render(frame);
      expect(again.stats.reuse).toMatch(/^full: /);
      expect(again.stats.gridsDiced).toBeGreaterThan(0);
    } finally {
      prepared.dispose();
    }
  });
});
