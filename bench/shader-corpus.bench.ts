// Compile times of the public-style shader corpus (shaders/corpus/): per shader, the RSL compiler's
// time for the pipeline it is rendered in (surfaces and displacements with a distant and a point
// light, lights with plastic, volumes with plastic as atmosphere, imagers alone), and per kernel
// Dawn's pipeline creation (shader module + createComputePipelineAsync). Prints the median and the
// maximum of each. Mesa keeps compiled pipelines in ~/.cache/mesa_shader_cache, so a second run
// measures a warm cache; MESA_SHADER_CACHE_DISABLE=true in the environment measures a cold one.
// Usage: node --import ./src/node/register.js bench/shader-corpus.bench.ts [--repeat 3]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { checkSource, compilePipeline } from '../src/rsl/index.ts';
import type { PipelineDescription } from '../src/rsl/index.ts';

const { values: options } = parseArgs({ options: { repeat: { type: 'string', default: '3' } } });
const repeat = Number(options.repeat);
const folder = path.resolve(import.meta.dirname, '../shaders/corpus');
const files = readdirSync(folder).filter((f) => f.endsWith('.sl')).sort();

function description(file: string, source: string): PipelineDescription {
  const kind = checkSource(source, file).shaders[0]?.shader.shaderKind;
  const ref = { source, file };
  const lights = ['distantlight', 'pointlight'];
  switch (kind) {
    case 'surface':
      return { surface: ref, lights };
    case 'displacement':
      return { surface: 'plastic', displacement: ref, lights };
    case 'light':
      return { surface: 'plastic', lights: [ref] };
    case 'volume':
      return { surface: 'plastic', atmosphere: ref, lights };
    default:
      return { imager: ref };
  }
}

function stats(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`;
}

const compileTimes: number[] = [];
const kernels: { name: string; code: string; entryPoint: string }[] = [];
const compileFailures: string[] = [];
const dawnFailures: string[] = [];
for (const file of files) {
  const source = readFileSync(path.join(folder, file), 'utf8');
  const d = description(file, source);
  const times: number[] = [];
  try {
    for (let k = 0; k < repeat; k++) {
      const start = performance.now();
      const compiled = compilePipeline(d);
      times.push(performance.now() - start);
      if (k === 0) kernels.push({ name: file, code: compiled.code, entryPoint: compiled.entryPoint });
    }
    compileTimes.push(Math.min(...times));
  } catch (error) {
    compileFailures.push(`${file}: ${String(error).split('\n')[0]}`);
  }
}

const gpu = await acquireGpu();
const device = gpu.device;
const pipelineTimes: { name: string; ms: number }[] = [];
for (const kernel of kernels) {
  const start = performance.now();
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code: kernel.code, label: kernel.name });
  await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: kernel.entryPoint } });
  const error = await device.popErrorScope();
  if (error) dawnFailures.push(`${kernel.name}: ${error.message.split('\n')[0]}`);
  pipelineTimes.push({ name: kernel.name, ms: performance.now() - start });
}
gpu.destroy();

console.log(`shaders: ${files.length}, compiled: ${compileTimes.length}, kernels accepted by Dawn: ${kernels.length - dawnFailures.length}`);
console.log(`RSL compile time per shader (best of ${repeat}): ${stats(compileTimes)}`);
const cache = process.env.MESA_SHADER_CACHE_DISABLE === 'true' ? 'Mesa shader cache disabled' : 'Mesa shader cache as found';
console.log(`Dawn pipeline creation per kernel (${cache}): ${stats(pipelineTimes.map((p) => p.ms))}`);
const slowest = [...pipelineTimes].sort((a, b) => b.ms - a.ms).slice(0, 3);
console.log(`slowest pipelines: ${slowest.map((p) => `${p.name} ${p.ms.toFixed(0)} ms`).join(', ')}`);
for (const f of [...compileFailures, ...dawnFailures]) console.log(`FAILED ${f}`);
