// Re-render times of a prepared frame after the page's kinds of edit (a light's intensity, a surface
// parameter, a colour), each with its edit description (PreparedRenderOptions.edits: targeted) and
// without (the whole frame converted and compared), alternating back to back; medians of --rounds,
// with the grids shaded, the pixels sampled again and the time per stage.
// Usage: node --import ./src/node/register.js bench/edits.bench.ts [--scene scenes/viewer/showcase.rib --rounds 5]
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { GpuRuntime } from '../src/gpu/runtime.ts';
import { prepareFrame, type FrameEdit, type RenderedFrame } from '../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../src/reyes/shading/rsl-provider.ts';
import type { Frame, Parameter } from '../src/rib/scene.ts';
import { parseRib } from '../src/rib/index.ts';
import { createNodeResolver, readSceneFile } from '../src/rib/resolver-node.ts';

const { values: args } = parseArgs({ options: { scene: { type: 'string', default: 'scenes/viewer/showcase.rib' }, rounds: { type: 'string', default: '5' } } });
const file = readSceneFile(args.scene);
const frame: Frame | undefined = (await parseRib(file.bytes, { fileName: file.fileName, resolver: createNodeResolver() })).frames[0];
if (!frame) throw new Error(`${args.scene} has no frame to render`);
const context = await acquireGpu();
const gpu = new GpuRuntime(context);
const shading = new RslShadingProvider().provide;
const prepared = await prepareFrame(gpu, frame, { shading, primitiveIds: true });
console.log(`${args.scene}: first render ${prepared.first.stats.totalMs.toFixed(0)} ms, ${prepared.first.stats.grids} grids, reuse ${prepared.first.stats.reuse}`);

const withFloat = (params: readonly Parameter[], name: string, value: number): Parameter[] =>
  [...params.filter((p) => p.name !== name), { name, storage: 'uniform', type: 'float', arrayLength: null, values: [value], inferred: false } as Parameter];
// The last light and the first primitive with a surface parameter list (the page's usual targets).
const light = frame.lights.at(-1)!;
const object = frame.primitives.findIndex((p) => p.attributes.surface?.name === 'plastic');
const edits: { name: string; apply(round: number): void; edit: FrameEdit }[] = [
  { name: 'light intensity', edit: { kind: 'light', light: light.id }, apply: (k) => (light.params = withFloat(light.params, 'intensity', 20 + k)) },
  { name: 'surface Kd', edit: { kind: 'shader', primitives: [object] }, apply: (k) => {
    const a = frame.primitives[object]!.attributes;
    a.surface = { ...a.surface!, params: withFloat(a.surface!.params, 'Kd', 0.3 + 0.05 * k) };
  } },
  { name: 'colour', edit: { kind: 'color', primitives: [object] }, apply: (k) => frame.primitives[object]!.attributes.color.splice(0, 3, 0.2, 0.1 * (k % 10), 0.5) },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let round = 0;
const time = async (described: FrameEdit | undefined): Promise<{ ms: number; rendered: RenderedFrame }> => {
  const start = performance.now();
  const rendered = await prepared.render(frame, { shading, primitiveIds: true, ...(described ? { edits: [described] } : {}) });
  return { ms: performance.now() - start, rendered };
};
for (const { name, apply, edit } of edits) {
  // A warm-up of each path (pipelines, pooled buffers).
  apply(round++);
  await time(edit);
  apply(round++);
  await time(undefined);
  const targeted: { ms: number; rendered: RenderedFrame }[] = [];
  const whole: { ms: number; rendered: RenderedFrame }[] = [];
  for (let k = 0; k < Number(args.rounds); k++) {
    apply(round++);
    targeted.push(await time(edit));
    apply(round++);
    whole.push(await time(undefined));
  }
  const describe = (r: RenderedFrame[]): string => {
    const { stats } = r.at(-1)!;
    const stage = (name: 'convert' | 'dice' | 'shade' | 'sample' | 'composite' | 'filter'): string =>
      `${name} ${median(r.map((x) => x.stats.stageMs[name])).toFixed(1)}${stats.stageGpuMs ? ` (GPU ${median(r.map((x) => x.stats.stageGpuMs![name])).toFixed(1)})` : ''}`;
    return `reuse ${stats.reuse}${stats.untargeted ? ` (${stats.untargeted})` : ''}, ${stats.gridsShaded ?? '?'} of ${stats.grids} grids shaded, ` +
      `${stats.gridsDiced} diced, ${stats.resampledPixels ?? 'all'} pixels sampled; median ms: ${(['convert', 'dice', 'shade', 'sample', 'composite', 'filter'] as const).map(stage).join(', ')}`;
  };
  console.log(`${name}: with the edit described ${median(targeted.map((t) => t.ms)).toFixed(1)} ms [${describe(targeted.map((t) => t.rendered))}]`);
  console.log(`${' '.repeat(name.length)}  without ${median(whole.map((t) => t.ms)).toFixed(1)} ms [${describe(whole.map((t) => t.rendered))}]`);
}
prepared.dispose();
context.destroy();
