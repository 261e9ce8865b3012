// `npm run bench:partition`: the shader partitioners (src/rsl/partition) on generated shader graphs of
// 100 to 5,000 operations under two resource profiles, and on the shader corpus under the tiny one:
// passes, predicted cost (the cost model's operation units per vertex) and partitioning time per
// algorithm, with the exponent of time against operations fitted by least squares on log-log. An
// algorithm whose run passes --cap seconds is not run on larger graphs. Then on the GPU (Dawn), for
// a generated surface of --terms layered noise terms with three lights: the single kernel under the
// default profile against each algorithm's passes under the tiny one: pipeline creation
// (createShaderModule + createComputePipelineAsync, summed over the passes, with Mesa's shader
// cache off so it is a cold compile) and the GPU time of shading --grids 16 × 16 grids (timestamp
// queries where the adapter has them, else submit to done; median of 5 after a warm-up run).
// Usage: npm run bench:partition [-- --cap 20 --sizes 100,200,500,1000,2000,5000 --terms 24 --grids 256 --no-gpu | --gpu-only]
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { dispatchPasses } from '../src/reyes/shading/multipass.ts';
import { gridBindings } from '../test/reyes/partition-grids.ts';
import { randomGraph } from '../test/rsl/partition/random-graphs.ts';
import { contractGroups } from '../src/rsl/partition/graph.ts';
import type { PartitionGraph } from '../src/rsl/partition/graph.ts';
import { DEFAULT_COSTS, TINY_RESOURCES } from '../src/rsl/partition/model.ts';
import type { ResourceModel } from '../src/rsl/partition/model.ts';
import { GraphFacts } from '../src/rsl/partition/passes.ts';
import type { Partition } from '../src/rsl/partition/passes.ts';
import { rds } from '../src/rsl/partition/rds.ts';
import { rdsH } from '../src/rsl/partition/rds-h.ts';
import { mrds } from '../src/rsl/partition/mrds.ts';
import { dp } from '../src/rsl/partition/dp.ts';
import { compilePipeline } from '../src/rsl/compile.ts';
import type { CompiledPipeline, PipelineDescription } from '../src/rsl/compile.ts';
import { checkSource } from '../src/rsl/frontend.ts';

const { values: options } = parseArgs({
  options: {
    cap: { type: 'string', default: '20' }, sizes: { type: 'string', default: '100,200,500,1000,2000,5000' },
    terms: { type: 'string', default: '24' }, grids: { type: 'string', default: '256' }, 'no-gpu': { type: 'boolean', default: false }, 'gpu-only': { type: 'boolean', default: false },
  },
});
const capMs = Number(options.cap) * 1000;
const sizes = options.sizes.split(',').map(Number);

const PROFILES: Record<string, ResourceModel> = { tiny: TINY_RESOURCES, medium: { ...TINY_RESOURCES, operations: 2000, liveValues: 64, outputs: 8 } };
type Name = 'rds_h' | 'rds' | 'mrds' | 'dp';
const NAMES: Name[] = ['rds_h', 'rds', 'mrds', 'dp'];

/** A generated shader of about `operations` operations (the generator averages 4.5 a node). */
function generated(operations: number): PartitionGraph {
  return randomGraph(operations, Math.round(operations / 4.5), { maxOutputs: 4 });
}

function run(name: Name, facts: GraphFacts, limits: ResourceModel, seeds: Partial<Record<Name, Partition>>): Partition | undefined {
  switch (name) {
    case 'rds_h':
      return rdsH(facts, DEFAULT_COSTS, limits);
    case 'rds':
      return rds(facts, DEFAULT_COSTS, limits);
    case 'mrds':
      return mrds(facts, DEFAULT_COSTS, limits);
    case 'dp':
      return dp(facts, DEFAULT_COSTS, limits, { seeds: [seeds.rds_h, seeds.mrds].filter((s): s is Partition => s !== undefined) });
  }
}

