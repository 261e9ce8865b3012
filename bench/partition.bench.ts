// `npm run bench:partition`: the shader partitioners (src/rsl/partition) on generated shader graphs of
// 100 to 5,000 operations under two resource profiles, and on the shader corpus under the tiny one:
// passes, predicted cost (the cost model's operation units per vertex) and partitioning time per
// algorithm, with the exponent of time against operations fitted by least squares on log-log. An
// algorithm whose run passes --cap seconds is not run on larger graphs. CPU only: no GPU timings.
// Usage: npm run bench:partition [-- --cap 20 --sizes 100,200,500,1000,2000,5000]
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
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
import type { PipelineDescription } from '../src/rsl/compile.ts';
import { checkSource } from '../src/rsl/frontend.ts';

const { values: options } = parseArgs({ options: { cap: { type: 'string', default: '20' }, sizes: { type: 'string', default: '100,200,500,1000,2000,5000' } } });
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

for (const [profile, limits] of Object.entries(PROFILES)) {
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
console.log('\ncorpus under the tiny profile (auto): passes, predicted cost, partitioning ms');
for (const file of readdirSync('shaders/corpus').filter((f) => f.endsWith('.sl')).sort()) {
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
    console.log(`${file.padEnd(20)} ${m ? `${m.passes.length} passes (${m.algorithm}), cost ${m.cost.toFixed(0)}, ${m.milliseconds.toFixed(0)} ms` : 'fits one pass'}`);
  } catch (error) {
    console.log(`${file.padEnd(20)} ${(error as Error).message.split('\n')[0]}`);
  }
}
