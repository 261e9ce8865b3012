// Shaders of the corpus split into passes under the tiny resource profile give the grid variables the
// single-pass kernel gives under the default profile, within 1/255, on Dawn: the passes run in order
// through the runtime's dispatcher (src/reyes/shading/multipass.ts) on four 16 × 16 grids of a
// curved, lit patch, with the light shaders of the pipeline.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { CompiledPipeline, PipelineDescription } from '../../src/rsl/compile.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { frameUniformWords, GRID_INFO } from '../../src/layout/grid-layout.ts';
import { TINY_RESOURCES } from '../../src/rsl/partition/model.ts';
import { dispatchPasses, passPipelines } from '../../src/reyes/shading/multipass.ts';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GRIDS = 4;
const SIDE = 16;

function corpus(name: string): { source: string; file: string; name: string } {
  return { source: readFileSync(path.join(ROOT, 'shaders/corpus', `${name}.sl`), 'utf8'), file: `${name}.sl`, name };
}

/** Grid records of a patch of a sphere of radius 2 at z = 5, each grid a different part of it. */
function gridRecords(compiled: CompiledPipeline): Float32Array {
  const { layout } = compiled;
  const data = new Float32Array(layout.recordFloats * GRIDS);
  for (let g = 0; g < GRIDS; g++) {
    for (let k = 0; k < SIDE * SIDE; k++) {
      const u = (k % SIDE) / (SIDE - 1);
      const v = Math.floor(k / SIDE) / (SIDE - 1);
      const theta = 0.3 + 0.6 * u + 0.7 * g;
      const phi = 0.4 + 0.8 * v;
      const n = [Math.sin(phi) * Math.cos(theta), Math.sin(phi) * Math.sin(theta), -Math.cos(phi)];
      const p = [2 * n[0]!, 2 * n[1]!, 5 + 2 * n[2]!];
      const values: Record<string, number[]> = {
        P: p, N: n, Ng: n, I: p, dPdu: [-n[1]!, n[0]!, 0], dPdv: [n[2]! * Math.cos(theta), n[2]! * Math.sin(theta), Math.sin(phi)],
        u: [u], v: [v], du: [1 / (SIDE - 1)], dv: [1 / (SIDE - 1)], s: [u + g], t: [v], Cs: [0.8, 0.5, 0.3], Os: [1, 1, 1],
      };
      for (const variable of layout.variables) {
        const value = values[variable.name];
        if (value) for (let c = 0; c < variable.components; c++) data[g * layout.recordFloats + variable.offset + c * layout.maxVertices + k] = value[c] ?? 0;
      }
    }
  }
  return data;
}

async function shade(gpu: GpuRuntime, compiled: CompiledPipeline, multipass: boolean): Promise<Float32Array> {
  const { allocator } = gpu;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const records = gridRecords(compiled);
  const grids = allocator.createBufferWithData('grids', records, usage);
  const info = new Uint32Array(GRIDS * GRID_INFO.words);
  for (let g = 0; g < GRIDS; g++) {
    info[g * GRID_INFO.words + GRID_INFO.nu] = SIDE;
    info[g * GRID_INFO.words + GRID_INFO.nv] = SIDE;
    info[g * GRID_INFO.words + GRID_INFO.recordBase] = g * compiled.layout.recordFloats;
  }
  const gridInfo = allocator.createBufferWithData('gridInfo', info, usage);
  const params = allocator.createBufferWithData('params', packParameters(compiled, {}), usage);
  const frame = allocator.createBufferWithData('frame', frameUniformWords(GRIDS), GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  const bindings = { 0: grids, 1: gridInfo, 2: params, 3: frame };
  try {
    const recorder = gpu.recorder('multipass test');
    if (multipass) {
      const passes = compiled.multipass!;
      dispatchPasses(gpu, recorder, passes, await passPipelines(gpu, 'multipass test', passes), bindings, GRIDS, compiled.layout.maxVertices);
    } else {
      recorder.dispatch(await gpu.kernels.pipeline({ label: 'single pass', code: compiled.code, entryPoint: compiled.entryPoint }), bindings, GRIDS);
    }
    await recorder.submit();
    return new Float32Array(await gpu.read(grids, records.byteLength));
  } finally {
    for (const b of [grids, gridInfo, params, frame]) allocator.release(b);
  }
}

const CASES: { name: string; description: () => PipelineDescription }[] = [
  { name: 'wood', description: () => ({ surface: corpus('wood'), lights: ['pointlight', 'ambientlight'] }) },
  { name: 'noisebumps (displacement)', description: () => ({ displacement: corpus('noisebumps'), surface: 'plastic', lights: ['pointlight'] }) },
  { name: 'barnspot (light)', description: () => ({ surface: 'plastic', lights: [corpus('barnspot')] }) },
  { name: 'groundfog (atmosphere)', description: () => ({ surface: 'matte', atmosphere: corpus('groundfog'), lights: ['pointlight'] }) },
];

describe('partitioned kernels', () => {
  const gpu = useGpuRuntime();
  for (const { name, description } of CASES) {
    it(`${name}: the tiny profile's passes match the single kernel within 1/255`, async () => {
      const single = compilePipeline(description());
      expect(single.multipass).toBeUndefined();
      const split = compilePipeline({ ...description(), partition: { resources: TINY_RESOURCES } });
      expect(split.multipass!.passes.length).toBeGreaterThan(1);
      const [a, b] = [await shade(gpu(), single, false), await shade(gpu(), split, true)];
      const { layout } = single;
      let compared = 0;
      for (const variable of layout.variables.filter((x) => ['Ci', 'Oi', 'P', 'N'].includes(x.name))) {
        for (let g = 0; g < GRIDS; g++) {
          for (let k = 0; k < SIDE * SIDE; k++) {
            for (let c = 0; c < variable.components; c++) {
              const at = g * layout.recordFloats + variable.offset + c * layout.maxVertices + k;
              expect(Math.abs(a[at]! - b[at]!), `${variable.name}[${c}] grid ${g} vertex ${k}: ${a[at]} vs ${b[at]}`).toBeLessThanOrEqual(1 / 255);
              compared++;
            }
          }
        }
      }
      // The shader did something: its colour is not the input's.
      const ci = layout.variables.find((x) => x.name === 'Ci')!;
      expect(a.slice(ci.offset, ci.offset + SIDE * SIDE).some((x) => x > 0.01)).toBe(true);
      expect(compared).toBe(GRIDS * SIDE * SIDE * 12);
    }, 60_000);
  }
});
