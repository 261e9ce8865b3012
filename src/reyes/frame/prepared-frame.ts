// Prepared frames: rendered once with every dicing region's ready pieces and shaded grids kept, then
// re-rendered after shader, light or colour edits without bound/split or dicing.
import { GpuBudgetError } from '../../gpu/errors.ts';
import type { GpuRuntime } from '../../gpu/runtime.ts';
import { RECORD } from '../../layout/primitive-record.ts';
import type { Frame } from '../../rib/scene.ts';
import { isCancelled } from '../cancel.ts';
import { BudgetTooSmallError } from '../errors.ts';
import type { FrameGpu, Region } from '../frame-gpu.ts';
import type { FloatImage } from '../../image/image.ts';
import { markedGridsRect } from './dirty-rect.ts';
import { graphPasses, runBin } from '../pipeline/runtime.ts';
import { keptLevel, type KeepGrids, type KeptRegion } from '../schedulers/dicing-scheduler.ts';
import { samplingLevel } from '../schedulers/sampling-scheduler.ts';
import { releaseGrids } from '../stages/dice.ts';
import { primitiveTables, uploadParams, type FrameBuffers } from './frame-buffers.ts';
import { underBudget } from './frame-budget.ts';
import { frameGpu } from './frame-insight.ts';
import { samplingTarget, startFrame, type FrameJob } from './frame-job.ts';
import { finish } from './frame-result.ts';
import { planEdits, snapshotFrame, type EditBase, type EditPlan, type FrameEdit } from './frame-edits.ts';
import { createLoopFlags } from '../shading/loop-cap.ts';
import { depthRenderer, hasWork, renderJob, renderScratch } from './render-once.ts';
import { withAutoShadows } from '../shadows/auto-shadows.ts';
import type { RegionReport, RenderedFrame, RenderOptions } from './render-options.ts';

/** Share of the budget a prepared frame may keep in ready pieces and grids; past it, it keeps none. */
export const KEEP_SHARE = 0.5;

/** What a prepared frame's render may change besides the frame itself. */
export type PreparedRenderOptions = Pick<RenderOptions, 'shading' | 'onRegion' | 'onProgress' | 'onPixels' | 'gridOutlines' | 'primitiveIds' | 'gpuTimings' | 'signal'> & {
  /**
   * Everything the frame changed since the prepared frame's last render, when the caller knows it
   * (the page does): the render then repacks only the parameter blocks (or record colours) the edits
   * reach and shades only the grids that use them, keeping the others' shaded results, without
   * converting the whole frame again. Changes not listed here are not looked for beyond what the
   * description cannot express (camera, options, geometry, light sets, shaders, shading rates:
   * those take the whole-frame path, stats.untargeted says why). Absent: the whole-frame path.
   */
  edits?: readonly FrameEdit[];
};

/**
 * A frame rendered once whose dicing regions' ready pieces and shaded grids stay on the GPU (while
 * they fit KEEP_SHARE of the budget), so that edits of shader parameters, lights (on/off too),
 * colours and opacities re-render with shade → sample → composite → filter only.
 */
export interface PreparedFrame {
  /** The render that prepared it (its stats.reuse says 'prepared' or 'full: <why>'). */
  readonly first: RenderedFrame;
  /** True while the grids of every dicing region are kept; false: render() renders from scratch. */
  readonly retained: boolean;
  /** GPU bytes of the kept ready pieces and grids. */
  readonly retainedBytes: number;
  /**
   * Renders `edited` (default: the prepared frame as it is now), which must keep the camera,
   * resolution, pixel samples, filter, shading rates and geometry; shader, light and colour edits are
   * what it is for. The kept grids are shaded again; they are diced again (from the kept ready
   * pieces) only where colours, opacities or primitive variables changed or a kernel overwrites its
   * inputs (displacement: re-dicing costs one dispatch, less than keeping a pristine copy of every
   * grid). Anything else renders from scratch (stats.reuse 'full: <why>') and lets the grids go.
   * With `extra.edits` only what they reach is packed and shaded again (stats.reuse 'targeted').
   */
  render(edited?: Frame, options?: PreparedRenderOptions): Promise<RenderedFrame>;
  /** Releases the kept buffers. */
  dispose(): void;
}

export async function prepareFrame(gpu: GpuRuntime, frame: Frame, options: RenderOptions = {}): Promise<PreparedFrame> {
  const prepared = new Prepared(gpu, frame, options);
  await prepared.start();
  return prepared;
}

