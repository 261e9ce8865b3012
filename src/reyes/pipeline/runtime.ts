// The runtime that runs the stage graph (stage-graph.ts) as Piko does. Consecutive stages with the
// same bins make a pass; every bin of a pass runs the pass's stages in graph order (each stage's
// Process: false when the bin does not fit the memory budget), then hands itself to the next pass,
// whose bins lie inside it (EndBin). A bin that does not fit is cut in two and each half runs again
// under LoadBalance (budget bins); under Serialize or All (fixed bins, the screen) it is an error.
// The passes come from the graph: which stages share bins and which pass may cut them is the
// configuration's (pipeline-config.ts); the bin state and processes are each level's (BinLevel).
import { GpuBudgetError } from '../../gpu/errors.ts';
import { throwIfCancelled } from '../cancel.ts';
import { BudgetTooSmallError } from '../errors.ts';
import type { FrameGpu, Region } from '../frame-gpu.ts';
import { canSplit, splitRegion } from '../schedulers/regions.ts';
import type { ProgressStage } from '../schedulers/progress.ts';
import type { StageName, StageNode } from './stage-graph.ts';

/** Process: a stage's kernels over one bin; false when the bin does not fit the budget. */
export type StageProcess<S> = (state: S, bin: Region) => Promise<boolean>;

/** The bins of one level of the graph (dicing, sampling): their shared state and the stages' processes. */
export interface BinLevel<I, S> {
  kind: 'dicing' | 'sampling';
  /** The state a bin's stages share, from what the enclosing bin (or the frame) hands down. */
  open(input: I, bin: Region): S;
  /** Makes what the bins inside need once this bin's stages finished (EndBin: the hand-over). */
  handOver?(state: S): Promise<void>;
  /** Releases the bin's buffers; `done` when its stages and the passes inside it finished. */
  close(state: S, done: boolean, bin: Region): void;
  /** What the halves of a cut bin start from; the bin's own input when absent. */
  halves?(state: S): I;
  /** Why a pixel-sized bin that does not fit fails, when the level knows better than the budget. */
  uncuttable?(state: S, bin: Region): Error | undefined;
  /** Each stage's Process (the dicing level has none for the imager, which runs after every bin). */
  processes: Partial<Record<StageName, StageProcess<S>>>;
  /** The Process of a stage with the next one's kernels fused into it (StageNode.fusedWith). */
  fused?: Partial<Record<StageName, StageProcess<S>>>;
}

/** A level whatever its states: the runtime only hands each level's state to the next one. */
type AnyLevel = BinLevel<any, any>;

/** One pass of the graph: a level's bins, whether its Schedule cuts them, and its stages in order. */
export interface Pass {
  level: AnyLevel;
  cut: boolean;
  /** Each with the stages it runs: itself, and the next one where fused. */
  stages: { stage: StageName; runs: StageName[]; process: StageProcess<unknown> }[];
}

/** The passes of `graph`, outermost first: its stages grouped by level in graph order (the screen's
 * stages run after every bin, in frame/frame-result.ts). */
export function graphPasses(graph: readonly StageNode[], levels: readonly AnyLevel[]): Pass[] {
  return levels.map((level) => {
    const nodes = graph.filter((node) => node.level === level.kind);
    const stages: Pass['stages'] = [];
    for (const [k, node] of nodes.entries()) {
      const fused = node.fusedWith ? level.fused?.[node.stage] : undefined;
      if (nodes[k - 1]?.fusedWith === node.stage && stages.at(-1)?.runs.includes(node.stage)) continue;
      const process = fused ?? level.processes[node.stage];
      if (process) stages.push({ stage: node.stage, runs: fused ? [node.stage, node.fusedWith!] : [node.stage], process });
    }
    return { level, cut: nodes[0]?.cut ?? false, stages };
  });
}

const PROGRESS_STAGES: readonly StageName[] = ['boundSplit', 'dice', 'shade', 'sample', 'filter'];

/** Runs pass `passes[0]` over `bin`, the later passes inside each bin it finishes. */
export async function runBin(frame: FrameGpu, passes: readonly Pass[], input: unknown, bin: Region): Promise<void> {
  throwIfCancelled(frame.signal);
  const [pass, ...inner] = passes as [Pass, ...Pass[]];
  const { level } = pass;
  const progress = (stages: StageName[]): void => {
    for (const stage of stages) if (PROGRESS_STAGES.includes(stage)) frame.insight.stageDone(bin, stage as ProgressStage);
  };
  let state: unknown;
  let done = false;
  let reported = false;
  try {
    state = level.open(input, bin);
    let fits = true;
    for (const [k, { runs, process }] of pass.stages.entries()) {
      fits = await process(state, bin);
      if (!fits) break;
      throwIfCancelled(frame.signal);
      // A leaf bin is reported finished (its pixels handed over) before its last stage's progress.
      if (k < pass.stages.length - 1 || inner.length > 0) {
        progress(runs);
        reported = true;
      }
    }
    if (fits && inner.length > 0) {
      await level.handOver?.(state);
      await runBin(frame, inner, state, bin);
    }
    done = fits;
  } catch (error) {
    // Too little memory for a stage, or for the bins inside (which may not cut theirs): cut this one.
    const starved = error instanceof BudgetTooSmallError && pass.cut && canSplit(bin);
    if (!(error instanceof GpuBudgetError) && !starved) throw error;
    if (reported) frame.insight.redo(bin);
  } finally {
    if (state !== undefined) level.close(state, done, bin);
  }
  if (done) {
    frame.stats[level.kind === 'dicing' ? 'dicingRegions' : 'samplingRegions']++;
    frame.insight.region(level.kind, bin, false);
    if (inner.length === 0 && pass.stages.length > 0) progress(pass.stages[pass.stages.length - 1]!.runs);
    return;
  }
  const size = `${bin.x1 - bin.x0}×${bin.y1 - bin.y0}`;
  if (!pass.cut) throw new BudgetTooSmallError(`a ${size} bin (bucket) does not fit the memory budget; use smaller bins or a larger budget`);
  if (!canSplit(bin)) {
    throw (state !== undefined && level.uncuttable?.(state, bin)) ||
      new BudgetTooSmallError(`the memory budget cannot hold the ${level.kind === 'dicing' ? 'grids' : 'sample points'} of a single pixel`);
  }
  frame.stats[level.kind === 'dicing' ? 'dicingSplits' : 'samplingSplits']++;
  frame.insight.region(level.kind, bin, true);
  const halves = state !== undefined && level.halves ? level.halves(state) : input;
  for (const half of splitRegion(bin)) await runBin(frame, passes, halves, half);
}
