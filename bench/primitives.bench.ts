// `npm run bench:primitives`: throughput of the GPU scan, compaction and 64-bit key-value radix sort
// against the plain-TypeScript versions (src/gpu/cpu-primitives.ts), measured in the same run; then
// issue 14's generated scenes at 1280×720, PixelSamples 4 4: a SubdivisionMesh of about 100,000
// faces, a hair ball of 100,000 cubic curves and a cloud of 1,000,000 points, each under a 64 MiB
// budget and the default one: time, records, micropolygons and peak GPU memory.
// Usage: npm run bench:primitives [-- --min 16 --max 24 --repeat 5 --only gpu,subdivision,hair,points
//   --faces 100000 --curves 100000 --points 1000000 --budgets 64,default --stats]
// --stats adds a row per render with the process's CPU time (lavapipe's threads included), each
// stage's wall time and how the schedulers cut the frame.
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { Compact } from '../src/gpu/compact.ts';
import { compactCpu, exclusiveScanCpu, radixSortCpu } from '../src/gpu/cpu-primitives.ts';
import { RadixSort } from '../src/gpu/radix-sort.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { Scan } from '../src/gpu/scan.ts';
import { BudgetTooSmallError } from '../src/reyes/errors.ts';
import { renderFrame } from '../src/reyes/render-frame.ts';
import { parseRib } from '../src/rib/index.ts';

const { values: options } = parseArgs({
  options: {
    min: { type: 'string', default: '16' },
    max: { type: 'string', default: '24' },
    step: { type: 'string', default: '2' },
    repeat: { type: 'string', default: '5' },
    only: { type: 'string', default: 'gpu,subdivision,hair,points' },
    faces: { type: 'string', default: '100000' },
    curves: { type: 'string', default: '100000' },
    points: { type: 'string', default: '1000000' },
    budgets: { type: 'string', default: '64,default' },
    stats: { type: 'boolean', default: false },
  },
});
const only = new Set(options.only.split(','));
const repeat = Number(options.repeat);

/** Median wall time in ms of `repeat` runs, after one untimed warm-up run. */
async function median(work: () => Promise<void> | void): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function randomWords(count: number, seed: number): Uint32Array {
  const words = new Uint32Array(count);
  let state = seed;
  for (let i = 0; i < count; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[i] = state >>> 0;
  }
  return words;
}

const context = await acquireGpu();
const gpu = new GpuRuntime(context);
const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const scan = new Scan(gpu);
const compact = new Compact(gpu);
const sort = new RadixSort(gpu);

console.log(`GPU: ${context.adapter.description || context.adapter.vendor} (${context.adapter.runtime})`);
console.log(`CPU: plain TypeScript on Node ${process.version}; median of ${repeat} runs after a warm-up; ` +
  'GPU times include submit and wait, not upload or read-back');
if (only.has('gpu')) {
  console.log('');
  const header = ['n', 'primitive', 'GPU Melem/s', 'CPU Melem/s', 'GPU/CPU'];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);

  function row(log2: number, name: string, count: number, gpuMs: number, cpuMs: number) {
    const gpuRate = count / gpuMs / 1000;
    const cpuRate = count / cpuMs / 1000;
    console.log(`| 2^${log2} | ${name} | ${gpuRate.toFixed(1)} | ${cpuRate.toFixed(1)} | ${(gpuRate / cpuRate).toFixed(2)} |`);
  }

  for (let log2 = Number(options.min); log2 <= Number(options.max); log2 += Number(options.step)) {
    const count = 2 ** log2;
    const words = randomWords(count, log2 * 7919 + 1).map((w) => w & 0xff);
    const flags = randomWords(count, log2 * 31 + 3).map((w) => w & 1);
    const keys = randomWords(2 * count, log2 * 131 + 5);
    const indices = new Uint32Array(count).map((_, i) => i);

    const input = gpu.allocator.createBufferWithData('bench input', words, usage);
    const output = gpu.allocator.createBuffer({ label: 'bench output', size: count * 4, usage });
    const kept = gpu.allocator.createBuffer({ label: 'bench kept', size: 4, usage });
    const flagBuffer = gpu.allocator.createBufferWithData('bench flags', flags, usage);
    const keyBuffer = gpu.allocator.createBufferWithData('bench keys', keys, usage);
    const valueBuffer = gpu.allocator.createBufferWithData('bench values', indices, usage);

    const scanGpu = await median(() => scan.run({ input, output, count }));
    const cpuOut = new Uint32Array(count);
    const scanCpu = await median(() => void exclusiveScanCpu(words, cpuOut));
    row(log2, 'exclusive scan', count, scanGpu, scanCpu);

    const compactGpu = await median(() => compact.run({ flags: flagBuffer, values: input, output, count, keptCount: kept }));
    const compactCpuMs = await median(() => void compactCpu(flags, words, cpuOut));
    row(log2, 'compact', count, compactGpu, compactCpuMs);

    // The sort is in place, so every timed run after the first sorts sorted keys: the work per pass
    // of an LSD radix sort does not depend on the order, and the CPU side is measured the same way.
    const sortGpu = await median(() => sort.run({ keys: keyBuffer, values: valueBuffer, count }));
    const cpuKeys = keys.slice();
    const cpuValues = indices.slice();
    const sortCpu = await median(() => radixSortCpu(cpuKeys, cpuValues));
    row(log2, '64-bit key-value sort', count, sortGpu, sortCpu);

    for (const buffer of [input, output, kept, flagBuffer, keyBuffer, valueBuffer]) gpu.allocator.release(buffer);
    gpu.allocator.trim();
  }
}
if (only.has('gpu')) {
  console.log('');
  console.log(`peak GPU memory: ${(gpu.allocator.peak / 2 ** 20).toFixed(1)} MiB`);
}

