// Shading a pipeline's kernel on grids of a lit sphere patch, in one pass or in the passes the
// compiler split it into (src/rsl/partition, run by src/reyes/shading/multipass.ts), and comparing
// the two: the helpers of test/reyes/multipass-kernels.test.ts and of `npm run check:partition`
// (bench/check-partition-corpus.ts). Kernels with texture lookups get an atlas of three small maps
// (a texture, a lat-long environment and a shadow map) named by the corpus's map parameters.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { checkSource } from '../../src/rsl/frontend.ts';
import type { CompiledPipeline, PipelineDescription } from '../../src/rsl/compile.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { frameUniformWords, GRID_INFO } from '../../src/layout/grid-layout.ts';
import { ATLAS, FEEDBACK } from '../../src/layout/texture-pages.ts';
import { dispatchPasses, passPipelines } from '../../src/reyes/shading/multipass.ts';
import { packAtlas } from '../../src/texture/texture-atlas.ts';
import { buildPyramid } from '../../src/texture/mipmap.ts';
import type { TextureKind, TextureMap } from '../../src/texture/texture-map.ts';
import { TEXTURE_BINDING, TEXTURE_FEEDBACK_BINDING, usesTextures } from '../../src/texture/texture-wgsl.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const GRIDS = 4;
export const SIDE = 16;

export type CorpusKind = 'surface' | 'displacement' | 'light' | 'volume' | 'imager';

export interface CorpusShader {
  source: string;
  file: string;
  name: string;
  kind: CorpusKind;
}

/** A shader of shaders/corpus by its file name without `.sl`. */
export function corpusShader(name: string): CorpusShader {
  const file = `${name}.sl`;
  const source = readFileSync(path.join(ROOT, 'shaders/corpus', file), 'utf8');
  const shader = checkSource(source, file, {}).ast.shaders[0];
  return { source, file, name: shader?.name ?? name, kind: (shader?.shaderKind ?? 'surface') as CorpusKind };
}

/** The pipeline a corpus shader is checked in: a surface with the lights of a plastic scene, a
 * displacement under plastic, a light lighting plastic, a volume as the atmosphere of matte, an
 * imager alone. */
export function corpusPipeline(shader: CorpusShader): PipelineDescription {
  const ref = { source: shader.source, file: shader.file, name: shader.name };
  const lights = ['ambientlight', 'distantlight', 'pointlight'];
  switch (shader.kind) {
    case 'surface':
      return { surface: ref, lights };
    case 'displacement':
      return { displacement: ref, surface: 'plastic', lights };
    case 'light':
      return { surface: 'plastic', lights: ['ambientlight', ref] };
    case 'volume':
      return { surface: 'matte', atmosphere: ref, lights: ['ambientlight', 'pointlight'] };
    case 'imager':
      return { imager: ref };
  }
}

/** Grid records of a patch of a sphere of radius 2 at z = 5, each grid a different part of it. */
export function gridRecords(compiled: CompiledPipeline, count = GRIDS): Float32Array {
  const { layout } = compiled;
  const data = new Float32Array(layout.recordFloats * count);
  for (let g = 0; g < count; g++) {
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

function testMap(kind: TextureKind, channels: number, side: number, texel: (x: number, y: number, c: number) => number): TextureMap {
  const data = new Float32Array(side * side * channels);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) for (let c = 0; c < channels; c++) data[(y * side + x) * channels + c] = texel(x, y, c);
  const options = { filter: 'box', swidth: 1, twidth: 1, swrap: 'periodic', twrap: 'periodic' } as const;
  // The shadow map looks along +z from the origin, orthographically over x, y in [-4, 4].
  const ortho = kind === 'shadow' ? { worldToScreen: [0.25, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], worldToCamera: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] } : {};
  return { kind, channels, levels: buildPyramid({ width: side, height: side, data }, channels, options), swrap: 'periodic', twrap: 'periodic', filter: 'box', swidth: 1, twidth: 1, ...ortho };
}

/** Atlas slots of the corpus's map parameters, and the maps. */
const MAP_SLOTS: Record<string, number> = { 'test.tex': 0, 'test.env': 1, 'test.shd': 2 };
const MAP_PARAMETERS: Record<string, string> = { texturename: 'test.tex', bumpname: 'test.tex', slidename: 'test.tex', envname: 'test.env', shadowname: 'test.shd' };
let atlas: Uint32Array | undefined;
function testAtlas(): Uint32Array {
  atlas ??= packAtlas([
    testMap('texture', 4, 16, (x, y, c) => [x / 15, y / 15, ((x * 3 + y * 5) % 7) / 7, 0.5 + 0.5 * ((x + y) % 2)][c]!),
    testMap('latlong', 3, 16, (x, y, c) => [0.2 + x / 20, 0.3 + y / 25, ((x * 5 + y) % 4) / 4][c]!),
    // Depths of 4.5 to 6: the patch (z 3 to 7) is partly behind them.
    testMap('shadow', 1, 16, (x, y) => 4.5 + ((x * 7 + y * 3) % 11) / 7),
  ]);
  return atlas;
}

