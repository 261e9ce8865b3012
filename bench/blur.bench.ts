// `npm run bench:blur`: the cost of motion blur and depth of field. One frame of 20 plastic spheres
// at 16 samples per pixel, rendered still, with every sphere moving (transformation blur), through
// a lens (depth of field) and with both; prints the median frame time of three renders and the
// process's CPU time in it (lavapipe renders on the CPU, so on a busy machine CPU time compares runs
// more steadily than wall time), the ratio to the still frame (accumulation would be about 16×), the
// micropolygons shaded (equal: grids are shaded once and moved for sampling) and the sample points
// per second.
// Usage: npm run bench:blur [-- --res 640x480 --samples 4 --runs 3]
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { renderFrame } from '../src/reyes/render-frame.ts';
import type { FrameStats } from '../src/reyes/stats.ts';
import { parseRib } from '../src/rib/index.ts';

const { values: options } = parseArgs({
  options: {
    res: { type: 'string', default: '640x480' },
    samples: { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
  },
});
const [width, height] = options.res.split('x').map(Number) as [number, number];
const samples = Number(options.samples);

function scene(motion: boolean, lens: boolean): string {
  let spheres = '';
  for (let k = 0; k < 20; k++) {
    const x = (k % 5) - 2;
    const y = Math.floor(k / 5) - 1.5;
    const z = 6 + (k % 3);
    const move = motion ? `MotionBegin [0 1] Translate 0 0 0 Translate ${0.15 + 0.05 * (k % 4)} ${0.05 * (k % 3)} 0 MotionEnd\n` : '';
    spheres += `AttributeBegin\nTranslate ${x * 1.1} ${y * 1.1} ${z}\n${move}Color [${0.3 + 0.035 * k} 0.5 ${0.9 - 0.03 * k}]\nSphere 0.5 -0.5 0.5 360\nAttributeEnd\n`;
  }
  return `Format ${width} ${height} 1
PixelSamples ${samples} ${samples}
Shutter 0 1
Projection "perspective" "fov" 50
${lens ? 'DepthOfField 2.8 0.5 7' : ''}
WorldBegin
LightSource "distantlight" 1 "intensity" [1.1] "from" [-1 1 -1] "to" [0 0 0]
LightSource "ambientlight" 2 "intensity" [0.15]
Surface "plastic"
${spheres}WorldEnd`;
}

const context = await acquireGpu();
const gpu = new GpuRuntime(context);

async function measure(label: string, motion: boolean, lens: boolean): Promise<{ ms: number; cpuMs: number; stats: FrameStats }> {
  const parsed = await parseRib(scene(motion, lens));
  const frame = parsed.frames[0]!;
  await renderFrame(gpu, frame); // kernel compilation
  const runs: { ms: number; cpuMs: number; stats: FrameStats }[] = [];
  for (let r = 0; r < Number(options.runs); r++) {
    gpu.allocator.trim();
    const cpu = process.cpuUsage();
    const { stats } = await renderFrame(gpu, frame);
    const used = process.cpuUsage(cpu);
    runs.push({ ms: stats.totalMs, cpuMs: (used.user + used.system) / 1000, stats });
  }
  runs.sort((a, b) => a.ms - b.ms);
  const median = runs[Math.floor(runs.length / 2)]!;
  const { stats } = median;
  const cpuMs = runs.map((r) => r.cpuMs).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  console.log(`${label.padEnd(24)} ${median.ms.toFixed(0).padStart(6)} ms (CPU ${cpuMs.toFixed(0)} ms), ${stats.micropolygons} micropolygons, ` +
    `${stats.verticesShaded} vertices shaded, ${stats.samplePoints} sample points (${((stats.samplePoints / median.ms) * 1000 / 1e6).toFixed(2)} M/s), ` +
    `sample stage ${stats.stageMs.sample.toFixed(0)} ms`);
  return { ...median, cpuMs };
}

console.log(`GPU: ${context.adapter.description || context.adapter.vendor} (${context.adapter.runtime})`);
console.log(`20 spheres at ${width}x${height}, ${samples}x${samples} samples per pixel; median of ${options.runs} renders`);
const still = await measure('still', false, false);
for (const [label, motion, lens] of [['motion blur', true, false], ['depth of field', false, true], ['motion blur + dof', true, true]] as const) {
  const blurred = await measure(label, motion, lens);
  console.log(`  ${(blurred.ms / still.ms).toFixed(2)}× the still frame (CPU ${(blurred.cpuMs / still.cpuMs).toFixed(2)}×); shaded micropolygons ${blurred.stats.micropolygons === still.stats.micropolygons ? 'equal' : 'DIFFER'}`);
}
context.destroy();
