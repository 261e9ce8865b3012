// Frame time per stage under pipeline configurations (src/reyes/pipeline/): RenderAnts' budget bins,
// fixed 32×32 bins, one screen bin, each with nothing fused, with the default fusion (sample and
// composite where the frame is opaque) and with every pair fused. Each configuration is
// rendered once to compile its kernels, then timed (wall time per stage, GPU time where the adapter
// has timestamp queries). Prints the scheduler-versus-bucket ratio.
// Usage: node --import ./src/node/register.js bench/pipeline.bench.ts [--scene scenes/features/shade-metal.rib --res 320x240]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { describePipeline, type PipelineConfig } from '../src/reyes/pipeline/pipeline-config.ts';
import { renderFrame } from '../src/reyes/render-frame.ts';
import { nodeRslShading } from '../src/reyes/shading/node-shaders.ts';
import type { FrameStats } from '../src/reyes/stats.ts';
import { parseRib } from '../src/rib/index.ts';
import { createNodeResolver, readSceneFile } from '../src/rib/resolver-node.ts';

const { values: options } = parseArgs({
  options: { scene: { type: 'string', default: 'scenes/features/shade-metal.rib' }, res: { type: 'string', default: '320x240' } },
});
const [width, height] = options.res.split('x').map(Number) as [number, number];
const file = readSceneFile(options.scene);
const frame = (await parseRib(file.bytes, { fileName: file.fileName, resolver: createNodeResolver() })).frames[0];
if (!frame) throw new Error(`${options.scene} has no frame to render`);
const context = await acquireGpu();
const gpu = new GpuRuntime(context);
const shading = nodeRslShading({ sceneDir: path.dirname(options.scene) }).provide;

const CONFIGURATIONS: PipelineConfig[] = [
  { dicing: { bins: 'budget' }, sampling: { bins: 'budget' } },
  { dicing: { bins: 'fixed', size: 32 }, sampling: { bins: 'dicing' } },
  { dicing: { bins: 'screen' }, sampling: { bins: 'dicing' } },
];

async function timed(pipeline: PipelineConfig): Promise<FrameStats> {
  const render = async (): Promise<FrameStats> => {
    gpu.allocator.trim();
    return (await renderFrame(gpu, frame!, { shading, resolution: [width, height], pipeline })).stats;
  };
  await render();
  const stats = await render();
  const stages = (times: FrameStats['stageMs'] | undefined): string => (times ? Object.entries(times).map(([s, ms]) => `${s} ${ms.toFixed(1)}`).join(', ') : 'n/a');
  const pairs = (stats.stages ?? []).filter((s) => s.stage === 'dice' || s.stage === 'sample')
    .map((s) => (s.fusedWith ? `${s.stage}+${s.fusedWith} fused (time under ${s.stage})` : `${s.stage} apart: ${s.notFused}`));
  console.log(`\n${describePipeline(pipeline)}: ${stats.totalMs.toFixed(0)} ms\n  ${pairs.join('\n  ')}`);
  console.log(`  wall ms: ${stages(stats.stageMs)}`);
  console.log(`  GPU ms:  ${stages(stats.stageGpuMs)}`);
  return stats;
}

console.log(`GPU: ${context.adapter.description || context.adapter.vendor}; ${options.scene} at ${width}x${height}`);
const FUSIONS = [false, undefined, true] as const;
const totals: number[] = [];
for (const config of CONFIGURATIONS) {
  for (const fusion of FUSIONS) totals.push((await timed(fusion === undefined ? config : { ...config, fusion })).totalMs);
}
const n = FUSIONS.length;
console.log(`\nbucket / scheduler time, nothing fused: ${(totals[n]! / totals[0]!).toFixed(2)}; default fusion: ${(totals[n + 1]! / totals[1]!).toFixed(2)}; all fused: ${(totals[n + 2]! / totals[2]!).toFixed(2)}`);
context.destroy();
