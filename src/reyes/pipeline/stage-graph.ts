// The Reyes stage graph as Piko draws it: each stage with the bins it runs over (AssignBin), how
// those bins are scheduled (Schedule) and the module whose kernels process a bin (Process). The
// bins and schedules follow the pipeline configuration (pipeline-config.ts); FrameStats.stages
// reports the graph a render ran, beside the time per stage.
//
//   Bound/Split ⟲ ─▶ Dice ─▶ Shade ─▶ Sample ─▶ Composite ─▶ Filter ─▶ Imager
//   └──────── dicing bins ───────┘   └────── sampling bins ─────┘     screen
import { fuses, type FusionPair, type PipelineConfig } from './pipeline-config.ts';
import type { StageTimes } from '../stats.ts';

export type StageName = Exclude<keyof StageTimes, 'convert'>;

export interface StageNode {
  stage: StageName;
  /** The bins' level: stages of one level run together on each of its bins (pipeline/runtime.ts). */
  level: 'dicing' | 'sampling' | 'screen';
  /** LoadBalance: a bin that does not fit the budget is cut in two (else it must fit whole). */
  cut: boolean;
  /** AssignBin: the bins the stage's work is grouped by. */
  bins: string;
  /** Schedule: when the bins run. */
  schedule: string;
  /** Process: the module holding the stage's kernels. */
  process: string;
  /** The next stage, when its kernels are fused into this stage's (pipeline/fusion.ts). */
  fusedWith?: StageName;
  /** Why this stage's kernels and the next stage's could be fused but are not. */
  notFused?: string;
}

/** What keeps the frame's stages of each pair apart whatever the configuration: dice+shade when no
 * shading kernel can be fused with the dicer (pipeline/fusion.ts), sample+composite when a
 * primitive is not opaque (its samples must be composited front to back). */
export type FusionBlockers = Partial<Record<FusionPair, string>>;

/** The stage graph `config` runs, in order. Each pair of stages is fused where the configuration
 * asks for it (`fuses`), the pair shares bins and schedule (always, so far) and the frame allows it
 * (`blockers`). */
export function stageGraph(config: PipelineConfig, blockers: FusionBlockers = {}): StageNode[] {
  const dicingBins = config.dicing.bins === 'budget' ? 'budget BSP bins' : config.dicing.bins === 'fixed' ? `${config.dicing.size}×${config.dicing.size} bins` : 'the screen';
  const dicingSchedule = config.dicing.bins === 'fixed' ? 'Serialize (one bin after another, never cut)'
    : config.dicing.bins === 'budget' ? 'LoadBalance (cut in two until the grids fit the budget; schedulers/dicing-scheduler.ts)' : 'All (one bin, never cut)';
  const samplingBins = config.sampling.bins === 'budget' ? 'budget BSP bins within each dicing bin' : 'the dicing bin';
  const samplingSchedule = config.sampling.bins === 'budget'
    ? 'LoadBalance (cut until the sample points fit; schedulers/sampling-scheduler.ts)' : 'EndBin (after its dicing bin, never cut)';
  const dicing = { level: 'dicing', bins: dicingBins, schedule: dicingSchedule, cut: config.dicing.bins === 'budget' } as const;
  const sampling = { level: 'sampling', bins: samplingBins, schedule: samplingSchedule, cut: config.sampling.bins === 'budget' } as const;
  return [
    { stage: 'boundSplit', ...dicing, process: 'stages/bound-split.ts (its split cycle runs until every piece is ready)' },
    { stage: 'dice', ...dicing, process: 'stages/dice.ts', ...fusion(config, 'dice+shade', blockers) },
    { stage: 'shade', ...dicing, schedule: `${dicingSchedule}; dispatches cut by schedulers/shading-scheduler.ts`, process: 'stages/shade.ts' },
    { stage: 'sample', ...sampling, process: 'stages/sample.ts', ...fusion(config, 'sample+composite', blockers) },
    { stage: 'composite', ...sampling, process: 'stages/composite.ts' },
    { stage: 'filter', ...sampling, process: 'stages/filter.ts' },
    { stage: 'imager', level: 'screen', cut: false, bins: 'the screen', schedule: 'EndStage (after every bin is filtered)', process: 'stages/imager.ts' },
  ];
}

function fusion(config: PipelineConfig, pair: FusionPair, blockers: FusionBlockers): Pick<StageNode, 'fusedWith' | 'notFused'> {
  if (!fuses(config, pair)) return { notFused: `fusion of ${pair} is off (the pipeline configuration's "fusion": { "${pair}": true } turns it on)` };
  const blocker = blockers[pair];
  return blocker ? { notFused: blocker } : { fusedWith: pair.split('+')[1] as StageName };
}
