// The same scene under different pipeline configurations (pipeline/pipeline-config.ts): RenderAnts'
// memory-budget bins (under a budget that fits the whole screen, and under 2.5 MiB, where they are
// cut), fixed 32 × 32 bins sampled whole (buckets), one screen bin sampled whole (LoadBalance over
// the whole screen), and 16 × 16 dicing bins with budget sampling bins inside them; with dice and
// shade fused into one kernel (pipeline/fusion.ts) and without, and with sample and composite fused
// (the default where the frame is opaque) and apart. How the screen is binned and whether stages
// are fused must not change the picture: each configuration gives the RenderAnts picture (sample
// and composite fused where the scene allows) within 1/255. Scenes at 80 × 60: a subset of the feature scenes (transparent,
// displaced, metal, patches, mattes) and the viewer's showcase, for time; the showcase is not run
// fused (its fused kernels take minutes to compile on lavapipe).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { describePipeline, fuses, parsePipelineConfig, RENDERANTS_PIPELINE, type PipelineConfig } from '../../src/reyes/pipeline/pipeline-config.ts';
import { nodeRslShading } from '../../src/reyes/shading/node-shaders.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { loadFrame, render, ROOT } from './render-helpers.ts';

const FEATURES = path.join(ROOT, 'scenes/features');
const SCENES = [
  path.join(FEATURES, 'transparency.rib'),
  path.join(FEATURES, 'shade-displacement.rib'),
  path.join(FEATURES, 'shade-metal.rib'),
  path.join(FEATURES, 'patch-bezier.rib'),
  path.join(FEATURES, 'matte-layers.rib'),
  path.join(ROOT, 'scenes/viewer/showcase.rib'),
];

const MiB = 1024 * 1024;
/** A budget under which the RenderAnts bins of CUT_SMALL's scenes are cut at 80 × 60. */
const SMALL_BUDGET = 2.5 * MiB;
const CUT_SMALL = new Set(['showcase.rib', 'shade-displacement.rib']);

/** Scenes with compiled RSL kernels that bind only the grid contract: dice and shade fuse (the others shade with built-in surfaces). */
const FUSES = new Set(['shade-displacement.rib', 'shade-metal.rib']);
const NOT_RUN_FUSED = new Set(['showcase.rib']);
/** Scenes where every primitive is opaque: sample and composite fuse (stages/sample.ts). */
const OPAQUE = new Set(['shade-displacement.rib', 'shade-metal.rib', 'patch-bezier.rib', 'matte-layers.rib', 'showcase.rib']);

const FUSED_RENDERANTS: PipelineConfig = { ...RENDERANTS_PIPELINE, fusion: true };

const CONFIGURATIONS: Record<string, { pipeline: PipelineConfig; budgetBytes: number }> = {
  'RenderAnts bins, dice and shade fused': { pipeline: FUSED_RENDERANTS, budgetBytes: 48 * MiB },
  'RenderAnts bins under 2.5 MiB': { pipeline: RENDERANTS_PIPELINE, budgetBytes: SMALL_BUDGET },
  'RenderAnts bins, nothing fused': { pipeline: { ...RENDERANTS_PIPELINE, fusion: false }, budgetBytes: 48 * MiB },
  'fixed 32×32 bins, sampled whole': { pipeline: { dicing: { bins: 'fixed', size: 32 }, sampling: { bins: 'dicing' } }, budgetBytes: 48 * MiB },
  'one screen bin, sampled whole': { pipeline: { dicing: { bins: 'screen' }, sampling: { bins: 'dicing' } }, budgetBytes: 48 * MiB },
  'fixed 16×16 dicing bins, budget sampling bins, fused': { pipeline: { dicing: { bins: 'fixed', size: 16 }, sampling: { bins: 'budget' }, fusion: true }, budgetBytes: 48 * MiB },
};

