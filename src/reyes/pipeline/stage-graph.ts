// The Reyes stage graph as Piko draws it: each stage with the bins it runs over (AssignBin), how
// those bins are scheduled (Schedule) and the module whose kernels process a bin (Process). The
// bins and schedules follow the pipeline configuration (pipeline-config.ts); FrameStats.stages
// reports the graph a render ran, beside the time per stage.
//
//   Bound/Split ⟲ ─▶ Dice ─▶ Shade ─▶ Sample ─▶ Composite ─▶ Filter ─▶ Imager
//   └──────── dicing bins ───────┘   └────── sampling bins ─────┘     screen
import type { PipelineConfig } from './pipeline-config.ts';
import type { StageTimes } from '../stats.ts';

export interface StageNode {
  stage: Exclude<keyof StageTimes, 'convert'>;
  /** AssignBin: the bins the stage's work is grouped by. */
  bins: string;
  /** Schedule: when the bins run. */
  schedule: string;
  /** Process: the module holding the stage's kernels. */
  process: string;
}

/** The stage graph `config` runs, in order. */
export function stageGraph(config: PipelineConfig): StageNode[] {
  const dicingBins = config.dicing.bins === 'budget' ? 'budget BSP bins' : config.dicing.bins === 'fixed' ? `${config.dicing.size}×${config.dicing.size} bins` : 'the screen';
  const dicingSchedule = config.dicing.bins === 'fixed' ? 'Serialize (one bin after another, never cut)'
    : config.dicing.bins === 'budget' ? 'LoadBalance (cut in two until the grids fit the budget; schedulers/dicing-scheduler.ts)' : 'All (one bin, never cut)';
  const samplingBins = config.sampling.bins === 'budget' ? 'budget BSP bins within each dicing bin' : 'the dicing bin';
  const samplingSchedule = config.sampling.bins === 'budget'
    ? 'LoadBalance (cut until the sample points fit; schedulers/sampling-scheduler.ts)' : 'EndBin (after its dicing bin, never cut)';
  const dicing = { bins: dicingBins, schedule: dicingSchedule };
  const sampling = { bins: samplingBins, schedule: samplingSchedule };
  return [
    { stage: 'boundSplit', ...dicing, process: 'stages/bound-split.ts (its split cycle runs until every piece is ready)' },
    { stage: 'dice', ...dicing, process: 'stages/dice.ts' },
    { stage: 'shade', bins: dicingBins, schedule: `${dicingSchedule}; dispatches cut by schedulers/shading-scheduler.ts`, process: 'stages/shade.ts' },
    { stage: 'sample', ...sampling, process: 'stages/sample.ts' },
    { stage: 'composite', ...sampling, process: 'stages/composite.ts' },
    { stage: 'filter', ...sampling, process: 'stages/filter.ts' },
    { stage: 'imager', bins: 'the screen', schedule: 'EndStage (after every bin is filtered)', process: 'stages/imager.ts' },
  ];
}