function fitExponent(points: { n: number; ms: number }[]): string {
  const usable = points.filter((p) => p.ms > 0.05);
  if (usable.length < 2) return '-';
  const xs = usable.map((p) => Math.log(p.n));
  const ys = usable.map((p) => Math.log(p.ms));
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  const slope = xs.reduce((s, x, k) => s + (x - mx) * (ys[k]! - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  return slope.toFixed(2);
}

for (const [profile, limits] of Object.entries(options['gpu-only'] ? {} : PROFILES)) {
  console.log(`\ngenerated shaders, ${profile} profile (${limits.operations} operations, ${limits.liveValues} live values, ${limits.outputs} outputs a pass)`);
  console.log('operations  nodes  algorithm  passes  predicted cost   time ms');
  const times: Record<Name, { n: number; ms: number }[]> = { rds_h: [], rds: [], mrds: [], dp: [] };
  const capped = new Set<Name>();
  for (const size of sizes) {
    const graph = generated(size);
    const facts = new GraphFacts(contractGroups(graph).graph);
    const seeds: Partial<Record<Name, Partition>> = {};
    for (const name of NAMES) {
      // DP's linear search starts from RDS_h's and MRDS's partitions: it runs only where they did.
      if (capped.has(name) || (name === 'dp' && !seeds.mrds)) {
        console.log(`${String(size).padStart(10)} ${String(graph.nodes.length).padStart(6)}  ${name.padEnd(9)}  (skipped: a smaller graph took over ${options.cap} s${name === 'dp' ? ' or MRDS did not run' : ''})`);
        continue;
      }
      const start = performance.now();
      const partition = run(name, facts, limits, seeds);
      const ms = performance.now() - start;
      if (partition) seeds[name] = partition;
      times[name].push({ n: size, ms });
      if (ms > capMs) capped.add(name);
      console.log(`${String(size).padStart(10)} ${String(graph.nodes.length).padStart(6)}  ${name.padEnd(9)}  ${String(partition?.passes.length ?? '-').padStart(6)}  ${(partition?.cost ?? NaN).toFixed(0).padStart(14)}  ${ms.toFixed(1).padStart(9)}`);
    }
  }
  console.log(`fitted exponent of time against operations: ${NAMES.map((name) => `${name} ${fitExponent(times[name])}`).join(', ')}`);
}

// The corpus: each shader in a pipeline with a point light, under the tiny profile.
if (!options['gpu-only']) console.log('\ncorpus under the tiny profile (auto): passes, predicted cost, partitioning ms');
for (const file of options['gpu-only'] ? [] : readdirSync('shaders/corpus').filter((f) => f.endsWith('.sl')).sort()) {
  const source = readFileSync(`shaders/corpus/${file}`, 'utf8');
  const shader = checkSource(source, file, {}).ast.shaders[0];
  if (!shader || shader.shaderKind === 'imager') continue;
  const ref = { source, file, name: shader.name };
  const description: PipelineDescription = {
    surface: shader.shaderKind === 'surface' ? ref : 'plastic', lights: [...(shader.shaderKind === 'light' ? [ref] : []), 'pointlight'],
    ...(shader.shaderKind === 'displacement' ? { displacement: ref } : {}), ...(shader.shaderKind === 'volume' ? { atmosphere: ref } : {}),
  };
  try {
    const compiled = compilePipeline({ ...description, partition: { resources: TINY_RESOURCES } });
    const m = compiled.multipass;
    const whole = compiled.diagnostics.find((d) => d.severity === 'warning' && d.message.includes('runs as one pass'));
    console.log(`${file.padEnd(20)} ${m ? `${m.passes.length} passes (${m.algorithm}), cost ${m.cost.toFixed(0)}, ${m.milliseconds.toFixed(0)} ms` : whole ? `one pass: ${whole.message.replace(/^the kernel runs as one pass: /, '')}` : 'fits one pass'}`);
  } catch (error) {
    console.log(`${file.padEnd(20)} ${(error as Error).message.split('\n')[0]}`);
  }
}

// The GPU: compile and run time of one large generated surface, in one pass and split.
if (!options['no-gpu']) await gpuTimes(Number(options.terms), Number(options.grids));

/** A surface of `terms` layered noise terms (each a few dozen operations), lit by plastic's lights. */
function layeredSurface(terms: number): string {
  const body = [...Array(terms).keys()].map((k) => {
    const f = (1.3 + 0.37 * k).toFixed(2);
    const w = (1 / (1 + 0.5 * k)).toFixed(3);
    return k % 3 === 0
      ? `  c += ${w} * color(noise(pp * ${f} + ${k}.5));`
      : k % 3 === 1
        ? `  c += ${w} * color(smoothstep(0.3, 0.7, noise(pp * ${f})), abs(sin(${f} * xcomp(pp) + float noise(pp * ${f} + 3))), 0.5);`
        : `  c = mix(c, color(noise(pp * ${f} - ${k}.25)), ${w} * float noise(pp * ${(0.5 * Number(f)).toFixed(2)}));`;
  });
  return [
    'surface layered(float Ka = 1, Kd = .5, Ks = .5, roughness = .1) {',
    '  point pp = transform("shader", P);',
    '  color c = 0;',
    ...body,
    '  normal Nf = faceforward(normalize(N), I);',
    '  Oi = Os;',
    '  Ci = Os * (c * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, -normalize(I), roughness));',
    '}',
  ].join('\n');
}

async function gpuTimes(terms: number, grids: number): Promise<void> {
  // A cold compile each time: Mesa's on-disk cache would answer a second run (set before the driver loads).
  process.env['MESA_SHADER_CACHE_DISABLE'] = 'true';
  const gpu = new GpuRuntime(await acquireGpu());
  // The driver's first pipeline pays for its own start-up: not the first kernel's cost.
  const warmUp = gpu.device.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' });
  await gpu.device.createComputePipelineAsync({ layout: 'auto', compute: { module: warmUp, entryPoint: 'main' } });
  const description: PipelineDescription = { surface: { source: layeredSurface(terms), file: 'layered.sl', name: 'layered' }, lights: ['ambientlight', 'distantlight', 'pointlight'] };
  const single = compilePipeline(description);
  console.log(`\nGPU (${gpu.context.adapter.description}): a generated surface of ${terms} noise terms (${single.code.length} characters of WGSL), three lights, ${grids} grids of 16 × 16`);
  console.log('kernel                passes  intermediate floats  predicted cost  partition ms  pipeline compile ms  GPU ms (median of 5)');
  let clock = 'timestamp queries';
  const variants: { name: string; compiled: CompiledPipeline }[] = [{ name: 'single (default)', compiled: single }];
  for (const algorithm of ['rds', 'rds_h', 'mrds', 'dp'] as const) {
    variants.push({ name: `${algorithm} (tiny)`, compiled: compilePipeline({ ...description, partition: { algorithm, resources: TINY_RESOURCES } }) });
  }
  for (const { name, compiled } of variants) {
    const m = compiled.multipass;
    const kernels = m ? m.passes : [{ code: compiled.code, entryPoint: compiled.entryPoint }];
    // Not through the kernel cache: each pipeline is created here and timed.
    const compileStart = performance.now();
    const pipelines: GPUComputePipeline[] = [];
    for (const [p, kernel] of kernels.entries()) {
      // Named in the text, so Dawn's cache of modules by source cannot answer with another variant's
      // pipeline (MRDS and DP often find the same partition).
      const module = gpu.device.createShaderModule({ label: `${name} pass ${p + 1}`, code: `// ${name} pass ${p + 1}\n${kernel.code}` });
      pipelines.push(await gpu.device.createComputePipelineAsync({ label: `${name} pass ${p + 1}`, layout: 'auto', compute: { module, entryPoint: kernel.entryPoint } }));
    }
    const compileMs = performance.now() - compileStart;
    const { bindings, release } = gridBindings(gpu, compiled, grids);
    const times: number[] = [];
    try {
      for (let run = 0; run < 6; run++) {
        const recorder = gpu.recorder(`bench ${name}`, { profile: true });
        if (m) dispatchPasses(gpu, recorder, m, pipelines, bindings, grids, compiled.layout.maxVertices);
        else recorder.dispatch(pipelines[0]!, bindings, grids);
        const start = performance.now();
        await recorder.submit();
        const wall = performance.now() - start;
        const stamped = recorder.timings?.reduce((sum, t) => sum + t.milliseconds, 0);
        if (stamped === undefined) clock = 'submit to done, wall';
        if (run > 0) times.push(stamped ?? wall);
      }
    } finally {
      release();
    }
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(20)}  ${String(kernels.length).padStart(6)}  ${String(m?.intermediateFloats ?? 0).padStart(19)}  ${(m ? m.cost.toFixed(0) : '-').padStart(14)}  ${(m ? m.milliseconds.toFixed(0) : '-').padStart(12)}  ${compileMs.toFixed(0).padStart(19)}  ${times[2]!.toFixed(1).padStart(8)}`);
  }
  console.log(`GPU time by ${clock}`);
  gpu.allocator.trim();
  gpu.context.destroy();
}
