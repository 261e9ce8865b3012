// Shaders of the corpus split into passes under the tiny resource profile give the grid variables the
// single-pass kernel gives under the default profile, within 1/255, on Dawn: the passes run in order
// through the runtime's dispatcher (src/reyes/shading/multipass.ts) on four 16 × 16 grids of a
// curved, lit patch, with the light shaders of the pipeline (partition-grids.ts). Four pipelines
// here, one per role; `npm run check:partition` runs the whole corpus the same way.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { TINY_RESOURCES } from '../../src/rsl/partition/model.ts';
import { corpusPipeline, corpusShader, gridDifference, gridRecords, GRIDS, shadeGrids, SIDE } from './partition-grids.ts';

// texmap: a texture lookup in some passes only (the atlas is bound to those alone).
const CASES = ['wood', 'texmap', 'noisebumps', 'barnspot', 'groundfog'];

describe('partitioned kernels', () => {
  const gpu = useGpuRuntime();
  for (const name of CASES) {
    const shader = corpusShader(name);
    it(`${name} (${shader.kind}): the tiny profile's passes match the single kernel within 1/255`, async () => {
      const description = corpusPipeline(shader);
      const single = compilePipeline(description);
      expect(single.multipass).toBeUndefined();
      const split = compilePipeline({ ...description, partition: { resources: TINY_RESOURCES } });
      const { passes } = split.multipass!;
      expect(passes.length).toBeGreaterThan(1);
      // Only the last pass marks a grid's texture lookups done (a later pass would skip the grid).
      passes.forEach((pass, p) => {
        expect(pass.code.includes('rsl_tex_finish(gi, rsl_tex_complete)')).toBe(pass.textures && p === passes.length - 1);
        expect(pass.code.includes('rsl_tex_finish_pass(gi, rsl_tex_complete)')).toBe(pass.textures && p < passes.length - 1);
      });
      if (name === 'texmap') expect(passes.map((pass) => pass.textures)).toEqual([false, true]);
      const [a, b] = [await shadeGrids(gpu(), single, false), await shadeGrids(gpu(), split, true)];
      const difference = gridDifference(single, gridRecords(single), a, b);
      expect(difference.max, difference.at).toBeLessThanOrEqual(1 / 255);
      expect(difference.variables).toEqual(expect.arrayContaining(['Ci', 'Oi']));
      expect(difference.compared).toBeGreaterThanOrEqual(GRIDS * SIDE * SIDE * 6);
      // The shader did something: its colour is not the input's.
      expect(difference.changed).toBe(true);
    }, 60_000);
  }
});