/** A camera 3.4 units from the origin looking down at it, 1280×720, PixelSamples 4 4, and `world`. */
function benchScene(world: string): string {
  return `Format 1280 720 1\nPixelSamples 4 4\nProjection "perspective" "fov" 40\nTranslate 0 0 3.4\nRotate -55 1 0 0
WorldBegin\n${world}\nWorldEnd\n`;
}

/**
 * A torus of about `faces` control faces (R 1, r 0.35), every 1,563rd quad cut into two triangles so
 * that the mesh has extraordinary vertices (valence 5 at the cut's ends) and non-quads, seen from
 * above at an angle, default surface under the default light.
 */
function torusScene(faces: number): { rib: string; faces: number; triangles: number } {
  const nu = Math.round(Math.sqrt(faces * 2.5));
  const nv = Math.round(faces / nu);
  const points: string[] = [];
  for (let j = 0; j < nv; j++) {
    for (let i = 0; i < nu; i++) {
      const [u, v] = [(2 * Math.PI * i) / nu, (2 * Math.PI * j) / nv];
      const ring = 1 + 0.35 * Math.cos(v);
      points.push(`${(ring * Math.cos(u)).toFixed(6)} ${(ring * Math.sin(u)).toFixed(6)} ${(0.35 * Math.sin(v)).toFixed(6)}`);
    }
  }
  const counts: number[] = [];
  const indices: number[] = [];
  const at = (i: number, j: number) => (j % nv) * nu + (i % nu);
  for (let j = 0; j < nv; j++) {
    for (let i = 0; i < nu; i++) {
      const [a, b, c, d] = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
      if ((j * nu + i) % 1563 === 781) {
        counts.push(3, 3);
        indices.push(a, b, c, a, c, d);
      } else {
        counts.push(4);
        indices.push(a, b, c, d);
      }
    }
  }
  const rib = benchScene(`SubdivisionMesh "catmull-clark" [${counts.join(' ')}] [${indices.join(' ')}] "P" [${points.join(' ')}]`);
  return { rib, faces: counts.length, triangles: counts.filter((n) => n === 3).length };
}

/** `count` directions uniform on the unit sphere, from a fixed seed. */
function sphereDirections(count: number, seed: number): Float64Array {
  const words = randomWords(2 * count, seed);
  const out = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) {
    const z = 2 * (words[2 * i]! / 2 ** 32) - 1;
    const phi = (2 * Math.PI * words[2 * i + 1]!) / 2 ** 32;
    const r = Math.sqrt(1 - z * z);
    out.set([r * Math.cos(phi), r * Math.sin(phi), z], 3 * i);
  }
  return out;
}

/**
 * A hair ball: `count` cubic Bézier curves (one segment each) from radius 0.45 out to 0.95 along
 * random directions, bent sideways, 0.002 wide (about 0.6 pixel at the ball's centre), facing the
 * camera.
 */
