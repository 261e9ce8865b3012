// The stage graph the last frame ran (FrameStats.stages), drawn in the Insight panel: its stages in
// order, grouped by the bins they run over (dicing bins, sampling bins, the screen), each with its
// schedule, its wall and GPU time; stages that ran fused share one box, and a pair that could fuse
// but did not says why.
import type { FrameStats } from '../index.ts';
import { h } from './dom.ts';

type StageNode = NonNullable<FrameStats['stages']>[number];
type StageName = StageNode['stage'];

const STAGE_TITLES: Record<StageName, string> = {
  boundSplit: 'Bound/Split', dice: 'Dice', shade: 'Shade', sample: 'Sample', composite: 'Composite', filter: 'Filter', imager: 'Imager',
};

/** Each level's heading, from its first stage's bins. */
const LEVEL_TITLES: Record<StageNode['level'], (bins: string) => string> = {
  dicing: (bins) => `Dicing bins: ${bins}`, sampling: (bins) => `Sampling bins: ${bins}`, screen: () => 'The whole image',
};

/** The stages in boxes: each stage, with the stages fused into it in the same box. */
function boxes(nodes: readonly StageNode[]): StageNode[][] {
  const out: StageNode[][] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (last && last.at(-1)!.fusedWith === node.stage) last.push(node);
    else out.push([node]);
  }
  return out;
}

function milliseconds(times: FrameStats['stageMs'] | undefined, stages: readonly StageName[]): string | undefined {
  return times && `${stages.reduce((sum, stage) => sum + times[stage], 0).toFixed(1)} ms`;
}

export function showStageGraph(container: HTMLElement, stats: FrameStats): void {
  const nodes = stats.stages ?? [];
  const levels = [...new Set(nodes.map((n) => n.level))];
  container.replaceChildren(...levels.map((level) => {
    const inLevel = nodes.filter((n) => n.level === level);
    const first = inLevel[0]!;
    return h('section', { class: 'stage-level', 'data-level': level },
      h('h4', {}, LEVEL_TITLES[level](first.bins)),
      h('p', { class: 'stage-schedule' }, first.schedule),
      h('ol', {}, ...boxes(inLevel).map((box) => {
        const runs = box.map((n) => n.stage);
        const gpu = milliseconds(stats.stageGpuMs, runs);
        const apart = box.at(-1)!.notFused;
        return h('li', { 'data-stage': runs[0]!, 'data-runs': runs.join(' '), ...(box.length > 1 ? { 'data-fused': true } : {}), title: box.map((n) => n.process).join('; ') },
          h('strong', {}, runs.map((s) => STAGE_TITLES[s]).join(' + ')),
          box.length > 1 ? h('span', { class: 'stage-fused' }, 'fused') : '',
          h('span', { class: 'stage-time' }, `${milliseconds(stats.stageMs, runs)}${gpu ? ` (GPU ${gpu})` : ''}`),
          // Only the pairs that can fuse carry a reason (StageNode.notFused).
          apart ? h('small', { class: 'stage-apart' }, `apart: ${apart}`) : '');
      })));
  }));
}