class Prepared implements PreparedFrame {
  first!: RenderedFrame;
  private kept: KeptRegion[] = [];
  private keeping = true;
  private owned: GPUBuffer[] = [];
  private job!: FrameJob;
  private buffers: FrameBuffers | undefined;
  private counter: GPUBuffer | undefined;
  /** Each record's parameter base when its grids were diced (what their gridInfo holds). */
  private dicedParamBase: Uint32Array = new Uint32Array(0);
  /** What targeted edits start from: the last render's job, tables and frame (frame-edits.ts). */
  private base: EditBase | undefined;
  /** The last render's picture and primitive ids (when asked for). */
  private last: { image: FloatImage; ids?: Int32Array } | undefined;
  private disposed = false;

  constructor(private readonly gpu: GpuRuntime, private readonly frame: Frame, private readonly options: RenderOptions) {}

  get retained(): boolean {
    return this.keeping && this.kept.length > 0;
  }

  get retainedBytes(): number {
    return this.kept.reduce((n, k) => n + k.ready.buffer.size + k.diced.grids.size + k.diced.gridInfo.size, 0);
  }

  /** The first render, after the frame's "auto" shadow maps. */
  async start(): Promise<void> {
    this.first = await withAutoShadows(this.frame, this.options, depthRenderer(this.gpu), async () => {
      await this.prepare();
      return this.first;
    });
  }

  private async prepare(): Promise<void> {
    const job = startFrame(this.gpu, this.frame, this.options);
    this.job = job;
    const setupWarnings = [...job.warnings];
    if (!hasWork(job)) {
      this.keeping = false;
      this.first = await renderScratch(this.gpu, job, this.options, undefined);
      this.first.stats.reuse = 'full: nothing to keep';
      return;
    }
    // The budget the keep decisions weigh against: the one the render runs under.
    const budget = (): number => this.gpu.allocator.budget;
    const keep: KeepGrids = (region) => {
      if (!this.keeping) return false;
      const bytes = region.ready.buffer.size + region.diced.grids.size + region.diced.gridInfo.size;
      if (this.retainedBytes + bytes > KEEP_SHARE * budget()) {
        this.keeping = false;
        this.releaseKept();
        return false;
      }
      this.kept.push(region);
      return true;
    };
    const made: { buffers?: FrameBuffers; counter?: GPUBuffer } = {};
    try {
      this.first = await renderScratch(this.gpu, job, this.options, this.owned, keep, made);
    } catch (error) {
      this.dispose();
      throw error;
    }
    this.buffers = made.buffers;
    this.counter = made.counter;
    this.dicedParamBase = primitiveTables(job.converted).paramBase;
    if (this.buffers) {
      const recordsOf = new Map<number, number[]>();
      job.converted.records.sources.forEach((source, r) => recordsOf.set(source, [...(recordsOf.get(source) ?? []), r]));
      this.base = { job, setupWarnings, tables: this.buffers.tables, recordsOf, textures: job.textures, snapshot: snapshotFrame(this.frame) };
    }
    this.remember(this.first);
    this.first.stats.reuse = this.retained ? 'prepared'
      : this.buffers?.batched ? 'full: the primitive records are batched (past one storage binding or half the budget)'
      : `full: the grids take more than ${KEEP_SHARE * 100}% of the budget`;
    if (!this.retained) this.releaseAll();
  }

  async render(edited: Frame = this.frame, extra: PreparedRenderOptions = {}): Promise<RenderedFrame> {
    if (this.disposed) throw new Error('PreparedFrame.render after dispose()');
    const { edits, ...rest } = extra;
    const options: RenderOptions = { ...this.options, ...rest };
    // Only the maps whose light's view or whose geometry changed are rendered again.
    return withAutoShadows(edited, options, depthRenderer(this.gpu), () => this.renderEdited(edited, options, edits));
  }

  private async renderEdited(edited: Frame, options: RenderOptions, edits: readonly FrameEdit[] | undefined): Promise<RenderedFrame> {
    if (!this.retained || !this.buffers || !this.counter) return this.fromScratch(edited, options, this.first.stats.reuse?.startsWith('full: ') ? this.first.stats.reuse.slice(6) : 'no grids kept');
    let untargeted: string | undefined;
    if (edits && this.base) {
      const plan = planEdits(this.base, edited, options, edits);
      if ('why' in plan) untargeted = plan.why;
      else if (plan.redice && !sameFloats(this.base.tables.paramBase, this.dicedParamBase)) untargeted = 'the kept grids were diced under other parameter bases';
      else return this.renderTargeted(edited, options, plan);
    }
    const rendered = await this.renderWhole(edited, options);
    if (untargeted !== undefined) rendered.stats.untargeted = untargeted;
    return rendered;
  }

