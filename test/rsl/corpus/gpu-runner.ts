// Runs a compiled shading kernel on one small grid on the GPU with the same inputs the reference
// interpreter takes (grid variables, parameter block, space matrices), and reads back the grid and,
// when the pipeline was compiled with countLightEvaluations, the light-evaluation counters.
import type { GpuRuntime } from '../../../src/gpu/runtime.ts';
import type { CompiledPipeline } from '../../../src/rsl/compile.ts';
import { frameUniformWords, GRID_INFO } from '../../../src/layout/grid-layout.ts';
import type { InterpreterInput, GridValues } from '../../../src/rsl/interpreter/interpreter.ts';

export interface GpuResult {
  grid: GridValues;
  /** `lightEvaluations[vertex][light]`, when counted. */
  lightEvaluations?: number[][];
}

export async function runOnGpu(runtime: GpuRuntime, compiled: CompiledPipeline, input: InterpreterInput): Promise<GpuResult> {
  const { layout } = compiled;
  const { nu, nv } = input;
  const count = nu * nv;
  const record = new Float32Array(layout.recordFloats);
  for (const variable of layout.variables) {
    const values = input.grid[variable.name];
    if (!values) continue;
    for (let k = 0; k < count; k++) {
      for (let c = 0; c < variable.components; c++) record[variable.offset + c * layout.maxVertices + k] = values[k]?.[c] ?? 0;
    }
  }
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const { allocator } = runtime;
  const lights = compiled.ir.lights.length;
  const buffers = {
    0: allocator.createBufferWithData('grids', record, usage),
    1: allocator.createBufferWithData('gridInfo', new Uint32Array([nu, nv, 0, 0, ...new Array<number>(GRID_INFO.words - 4).fill(0)]), usage),
    2: allocator.createBufferWithData('params', input.params.length > 0 ? input.params : new Float32Array(4), usage),
    3: allocator.createBufferWithData('frame', frameUniformWords(1, toFloat32(input.toCurrent), input.time ?? 0), GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST),
    ...(compiled.lightCountBinding !== undefined
      ? { [compiled.lightCountBinding]: allocator.createBufferWithData('light counts', new Uint32Array(Math.max(1, layout.maxVertices * lights)), usage) }
      : {}),
  } as Record<number, GPUBuffer>;
  try {
    const pipeline = await runtime.kernels.pipeline({ label: 'rsl corpus', code: compiled.code, entryPoint: compiled.entryPoint });
    const recorder = runtime.recorder('rsl corpus');
    recorder.dispatch(pipeline, buffers, 1);
    await recorder.submit();
    const out = new Float32Array(await runtime.read(buffers[0]!, record.byteLength));
    const grid: GridValues = {};
    for (const variable of layout.variables) {
      grid[variable.name] = [...Array(count).keys()].map((k) => [...Array(variable.components).keys()].map((c) => out[variable.offset + c * layout.maxVertices + k]!));
    }
    if (compiled.lightCountBinding === undefined) return { grid };
    const counts = new Uint32Array(await runtime.read(buffers[compiled.lightCountBinding]!, Math.max(1, layout.maxVertices * lights) * 4));
    return { grid, lightEvaluations: [...Array(count).keys()].map((k) => [...Array(lights).keys()].map((l) => counts[k * lights + l]!)) };
  } finally {
    for (const b of Object.values(buffers)) allocator.release(b);
  }
}

function toFloat32(m: InterpreterInput['toCurrent']): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {};
  for (const [space, matrix] of Object.entries(m ?? {})) if (matrix) out[space] = Float32Array.from(matrix);
  return out;
}