describe('pipeline configurations give the same picture', () => {
  const gpu = useGpuRuntime();
  const shading = nodeRslShading({ sceneDir: FEATURES }).provide;

  for (const scene of SCENES) {
    it(path.basename(scene), async () => {
      const frame = await loadFrame(scene);
      const common = { shading, resolution: [80, 60] as [number, number] };
      // 48 MiB holds a whole 80 × 60 screen bin of each scene.
      const reference = await render(gpu(), frame, { ...common, pipeline: RENDERANTS_PIPELINE, budgetBytes: 48 * MiB });
      expect(reference.rendered.stats.dicingSplits).toBe(0);
      expect(reference.rendered.stats.stages![1]!.fusedWith).toBeUndefined();
      const opaque = OPAQUE.has(path.basename(scene));
      expect(reference.rendered.stats.stages![3]!.fusedWith).toBe(opaque ? 'composite' : undefined);
      for (const [name, { pipeline, budgetBytes }] of Object.entries(CONFIGURATIONS)) {
        if (fuses(pipeline, 'dice+shade') && NOT_RUN_FUSED.has(path.basename(scene))) continue;
        const { image, rendered } = await render(gpu(), frame, { ...common, pipeline, budgetBytes });
        expect(compareImages(image, reference.image).max, `${name}: ${describePipeline(pipeline)}`).toBeLessThanOrEqual(1);
        const bins = rendered.regions.filter((r) => r.kind === 'bucket').length;
        expect(bins).toBe(pipeline.dicing.bins === 'fixed' ? Math.ceil(80 / pipeline.dicing.size) * Math.ceil(60 / pipeline.dicing.size) : 0);
        if (pipeline.dicing.bins === 'screen') expect(rendered.stats.dicingSplits).toBe(0);
        // The statistics name the graph the render ran: each stage's bins.
        expect(rendered.stats.stages!.map((s) => s.stage)).toEqual(['boundSplit', 'dice', 'shade', 'sample', 'composite', 'filter', 'imager']);
        if (pipeline.dicing.bins === 'fixed') expect(rendered.stats.stages![1]!.bins).toBe(`${pipeline.dicing.size}×${pipeline.dicing.size} bins`);
        const fused = pipeline.fusion === true && FUSES.has(path.basename(scene));
        expect(rendered.stats.stages![1]!.fusedWith, name).toBe(fused ? 'shade' : undefined);
        const sampleFused = fuses(pipeline, 'sample+composite') && opaque;
        expect(rendered.stats.stages![3]!.fusedWith, name).toBe(sampleFused ? 'composite' : undefined);
        // Apart, every tested sample point is written and composited; fused, none is written.
        expect(rendered.stats.opaqueFastPath, name).toBe(sampleFused);
        if (!sampleFused) expect(rendered.stats.stages![3]!.notFused, name).toMatch(fuses(pipeline, 'sample+composite') ? /not opaque|Oi less than 1/ : /fusion of sample\+composite is off/);
        // One dicing bin, fused or not: the same grids, each shaded once.
        if (rendered.stats.dicingRegions === 1) expect(rendered.stats.verticesShaded, name).toBe(reference.rendered.stats.verticesShaded);
        if (pipeline.sampling.bins === 'dicing') expect(rendered.stats.samplingSplits).toBe(0);
        if (budgetBytes === SMALL_BUDGET && CUT_SMALL.has(path.basename(scene))) expect(rendered.stats.dicingSplits).toBeGreaterThan(0);
      }
    });
  }

  it('reads a configuration from JSON and names what is wrong in it', () => {
    expect(parsePipelineConfig('{ "dicing": { "bins": "fixed", "size": 32 }, "sampling": { "bins": "dicing" } }', 'p.json'))
      .toEqual({ dicing: { bins: 'fixed', size: 32 }, sampling: { bins: 'dicing' } });
    expect(parsePipelineConfig('{}', 'p.json')).toEqual(RENDERANTS_PIPELINE);
    expect(parsePipelineConfig('{ "fusion": true }', 'p.json')).toEqual(FUSED_RENDERANTS);
    expect(parsePipelineConfig('{ "fusion": { "sample+composite": false } }', 'p.json')).toEqual({ ...RENDERANTS_PIPELINE, fusion: { 'sample+composite': false } });
    expect(() => parsePipelineConfig('{ "fusion": "no" }', 'p.json')).toThrow('p.json: fusion: must be true, false or an object such as { "dice+shade": true, "sample+composite": false }, not "no"');
    expect(() => parsePipelineConfig('{ "fusion": { "shade+sample": true } }', 'p.json')).toThrow('p.json: fusion.shade+sample: is not a pair of stages that fuse ("dice+shade", "sample+composite")');
    expect(() => parsePipelineConfig('{ "fusion": { "dice+shade": 1 } }', 'p.json')).toThrow('p.json: fusion.dice+shade: must be true or false, not 1');
    expect(fuses(RENDERANTS_PIPELINE, 'dice+shade')).toBe(false);
    expect(fuses(RENDERANTS_PIPELINE, 'sample+composite')).toBe(true);
    expect(fuses({ ...RENDERANTS_PIPELINE, fusion: true }, 'dice+shade')).toBe(true);
    expect(() => parsePipelineConfig('{\n  "dicing": { "bins": "budget" },\n}', 'p.json')).toThrow(/^p\.json:3:1: not JSON/);
    expect(() => parsePipelineConfig('{ "dicing": { "bins": "tiles" } }', 'p.json')).toThrow('p.json: dicing.bins: must be "budget", "fixed" or "screen", not "tiles"');
    expect(() => parsePipelineConfig('{ "dicing": { "bins": "fixed" } }', 'p.json')).toThrow('p.json: dicing.size: fixed bins need a whole number');
    expect(() => parsePipelineConfig('{ "dicing": { "bins": "budget", "size": 8 } }', 'p.json')).toThrow('p.json: dicing.size: is not a setting of these bins');
    expect(() => parsePipelineConfig('{ "shade": {} }', 'p.json')).toThrow('p.json: shade: is not a setting');
    expect(() => parsePipelineConfig('{ "sampling": { "bins": "fixed" } }', 'p.json')).toThrow('p.json: sampling.bins: must be "budget" or "dicing"');
  });
});