  /** The edits applied in place: the blocks and colours written, only the marked grids shaded again. */
  private async renderTargeted(edited: Frame, options: RenderOptions, plan: EditPlan): Promise<RenderedFrame> {
    const { job } = plan;
    const buffers = this.buffers!;
    const { device, allocator } = this.gpu;
    const regions: RegionReport[] = [];
    let gpuFrame: FrameGpu | undefined;
    let dirty: Region | 'all' | undefined;
    try {
      await underBudget(this.gpu, job, async () => {
        for (const { pipeline, at, values } of plan.blocks) device.queue.writeBuffer(buffers.pipelines[pipeline]!.paramBuffer, at * 4, values as Float32Array<ArrayBuffer>);
        const floats = job.converted.records.floats();
        for (const { record, words } of plan.colours) {
          const at = record * RECORD.floats + RECORD.Cs;
          floats.set(words, at);
          device.queue.writeBuffer(buffers.prims, at * 4, words as Float32Array<ArrayBuffer>);
        }
        // Fresh loop flags, so only this render's capped loops are reported (shading/loop-cap.ts).
        buffers.pipelines = buffers.pipelines.map((entry, k) => {
          const { params, opaque } = job.converted.pipelines[k]!;
          if (!entry.loopFlags) return { ...entry, params, opaque };
          allocator.release(entry.loopFlags);
          this.owned.splice(this.owned.indexOf(entry.loopFlags), 1);
          const loopFlags = createLoopFlags(this.gpu, entry.kernel)!;
          this.owned.push(loopFlags);
          return { ...entry, params, opaque, loopFlags };
        });
        device.queue.writeBuffer(this.counter!, 0, new Uint32Array(4));
        gpuFrame = frameGpu(this.gpu, job, buffers, options, this.counter!, regions);
        const graph = job.stats.stages!.map((node) => ({ ...node, cut: node.level === 'sampling' }));
        const work = { redice: plan.redice, gridInfoCurrent: true, only: plan.shade };
        const passes = graphPasses(graph, [keptLevel(gpuFrame, buffers.tables, work), samplingLevel(samplingTarget(job))]);
        dirty = await this.dirtyRect(job, plan, options, gpuFrame.apron);
        if (dirty === 'all') {
          for (const kept of this.kept) await runBin(gpuFrame, passes, kept, kept.region);
          return;
        }
        // The last picture, of which only the pixels the marked grids reach are sampled again.
        job.image.rgba.set(this.last!.image.rgba);
        job.image.depth.set(this.last!.image.depth);
        job.stats.resampledPixels = 0;
        for (const kept of this.kept) {
          const clip = dirty && intersection(kept.region, dirty);
          if (clip) job.stats.resampledPixels += (clip.x1 - clip.x0) * (clip.y1 - clip.y0);
          await runBin(gpuFrame, clip ? passes : passes.slice(0, 1), kept, clip ?? kept.region);
        }
      });
    } catch (error) {
      return this.failed(error, edited, options);
    }
    this.job = job;
    this.base = { ...this.base!, job, snapshot: snapshotFrame(edited) };
    job.stats.reuse = plan.redice ? 'targeted, rediced' : 'targeted';
    if (this.options.bucketSize) job.stats.mode = 'bucket';
    const rendered = await finish(this.gpu, job, gpuFrame, regions, options);
    const box = dirty;
    if (box !== 'all' && rendered.primitiveIds) {
      // Pixels not sampled again keep the last render's primitives.
      const ids = rendered.primitiveIds;
      this.last!.ids!.forEach((id, k) => {
        const x = (k % job.image.width) + job.camera.crop.x0;
        const y = Math.floor(k / job.image.width) + job.camera.crop.y0;
        if (!box || x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1) ids[k] = id;
      });
    }
    return this.remember(rendered);
  }

