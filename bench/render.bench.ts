// `npm run bench:render`: renders a heavy scene in scheduler mode and in bucket mode and prints
// micropolygons shaded per second, sample points per second, the time per stage and the ratio of
// the two modes (RenderAnts reports 30% to 300% gains over bucketing).
// Usage: npm run bench:render [-- --scene scenes/ribtools/uteapot.rib --res 1280x800 --samples 4 --bucket 32]
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { renderFrame, type RenderOptions } from '../src/reyes/render-frame.ts';
import type { FrameStats } from '../src/reyes/stats.ts';
import { parseRib } from '../src/rib/index.ts';
import { createNodeResolver, readSceneFile } from '../src/rib/resolver-node.ts';

const { values: options } = parseArgs({
  options: {
    scene: { type: 'string', default: 'scenes/ribtools/uteapot.rib' },
    res: { type: 'string', default: '1280x800' },
    samples: { type: 'string', default: '4' },
    bucket: { type: 'string', default: '32' },
  },
});
const [width, height] = options.res.split('x').map(Number) as [number, number];
const file = readSceneFile(options.scene);
const scene = await parseRib(file.bytes, { fileName: file.fileName, resolver: createNodeResolver() });
const frame = scene.frames[0];
if (!frame) throw new Error(`${options.scene} has no frame to render`);

const context = await acquireGpu();
const gpu = new GpuRuntime(context);
const base: RenderOptions = { resolution: [width, height], samples: Number(options.samples) };

async function render(label: string, extra: RenderOptions = {}): Promise<FrameStats> {
  gpu.allocator.trim();
  gpu.allocator.resetPeak();
  const { stats } = await renderFrame(gpu, frame!, { ...base, ...extra });
  const perSecond = (count: number) => ((count / stats.totalMs) * 1000 / 1e6).toFixed(2);
  console.log(`\n${label}: ${stats.totalMs.toFixed(0)} ms, ${stats.grids} grids, ${stats.micropolygons} micropolygons ` +
    `(${perSecond(stats.micropolygons)} M/s), ${stats.samplePoints} sample points (${perSecond(stats.samplePoints)} M/s)` +
    `${stats.opaqueFastPath ? ' [opaque fast path]' : ''}, peak ${(stats.peakBytes / 2 ** 20).toFixed(1)} MiB, ` +
    `${stats.dicingRegions} dicing / ${stats.samplingRegions} sampling regions`);
  console.log('  stage ms: ' + Object.entries(stats.stageMs).map(([stage, ms]) => `${stage} ${ms.toFixed(0)}`).join(', '));
  return stats;
}

console.log(`GPU: ${context.adapter.description || context.adapter.vendor} (${context.adapter.runtime})`);
console.log(`${options.scene} at ${width}x${height}, ${options.samples}x${options.samples} samples; wall times around each stage`);
await render('warm-up (kernel compilation), scheduler mode');
const scheduler = await render('scheduler mode');
const bucket = await render(`bucket mode (${options.bucket}x${options.bucket})`, { bucketSize: Number(options.bucket) });
console.log(`\nbucket / scheduler time: ${(bucket.totalMs / scheduler.totalMs).toFixed(2)}`);
context.destroy();
