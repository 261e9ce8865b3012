// Statistics of the last frame: work done per stage, how the schedulers cut the frame, and the
// allocator's peak against the budget.
import type { FrameStats } from '../index.ts';
import { h } from './dom.ts';

const MiB = 1024 * 1024;

export function showStats(table: HTMLTableElement, stats: FrameStats): void {
  const rows: [string, string][] = [
    ['Resolution', `${stats.resolution[0]} × ${stats.resolution[1]}, ${stats.pixelSamples[0]} × ${stats.pixelSamples[1]} samples`],
    ['Mode', stats.mode],
    ['Primitives', `${stats.scenePrimitives} in the scene, ${stats.primitiveRecords} records, ${stats.primitivesAfterSplit} after split (${stats.boundSplitIterations} iterations)`],
    // Shown only when pieces were lost: the picture lacks them (Option "limits" "eyesplits").
    ...(stats.eyeSplitCulls > 0 ? [['Eye-split culls', `${stats.eyeSplitCulls} pieces straddling the eye plane culled`] as [string, string]] : []),
    ['Grids', `${stats.grids} (${stats.gridsDiced} diced, ${stats.gridsReused} kept from the last render, ${stats.gridsShaded} shaded)`],
    ['Re-render', stats.reuse === undefined ? '—' : describeReuse(stats.reuse, stats.untargeted)],
    // A targeted edit samples only the pixels its grids reach; the rest is the last picture.
    ...(stats.resampledPixels !== undefined ? [['Pixels sampled', `${stats.resampledPixels} of ${stats.resolution[0] * stats.resolution[1]} (the rest kept from the last render)`] as [string, string]] : []),
    ['Micropolygons', String(stats.micropolygons)],
    ['Vertices shaded', String(stats.verticesShaded)],
    ['Sample points', `${stats.samplePoints} tested${stats.opaqueFastPath ? ' (depth-tested by sample and composite fused)' : ' (written and composited)'}`],
    ['Dicing regions', `${stats.dicingRegions} (${stats.dicingSplits} splits)`],
    ['Sampling regions', `${stats.samplingRegions} (${stats.samplingSplits} splits)`],
    ['Shading batches', String(stats.shadingBatches)],
    ['Peak GPU memory', `${(stats.peakBytes / MiB).toFixed(2)} MiB of ${(stats.budgetBytes / MiB).toFixed(0)} MiB budget (${((100 * stats.peakBytes) / Math.max(1, stats.budgetBytes)).toFixed(1)}%)`],
    ...Object.entries(stats.stageMs).map(([stage, ms]): [string, string] => [`${stage} time`, `${ms.toFixed(1)} ms`]),
    ['Total', `${stats.totalMs.toFixed(1)} ms`],
  ];
  table.replaceChildren(...rows.map(([k, v]) => h('tr', { 'data-stat': k }, h('th', {}, k), h('td', {}, v))));
}

function describeReuse(reuse: string, untargeted: string | undefined): string {
  // Why the edits were not applied in place (the whole frame was converted and compared instead).
  const why = untargeted ? `; the whole frame compared, as ${untargeted}` : '';
  if (reuse === 'prepared') return 'grids kept for shading edits';
  if (reuse === 'targeted') return 'only the grids the edit reaches shaded again (no conversion, no dicing)';
  if (reuse === 'targeted, rediced') return 'recoloured records written; the kept regions holding them diced and shaded again (no conversion)';
  if (reuse === 'reused') return `kept grids shaded again (no bound/split, no dicing)${why}`;
  if (reuse === 'rediced') return `kept pieces diced again (no bound/split)${why}`;
  return `from scratch: ${reuse.replace(/^full: /, '')}${why}`;
}