  /** Which pixels a targeted render samples again: the marked grids' box (undefined: none), or 'all'
   * where the last picture cannot be kept (an Imager or output variables change it after sampling,
   * grid outlines need every region, motion blur or depth of field spread samples past a grid's box,
   * a displacement moves its grids, or the ids asked for were not kept). */
  private async dirtyRect(job: FrameJob, plan: EditPlan, options: RenderOptions, apron: number): Promise<Region | 'all' | undefined> {
    const last = this.last;
    if (!last || job.imager || job.variables.size > 0 || options.gridOutlines || job.camera.lens || (options.primitiveIds && !last.ids)) return 'all';
    const floats = job.converted.records.floats();
    const pipelines = job.converted.pipelines;
    for (let r = 0; r < plan.shade.length; r++) {
      if (!plan.shade[r]) continue;
      if (floats[r * RECORD.floats + RECORD.motion] !== 0 || pipelines[this.base!.tables.pipeline[r]!]!.kernel.writesGridInputs.length > 0) return 'all';
    }
    return markedGridsRect(this.gpu, this.kept, plan.shade, job.layout, job.camera, apron);
  }

  /** The picture (and primitive ids) a later targeted render keeps outside what it samples. */
  private remember(rendered: RenderedFrame): RenderedFrame {
    this.last = { image: rendered.image, ...(rendered.primitiveIds ? { ids: rendered.primitiveIds } : {}) };
    return rendered;
  }

  /** A failed re-render: a cancelled one rethrown, one out of memory rendered from scratch; the kept
   * grids go either way (some regions may have been diced or shaded again and others not). */
  private failed(error: unknown, edited: Frame, options: RenderOptions): Promise<RenderedFrame> {
    if (!isCancelled(error) && !(error instanceof BudgetTooSmallError) && !(error instanceof GpuBudgetError)) throw error;
    this.releaseAll();
    if (isCancelled(error)) throw error;
    return this.fromScratch(edited, options, `the kept grids leave too little memory (${(error as Error).message})`);
  }

  /** The whole frame converted again and compared with the last conversion. */
  private async renderWhole(edited: Frame, options: RenderOptions): Promise<RenderedFrame> {
    const job = startFrame(this.gpu, edited, options);
    const setupWarnings = [...job.warnings];
    const why = incompatibility(this.job, job);
    if (why) {
      this.releaseAll();
      return this.fromScratch(edited, options, why, job);
    }
    const { converted } = job;
    const before = this.job.converted.records;
    const inputsChanged = !sameRange(before.floats(), converted.records.floats(), RECORD.s, RECORD.floats) ||
      !sameFloats(before.userFloatsData(), converted.records.userFloatsData());
    const tables = primitiveTables(converted);
    const gridInfoCurrent = tables.paramBase.every((b, k) => b === this.dicedParamBase[k]);
    const overwrites = [...this.job.converted.pipelines, ...converted.pipelines].some((p) => p.kernel.writesGridInputs.length > 0);
    const redice = inputsChanged || overwrites;
    // New records (parameter bases, pipelines, colours) and parameter blocks; the old blocks go.
    const { device, allocator } = this.gpu;
    device.queue.writeBuffer(this.buffers!.prims, 0, converted.records.floats() as Float32Array<ArrayBuffer>);
    if (inputsChanged) device.queue.writeBuffer(this.buffers!.userCorners, 0, converted.records.userFloatsData() as Float32Array<ArrayBuffer>);
    for (const p of this.buffers!.pipelines) {
      for (const buffer of [p.paramBuffer, ...(p.loopFlags ? [p.loopFlags] : [])]) {
        allocator.release(buffer);
        this.owned.splice(this.owned.indexOf(buffer), 1);
      }
    }
    this.buffers!.pipelines = [];
    const regions: RegionReport[] = [];
    let gpuFrame: FrameGpu | undefined;
    try {
      await underBudget(this.gpu, job, async () => {
        this.buffers!.pipelines = uploadParams(this.gpu, converted, this.owned);
        this.buffers!.tables = tables;
        const counter = this.counter!;
        device.queue.writeBuffer(counter, 0, new Uint32Array(4));
        gpuFrame = frameGpu(this.gpu, job, this.buffers!, options, counter, regions);
        // Kept bins are shaded and sampled again whole; their sampling bins are cut as they need.
        const graph = job.stats.stages!.map((node) => ({ ...node, cut: node.level === 'sampling' }));
        const passes = graphPasses(graph, [keptLevel(gpuFrame, tables, { redice, gridInfoCurrent }), samplingLevel(samplingTarget(job))]);
        for (const kept of this.kept) await runBin(gpuFrame, passes, kept, kept.region);
      });
    } catch (error) {
      return this.failed(error, edited, options);
    }
    if (redice) this.dicedParamBase = tables.paramBase;
    this.job = job;
    if (this.base) this.base = { ...this.base, job, setupWarnings, tables, snapshot: snapshotFrame(edited) };
    job.stats.reuse = redice ? 'rediced' : 'reused';
    if (this.options.bucketSize) job.stats.mode = 'bucket';
    return this.remember(await finish(this.gpu, job, gpuFrame, regions, options));
  }

