// A pipeline configuration: how the screen is binned for the dicing stages (bound/split, dice,
// shade) and for the sampling stages (sample, composite, filter), and so how the bins are
// scheduled. Piko's terms: budget bins are RenderAnts' memory-budget BSP (a bin too large for the
// budget is cut in two, the halves run in turn: LoadBalance over the bins it makes); fixed bins are
// buckets run one after another and never cut (Serialize); the screen bin is one bin for the whole
// (cropped) image. Sampling bins are budget bins inside each dicing bin, or the dicing bin itself.
// Written as JSON (`reyes render --pipeline FILE`):
//   { "dicing": { "bins": "budget" }, "sampling": { "bins": "budget" } }
//   { "dicing": { "bins": "fixed", "size": 32 }, "sampling": { "bins": "dicing" } }
//   { "dicing": { "bins": "screen" }, "sampling": { "bins": "dicing" }, "fusion": true }
//   { "fusion": { "dice+shade": true, "sample+composite": false } }
import type { Region } from '../frame-gpu.ts';
import { tiles } from '../schedulers/regions.ts';

export type DicingBins = { bins: 'budget' } | { bins: 'fixed'; size: number } | { bins: 'screen' };
export type SamplingBins = { bins: 'budget' } | { bins: 'dicing' };

/** The pairs of adjacent stages that can run fused. */
export const FUSION_PAIRS = ['dice+shade', 'sample+composite'] as const;
export type FusionPair = (typeof FUSION_PAIRS)[number];

/** Whether each pair fuses where the frame allows it, when the configuration does not say.
 * Dice+shade is off: on lavapipe the fused kernel (pipeline/fusion.ts) takes far longer to compile
 * than the dispatch it saves. Sample+composite is on: an opaque frame's nearest sample is found by
 * atomic depth in the sampling kernels, with no sample points written, sorted or composited. */
const FUSION_DEFAULTS: Record<FusionPair, boolean> = { 'dice+shade': false, 'sample+composite': true };

export interface PipelineConfig {
  dicing: DicingBins;
  sampling: SamplingBins;
  /** Which adjacent stages run fused where their bins, schedules and the frame allow it: true or
   * false for every pair, or per pair (FUSION_DEFAULTS for the pairs not named). */
  fusion?: boolean | Partial<Record<FusionPair, boolean>>;
}

/** Whether `config` asks for `pair` to run fused. */
export function fuses(config: PipelineConfig, pair: FusionPair): boolean {
  if (typeof config.fusion === 'boolean') return config.fusion;
  return config.fusion?.[pair] ?? FUSION_DEFAULTS[pair];
}

/** RenderAnts' schedulers: memory-budget bins for dicing and for sampling. */
export const RENDERANTS_PIPELINE: PipelineConfig = { dicing: { bins: 'budget' }, sampling: { bins: 'budget' } };

/** Bucket mode: fixed `size` × `size` bins, sampled whole. */
export function bucketPipeline(size: number): PipelineConfig {
  return { dicing: { bins: 'fixed', size }, sampling: { bins: 'dicing' } };
}

/** The configuration a render runs: RenderOptions.pipeline, else buckets with bucketSize, else RenderAnts'. */
export function framePipeline(options: { pipeline?: PipelineConfig; bucketSize?: number }): PipelineConfig {
  return options.pipeline ?? (options.bucketSize ? bucketPipeline(options.bucketSize) : RENDERANTS_PIPELINE);
}

/** AssignBin of the dicing stages: the bins of `screen` in the order they run (whether they may be
 * cut is their Schedule's, stage-graph.ts). */
export function dicingBins(config: PipelineConfig, screen: Region): Region[] {
  return config.dicing.bins === 'fixed' ? tiles(screen, config.dicing.size) : [screen];
}

/** How a schedule is named in Piko's terms, for reports. */
export function describePipeline(config: PipelineConfig): string {
  const dicing = config.dicing.bins === 'budget' ? 'budget bins (LoadBalance)'
    : config.dicing.bins === 'fixed' ? `${config.dicing.size}×${config.dicing.size} bins (Serialize)` : 'one screen bin';
  const sampling = config.sampling.bins === 'budget' ? 'budget bins' : 'the dicing bins';
  const fused = FUSION_PAIRS.filter((pair) => fuses(config, pair));
  return `bound/split, dice, shade: ${dicing}; sample, composite, filter: ${sampling}; fused: ${fused.length ? fused.join(', ') : 'none'}`;
}

/** A configuration file's text parsed and checked; errors name the file and, for JSON syntax, the line and column. */
export function parsePipelineConfig(text: string, file: string): PipelineConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const where = at ? lineColumn(text, Number(at[1])) : undefined;
    throw new PipelineConfigError(`${file}${where ? `:${where.line}:${where.column}` : ''}: not JSON (${message})`);
  }
  const fail = (path: string, what: string): never => {
    throw new PipelineConfigError(`${file}: ${path}: ${what}`);
  };
  if (!isObject(value)) return fail('(top)', 'must be an object with "dicing", "sampling" and "fusion"');
  for (const key of Object.keys(value)) if (!['dicing', 'sampling', 'fusion'].includes(key)) fail(key, 'is not a setting (use "dicing", "sampling" and "fusion")');
  const fusion = value['fusion'];
  const fusionForm = `true, false or an object such as { "dice+shade": true, "sample+composite": false }`;
  if (fusion !== undefined && typeof fusion !== 'boolean') {
    if (!isObject(fusion)) return fail('fusion', `must be ${fusionForm}, not ${JSON.stringify(fusion)}`);
    for (const [pair, on] of Object.entries(fusion)) {
      if (!(FUSION_PAIRS as readonly string[]).includes(pair)) fail(`fusion.${pair}`, `is not a pair of stages that fuse (${FUSION_PAIRS.map((p) => `"${p}"`).join(', ')})`);
      if (typeof on !== 'boolean') fail(`fusion.${pair}`, `must be true or false, not ${JSON.stringify(on)}`);
    }
  }
  const dicing = value['dicing'] ?? { bins: 'budget' };
  const sampling = value['sampling'] ?? { bins: 'budget' };
  if (!isObject(dicing)) return fail('dicing', 'must be an object such as { "bins": "budget" }');
  if (!isObject(sampling)) return fail('sampling', 'must be an object such as { "bins": "budget" }');
  let dicingBins: DicingBins;
  if (dicing['bins'] === 'budget' || dicing['bins'] === 'screen') {
    dicingBins = { bins: dicing['bins'] };
  } else if (dicing['bins'] === 'fixed') {
    const size = dicing['size'];
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) return fail('dicing.size', 'fixed bins need a whole number of pixels of at least 1');
    dicingBins = { bins: 'fixed', size };
  } else {
    return fail('dicing.bins', `must be "budget", "fixed" or "screen", not ${JSON.stringify(dicing['bins'])}`);
  }
  for (const key of Object.keys(dicing)) if (key !== 'bins' && !(key === 'size' && dicingBins.bins === 'fixed')) fail(`dicing.${key}`, 'is not a setting of these bins');
  if (sampling['bins'] !== 'budget' && sampling['bins'] !== 'dicing') return fail('sampling.bins', `must be "budget" or "dicing", not ${JSON.stringify(sampling['bins'])}`);
  for (const key of Object.keys(sampling)) if (key !== 'bins') fail(`sampling.${key}`, 'is not a setting of these bins');
  return { dicing: dicingBins, sampling: { bins: sampling['bins'] }, ...(fusion === undefined ? {} : { fusion: fusion as PipelineConfig['fusion'] }) };
}

export class PipelineConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PipelineConfigError';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