function hairScene(count: number): string {
  const directions = sphereDirections(count, 12345);
  const bends = sphereDirections(count, 777);
  const points: string[] = [];
  for (let i = 0; i < count; i++) {
    const [dx, dy, dz] = directions.subarray(3 * i, 3 * i + 3);
    const [bx, by, bz] = bends.subarray(3 * i, 3 * i + 3);
    for (let k = 0; k < 4; k++) {
      const r = 0.45 + (0.5 * k) / 3;
      const bend = 0.04 * k * k;
      points.push(`${(r * dx! + bend * bx!).toFixed(5)} ${(r * dy! + bend * by!).toFixed(5)} ${(r * dz! + bend * bz!).toFixed(5)}`);
    }
  }
  return benchScene(`Surface "matte"\nCurves "cubic" [${new Array(count).fill(4).join(' ')}] "nonperiodic" "P" [${points.join(' ')}] "constantwidth" [0.002]`);
}

/** A cloud of `count` points uniform in the unit ball, 0.004 wide (about 1.2 pixels at the centre). */
function pointsScene(count: number): string {
  const directions = sphereDirections(count, 4242);
  const radii = randomWords(count, 99);
  const points: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = Math.cbrt(radii[i]! / 2 ** 32);
    points.push(`${(r * directions[3 * i]!).toFixed(5)} ${(r * directions[3 * i + 1]!).toFixed(5)} ${(r * directions[3 * i + 2]!).toFixed(5)}`);
  }
  return benchScene(`Surface "matte"\nPoints "P" [${points.join(' ')}] "constantwidth" [0.004]`);
}

/** Renders the parsed scene's first frame under each of --budgets and prints a row for each. */
async function renderTable(title: string, rib: string): Promise<void> {
  const parseStart = performance.now();
  const scene = await parseRib(rib);
  const parseMs = performance.now() - parseStart;
  const frame = scene.frames[0]!;
  console.log('');
  console.log(`${title}, 1280×720, PixelSamples 4 4 (RIB of ${(rib.length / 2 ** 20).toFixed(1)} MiB parsed in ${parseMs.toFixed(0)} ms)`);
  const header = ['budget', 'time ms', 'convert ms', 'records', 'micropolygons', 'dicing regions', 'peak MiB', 'warnings'];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  const details: string[] = [];
  for (const budget of options.budgets.split(',')) {
    gpu.allocator.trim();
    gpu.allocator.resetPeak();
    const budgetBytes = budget === 'default' ? undefined : Number(budget) * 2 ** 20;
    const label = budget === 'default' ? `default (${(gpu.allocator.budget / 2 ** 20).toFixed(0)} MiB)` : `${budget} MiB`;
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    try {
      const { stats, warnings } = await renderFrame(gpu, frame, budgetBytes === undefined ? {} : { budgetBytes });
      const ms = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      const stage = stats.stageMs;
      details.push(`| ${label} | ${((cpu.user + cpu.system) / 1000).toFixed(0)} | ${stage.boundSplit.toFixed(0)} | ${stage.dice.toFixed(0)} | ` +
        `${stage.shade.toFixed(0)} | ${stage.sample.toFixed(0)} | ${stage.composite.toFixed(0)} | ${stats.boundSplitIterations} | ${stats.grids} | ` +
        `${stats.dicingSplits} | ${stats.samplingRegions} | ${stats.shadingBatches} | ${stats.samplePoints} |`);
      console.log(`| ${label} | ${ms.toFixed(0)} | ${stats.stageMs.convert.toFixed(0)} | ${stats.primitiveRecords} | ${stats.micropolygons} | ` +
        `${stats.dicingRegions} | ${(stats.peakBytes / 2 ** 20).toFixed(1)} | ${warnings.length ? warnings.join('; ') : 'none'} |`);
    } catch (error) {
      if (!(error instanceof BudgetTooSmallError)) throw error;
      console.log(`| ${label} | failed after ${(performance.now() - start).toFixed(0)} | | | | | | ${error.message} |`);
    }
  }
  if (!options.stats) return;
  console.log('');
  const statsHeader = ['budget', 'CPU ms', 'bound/split ms', 'dice ms', 'shade ms', 'sample ms', 'composite ms', 'bound/split iterations', 'grids',
    'dicing splits', 'sampling regions', 'shading batches', 'sample points'];
  console.log(`| ${statsHeader.join(' | ')} |`);
  console.log(`|${statsHeader.map(() => '---').join('|')}|`);
  for (const row of details) console.log(row);
}

if (only.has('subdivision')) {
  const torus = torusScene(Number(options.faces));
  await renderTable(`SubdivisionMesh torus of ${torus.faces} faces (${torus.triangles} triangles)`, torus.rib);
}
if (only.has('hair')) await renderTable(`Hair ball of ${Number(options.curves)} cubic curves 0.002 wide`, hairScene(Number(options.curves)));
if (only.has('points')) await renderTable(`Cloud of ${Number(options.points)} points 0.004 wide`, pointsScene(Number(options.points)));
context.destroy();