  private async fromScratch(frame: Frame, options: RenderOptions, why: string, job = startFrame(this.gpu, frame, options)): Promise<RenderedFrame> {
    const rendered = await renderJob(this.gpu, job, options);
    rendered.stats.reuse = `full: ${why}`;
    return rendered;
  }

  private releaseKept(): void {
    for (const k of this.kept) {
      releaseGrids({ gpu: this.gpu } as FrameGpu, k.diced);
      this.gpu.allocator.release(k.ready.buffer);
    }
    this.kept = [];
  }

  private releaseAll(): void {
    this.keeping = false;
    this.base = undefined;
    this.releaseKept();
    for (const buffer of this.owned) this.gpu.allocator.release(buffer);
    this.owned = [];
    this.buffers = undefined;
    this.counter = undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.releaseAll();
  }
}

/** Why a prepared frame's kept grids cannot serve `next`, or undefined when they can. */
function incompatibility(prepared: FrameJob, next: FrameJob): string | undefined {
  const a = prepared.camera;
  const b = next.camera;
  if (a.xResolution !== b.xResolution || a.yResolution !== b.yResolution) return 'the resolution changed';
  if (!sameFloats(a.cameraToRaster, b.cameraToRaster) || !sameFloats(prepared.spaces.world, next.spaces.world) ||
    a.near !== b.near || a.far !== b.far || a.perspective !== b.perspective) return 'the camera changed';
  // Bound/split culls against them: kept ready pieces hold only what the old planes left.
  if (!sameFloats(a.clipPlanes.flat(), b.clipPlanes.flat())) return 'the clipping planes changed';
  if (a.eyeSplits !== b.eyeSplits) return 'the eye splits changed';
  if (a.crop.x0 !== b.crop.x0 || a.crop.y0 !== b.crop.y0 || a.crop.x1 !== b.crop.x1 || a.crop.y1 !== b.crop.y1) return 'the crop window changed';
  if (prepared.nx !== next.nx || prepared.ny !== next.ny) return 'the pixel samples changed';
  if (prepared.filter.code !== next.filter.code || prepared.filter.xWidth !== next.filter.xWidth || prepared.filter.yWidth !== next.filter.yWidth) return 'the pixel filter changed';
  if (prepared.budgetBytes !== next.budgetBytes) return 'the memory budget changed';
  if (prepared.layout.recordFloats !== next.layout.recordFloats || prepared.layout.maxVertices !== next.layout.maxVertices) return 'the grid layout changed';
  const ra = prepared.converted.records;
  const rb = next.converted.records;
  if (ra.count !== rb.count || ra.userFloatsData().length !== rb.userFloatsData().length) return 'the geometry changed';
  // Everything bound/split reads (kind, flags, shading rate, displacement bound, matrix, geometry).
  const fa = ra.floats();
  const fb = rb.floats();
  const wa = new Uint32Array(fa.buffer, fa.byteOffset, fa.length);
  const wb = new Uint32Array(fb.buffer, fb.byteOffset, fb.length);
  for (let r = 0; r < ra.count; r++) {
    const base = r * RECORD.floats;
    for (let k = 0; k < RECORD.s; k++) {
      if (k === RECORD.paramBase || k === RECORD.pipeline) continue;
      if (wa[base + k] !== wb[base + k]) return 'the geometry or shading rate changed';
    }
  }
  return undefined;
}

/** Equal words in [from, to) of every record. */
function sameRange(a: Float32Array, b: Float32Array, from: number, to: number): boolean {
  const wa = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const wb = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let base = 0; base < wa.length; base += RECORD.floats) {
    for (let k = from; k < to; k++) if (wa[base + k] !== wb[base + k]) return false;
  }
  return true;
}

function intersection(a: Region, b: Region): Region | undefined {
  const r = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
  return r.x0 < r.x1 && r.y0 < r.y1 ? r : undefined;
}

function sameFloats(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k] && !(Number.isNaN(a[k]) && Number.isNaN(b[k]))) return false;
  return true;
}
