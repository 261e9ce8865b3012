// Runs a compiled shading kernel on one small grid and reads the grid back (test helper).
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import type { CompiledPipeline } from '../../src/rsl/compile.ts';
import { frameUniformWords, GRID_INFO } from '../../src/layout/grid-layout.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { usesTextures } from '../../src/texture/texture-wgsl.ts';
import { packAtlas } from '../../src/texture/texture-atlas.ts';
import { ATLAS, FEEDBACK } from '../../src/layout/texture-pages.ts';

export type GridValues = Record<string, number[][]>;

/** Shades one nu × nv grid: `values[name][vertex]` are the inputs; returns every variable per vertex. */
export interface ShadeGridOptions {
  /** The atlas slot of a texture map name (packParameters) and the atlas itself (binding 5). */
  textureSlot?: (name: string) => number;
  textures?: Uint32Array;
}

export async function shadeGrid(
  runtime: GpuRuntime, compiled: CompiledPipeline, nu: number, nv: number, values: GridValues, overrides: Record<string, number[] | string> = {}, options: ShadeGridOptions = {},
): Promise<GridValues> {
  const { layout } = compiled;
  const record = new Float32Array(layout.recordFloats);
  for (const variable of layout.variables) {
    const vertexValues = values[variable.name];
    if (!vertexValues) continue;
    for (let k = 0; k < nu * nv; k++) {
      for (let c = 0; c < variable.components; c++) record[variable.offset + c * layout.maxVertices + k] = vertexValues[k]?.[c] ?? 0;
    }
  }
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const { allocator } = runtime;
  const grids = allocator.createBufferWithData('grids', record, usage);
  const info = allocator.createBufferWithData('gridInfo', new Uint32Array([nu, nv, 0, 0].concat(new Array(GRID_INFO.words - 4).fill(0))), usage);
  const params = allocator.createBufferWithData('params', packParameters(compiled, overrides, options.textureSlot), usage);
  // A kernel with texture lookups always gets an atlas: without maps, an empty one (every lookup the fill value).
  const atlas = options.textures ?? (usesTextures(compiled.code) ? packAtlas([]) : undefined);
  const textures = atlas ? allocator.createBufferWithData('textures', atlas, usage) : undefined;
  // Every tile of the atlas is resident, so the feedback only counts lookups.
  const feedback = atlas ? allocator.createBufferWithData('texture feedback', new Uint32Array(FEEDBACK.requests + 2 * atlas[ATLAS.bitmapWords]! + 1), usage) : undefined;
  const frame = allocator.createBufferWithData('frame', frameUniformWords(1), GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  try {
    const pipeline = await runtime.kernels.pipeline({ label: 'rsl test', code: compiled.code, entryPoint: compiled.entryPoint });
    const recorder = runtime.recorder('rsl test');
    recorder.dispatch(pipeline, textures && feedback ? { 0: grids, 1: info, 2: params, 3: frame, 5: textures, 6: feedback } : { 0: grids, 1: info, 2: params, 3: frame }, 1);
    await recorder.submit();
    const out = new Float32Array(await runtime.read(grids, record.byteLength));
    const result: GridValues = {};
    for (const variable of layout.variables) {
      result[variable.name] = [...Array(nu * nv).keys()].map((k) => [...Array(variable.components).keys()].map((c) => out[variable.offset + c * layout.maxVertices + k]!));
    }
    return result;
  } finally {
    for (const b of [grids, info, params, frame, ...(textures && feedback ? [textures, feedback] : [])]) allocator.release(b);
  }
}