export interface GridBindings {
  /** The kernel's bindings (0-3, and the atlas at 5 and 6 where `compiled.code` makes lookups). */
  bindings: Record<number, GPUBuffer>;
  /** The grid records uploaded at binding 0. */
  records: Float32Array;
  release(): void;
}

/** The buffers `compiled`'s kernel shades `count` grids of SIDE × SIDE vertices with, as the shade stage binds them. */
export function gridBindings(gpu: GpuRuntime, compiled: CompiledPipeline, count = GRIDS): GridBindings {
  const { allocator } = gpu;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const records = gridRecords(compiled, count);
  const grids = allocator.createBufferWithData('grids', records, usage);
  const info = new Uint32Array(count * GRID_INFO.words);
  for (let g = 0; g < count; g++) {
    info[g * GRID_INFO.words + GRID_INFO.nu] = SIDE;
    info[g * GRID_INFO.words + GRID_INFO.nv] = SIDE;
    info[g * GRID_INFO.words + GRID_INFO.recordBase] = g * compiled.layout.recordFloats;
  }
  const gridInfo = allocator.createBufferWithData('gridInfo', info, usage);
  const params = allocator.createBufferWithData('params', packParameters(compiled, MAP_PARAMETERS, (name) => MAP_SLOTS[name] ?? -1), usage);
  const frame = allocator.createBufferWithData('frame', frameUniformWords(count), GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  const buffers = [grids, gridInfo, params, frame];
  const bindings: Record<number, GPUBuffer> = { 0: grids, 1: gridInfo, 2: params, 3: frame };
  // As the shade stage does: the atlas and its feedback where the (whole) kernel makes lookups.
  if (usesTextures(compiled.code)) {
    const words = testAtlas();
    bindings[TEXTURE_BINDING] = allocator.createBufferWithData('textures', words, usage);
    bindings[TEXTURE_FEEDBACK_BINDING] = allocator.createBufferWithData('texture feedback', new Uint32Array(FEEDBACK.requests + 2 * words[ATLAS.bitmapWords]! + count), usage);
    buffers.push(bindings[TEXTURE_BINDING]!, bindings[TEXTURE_FEEDBACK_BINDING]!);
  }
  return { bindings, records, release: () => buffers.forEach((b) => allocator.release(b)) };
}

/**
 * Shades GRIDS grids of SIDE × SIDE vertices with `compiled`'s single kernel, or with its passes
 * (`multipass`), through the same dispatcher the shade stage uses; returns the grid records.
 */
export async function shadeGrids(gpu: GpuRuntime, compiled: CompiledPipeline, multipass: boolean): Promise<Float32Array> {
  const { bindings, records, release } = gridBindings(gpu, compiled);
  try {
    const recorder = gpu.recorder('partition grids');
    if (multipass) {
      const passes = compiled.multipass!;
      dispatchPasses(gpu, recorder, passes, await passPipelines(gpu, 'partition grids', passes), bindings, GRIDS, compiled.layout.maxVertices);
    } else {
      recorder.dispatch(await gpu.kernels.pipeline({ label: 'single pass', code: compiled.code, entryPoint: compiled.entryPoint }), bindings, GRIDS);
    }
    await recorder.submit();
    return new Float32Array(await gpu.read(bindings[0]!, records.byteLength));
  } finally {
    release();
  }
}

export interface GridDifference {
  /** The largest absolute difference over the compared variables (Infinity where one is NaN and the other not). */
  max: number;
  /** Where it is. */
  at: string;
  compared: number;
  /** The variables compared: those the single kernel writes back. */
  variables: string[];
  /** Some written colour or position differs from the input grid (the shader did something). */
  changed: boolean;
}

/** The largest difference between two shaded grid sets over the variables `compiled` writes back. */
export function gridDifference(compiled: CompiledPipeline, input: Float32Array, a: Float32Array, b: Float32Array): GridDifference {
  const { layout } = compiled;
  const variables = layout.variables.filter((x) => compiled.writes.includes(x.name));
  let max = 0;
  let at = '';
  let compared = 0;
  let changed = false;
  for (const variable of variables) {
    for (let g = 0; g < GRIDS; g++) {
      for (let k = 0; k < SIDE * SIDE; k++) {
        for (let c = 0; c < variable.components; c++) {
          const i = g * layout.recordFloats + variable.offset + c * layout.maxVertices + k;
          const [x, y] = [a[i]!, b[i]!];
          const d = Number.isNaN(x) || Number.isNaN(y) ? (Number.isNaN(x) && Number.isNaN(y) ? 0 : Infinity) : Math.abs(x - y);
          if (d > max) [max, at] = [d, `${variable.name}[${c}] grid ${g} vertex ${k}: ${x} vs ${y}`];
          changed ||= Math.abs(x - input[i]!) > 1e-4;
          compared++;
        }
      }
    }
  }
  return { max, at, compared, variables: variables.map((v) => v.name), changed };
}
