// `npm run check:partition`: issue 18's check over the whole shader corpus (shaders/corpus/). Each
// shader in its role (test/reyes/partition-grids.ts corpusPipeline: a surface under ambient, distant
// and point lights, a displacement under plastic, a light on plastic, a volume as matte's
// atmosphere) is compiled under the default resource profile (one pass) and under the tiny one
// (split into passes), both kernels shade the same four 16 × 16 grids of a lit sphere patch on Dawn
// (the passes through the shade stage's dispatcher, src/reyes/shading/multipass.ts), and every
// grid variable the pipeline writes back must agree within 1/255. Prints per shader: passes, the
// algorithm (or why it is not split), the largest difference and PASS/FAIL; exits 1 on a failure, a
// shader that does not compile under either profile (the renderer would fall back to the default
// surface) or a pipeline that shades nothing. Imager kernels are never partitioned (compile.ts:
// they run alone on tiles of pixels); they are compiled under the tiny profile to show they still
// compile, as one pass.
// Usage: npm run check:partition [-- --only wood,texmap] [--algorithm auto|rds|rds_h|mrds|dp]
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { compilePipeline, RslCompileError } from '../src/rsl/index.ts';
import type { CompiledPipeline } from '../src/rsl/index.ts';
import { PARTITION_ALGORITHMS, TINY_RESOURCES } from '../src/rsl/partition/index.ts';
import type { PartitionAlgorithm } from '../src/rsl/partition/index.ts';
import { corpusPipeline, corpusShader, gridDifference, gridRecords, ROOT, shadeGrids } from '../test/reyes/partition-grids.ts';

const { values: options } = parseArgs({ options: { only: { type: 'string' }, algorithm: { type: 'string', default: 'auto' } } });
const algorithm = options.algorithm as PartitionAlgorithm;
if (!PARTITION_ALGORITHMS.includes(algorithm)) throw new Error(`--algorithm: one of ${PARTITION_ALGORITHMS.join(', ')}`);
const only = options.only?.split(',');
const names = readdirSync(path.join(ROOT, 'shaders/corpus')).filter((f) => f.endsWith('.sl')).map((f) => f.slice(0, -3)).filter((n) => !only || only.includes(n)).sort();

const TOLERANCE = 1 / 255;
const gpu = new GpuRuntime(await acquireGpu());
console.log(`${names.length} corpus shaders, tiny profile (${TINY_RESOURCES.operations} operations, ${TINY_RESOURCES.liveValues} live values, ${TINY_RESOURCES.outputs} outputs a pass) against one pass under the default profile, ${algorithm}; ${gpu.context.adapter.description}`);
console.log(`${'shader'.padEnd(16)} ${'role'.padEnd(12)} passes  ${'split'.padEnd(40)} ${'max diff'.padStart(9)}  result   time s`);
const failures: string[] = [];
/** Shaders the tiny profile leaves in one pass though they pass its budgets, and why. */
const unsplit: string[] = [];
let splits = 0;
const started = performance.now();

function compile(description: ReturnType<typeof corpusPipeline>, profile: string): CompiledPipeline | string {
  try {
    return compilePipeline(description);
  } catch (error) {
    if (!(error instanceof RslCompileError)) throw error;
    return `does not compile under the ${profile} profile (the renderer would use the default surface): ${error.message.split('\n')[0]}`;
  }
}

for (const name of names) {
  const start = performance.now();
  const shader = corpusShader(name);
  const description = corpusPipeline(shader);
  const row = (passes: string, split: string, diff: string, result: string): void =>
    console.log(`${name.padEnd(16)} ${shader.kind.padEnd(12)} ${passes.padStart(6)}  ${split.slice(0, 40).padEnd(40)} ${diff.padStart(9)}  ${result.padEnd(7)} ${((performance.now() - start) / 1000).toFixed(1).padStart(6)}`);
  const fail = (why: string, passes = '-', split = '-'): void => {
    failures.push(`${name}: ${why}`);
    row(passes, split, '-', 'FAIL');
  };
  const single = compile(description, 'default');
  if (typeof single === 'string') {
    fail(single);
    continue;
  }
  const tiny = compile({ ...description, partition: { algorithm, resources: TINY_RESOURCES } }, 'tiny');
  if (typeof tiny === 'string') {
    fail(tiny);
    continue;
  }
  if (single.multipass) {
    fail(`split into ${single.multipass.passes.length} passes under the default profile`);
    continue;
  }
  if (shader.kind === 'imager') {
    row('1', 'no: imager kernels are never split', '-', 'PASS');
    continue;
  }
  const passes = tiny.multipass?.passes.length ?? 1;
  const why = tiny.diagnostics.find((d) => d.severity === 'warning' && d.message.includes('runs as one pass'));
  const split = tiny.multipass ? `${tiny.multipass.algorithm}, ${tiny.multipass.intermediateFloats} floats saved` : why ? `no: ${why.message.replace(/^the kernel runs as one pass: /, '')}` : 'no: fits one tiny pass';
  try {
    const a = await shadeGrids(gpu, single, false);
    const b = tiny.multipass ? await shadeGrids(gpu, tiny, true) : a;
    const difference = gridDifference(single, gridRecords(single), a, b);
    if (tiny.multipass) splits++;
    if (why) unsplit.push(`${name}: ${why.message}`);
    if (!difference.changed) fail('the pipeline changed no written grid variable (nothing was compared)', String(passes), split);
    else if (difference.max > TOLERANCE) fail(`differs by ${difference.max} at ${difference.at}`, String(passes), split);
    else row(String(passes), split, difference.max.toExponential(1), 'PASS');
  } catch (error) {
    fail(`shading failed: ${(error as Error).message.split('\n')[0]}`, String(passes), split);
  }
}

console.log(`\n${names.length - failures.length} of ${names.length} pass, ${splits} split into several passes, in ${((performance.now() - started) / 1000).toFixed(0)} s`);
for (const note of unsplit) console.log(`one pass, over the tiny budgets: ${note}`);
for (const failure of failures) console.log(`FAIL ${failure}`);
gpu.allocator.trim();
gpu.context.destroy();
process.exitCode = failures.length > 0 ? 1 : 0;
