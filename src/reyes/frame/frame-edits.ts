// Targeted edits of a prepared frame: the page says what it changed since the last render (a light's
// parameters, the shader parameters or the colour of known primitives), so the next render repacks
// only the parameter blocks those reach (through the shading provider, one primitive at a time) or
// converts only the recoloured primitives again for their records' colour words, and marks the
// records whose grids must be shaded again, instead of converting the whole frame and diffing it
// with the last conversion. What a description cannot express is refused with the reason, and the
// prepared frame takes the whole-frame path.
import { createFloatImage } from '../../image/image.ts';
import { RECORD } from '../../layout/primitive-record.ts';
import type { Frame, Geometry } from '../../rib/scene.ts';
import { convertFrame, leavesOpaque, shadingRequest, type ShadingPipeline } from '../convert/convert-frame.ts';
import type { PrimitiveTables } from '../schedulers/dicing-scheduler.ts';
import type { FrameTextures } from '../../texture/texture-registry.ts';
import { emptyStats } from '../stats.ts';
import { defaultProvider } from './default-provider.ts';
import { frameStages, type FrameJob } from './frame-job.ts';
import type { RenderOptions } from './render-options.ts';

/** One change made to a prepared frame's Frame since its last render (PreparedRenderOptions.edits). */
export type FrameEdit =
  /** Parameters of `frame.lights[light]` (switching a light on or off changes kernels: not an edit). */
  | { kind: 'light'; light: number }
  /** Surface, displacement or atmosphere shader parameters of these primitives (frame.primitives indexes). */
  | { kind: 'shader'; primitives: readonly number[] }
  /** The Color or Opacity attribute of these primitives. */
  | { kind: 'color'; primitives: readonly number[] };

/** What targeted edits must know of the frame as the kept grids were last rendered. */
export interface EditBase {
  job: FrameJob;
  /** The job's warnings before it rendered (conversion and set-up): a targeted render repeats them. */
  setupWarnings: readonly string[];
  tables: PrimitiveTables;
  /** Each scene primitive's records (the ones with any). */
  recordsOf: ReadonlyMap<number, readonly number[]>;
  /** The texture maps the kept tile pool serves. */
  textures: FrameTextures | undefined;
  snapshot: FrameSnapshot;
}

/** What an edit description promises unchanged, copied at a render. */
export interface FrameSnapshot {
  camera: string;
  options: string;
  lights: number;
  primitives: { geometry: Geometry; objectToWorld: readonly number[]; state: string }[];
}

/** A targeted render's work: the job (the last conversion with the edited blocks and flags), the
 * parameter floats and record colour words to write, and the records whose grids shade again. */
export interface EditPlan {
  job: FrameJob;
  blocks: { pipeline: number; at: number; values: Float32Array }[];
  colours: { record: number; words: Float32Array }[];
  /** Per record: 1 where its grids are shaded again. */
  shade: Uint8Array;
  /** Kept regions holding marked records are diced again (their colours changed, or their kernel
   * overwrites its grid inputs: displacement). */
  redice: boolean;
}

export function snapshotFrame(frame: Frame): FrameSnapshot {
  return {
    camera: JSON.stringify(frame.camera),
    options: JSON.stringify(frame.options),
    lights: frame.lights.length,
    primitives: frame.primitives.map((p) => ({ geometry: p.geometry, objectToWorld: p.objectToWorld, state: primitiveState(p) })),
  };
}

/** Everything of a primitive but its shader parameters, colour and opacity that shading reads. */
function primitiveState(p: Frame['primitives'][number]): string {
  const a = p.attributes;
  return JSON.stringify([a.lights, a.shadingRate, a.surface?.name, a.displacement?.name, a.atmosphere?.name, a.matte, a.sides, a.orientation, p.motion]);
}

/** The work of a targeted render of `edited`, or why `edits` cannot describe it. */
export function planEdits(base: EditBase, edited: Frame, options: RenderOptions, edits: readonly FrameEdit[]): EditPlan | { why: string } {
  const started = performance.now();
  const prev = base.job;
  const why = unchanged(base.snapshot, edited);
  if (why) return { why };
  const warnings = [...base.setupWarnings];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };
  const provider = options.shading ?? defaultProvider().provide;
  // A new key for the provider's per-frame instance cache: the edited values must be packed again.
  const spaces = { ...prev.spaces };
  const { tables, recordsOf } = base;
  const records = prev.converted.records;
  const floats = records.floats();
  const pipelines: ShadingPipeline[] = [...prev.converted.pipelines];
  const plan: EditPlan = { job: prev, blocks: [], colours: [], shade: new Uint8Array(records.count), redice: false };

  // Primitives declared under one attribute state share its object: an edit of one edits them all.
  const sharing = (indexes: readonly number[]): number[] => {
    const states = new Set(indexes.map((i) => edited.primitives[i]?.attributes));
    return edited.primitives.flatMap((p, i) => (states.has(p.attributes) && recordsOf.has(i) ? [i] : []));
  };
  const repack = new Set<number>();
  const recolour = new Set<number>();
  for (const edit of edits) {
    if (edit.kind === 'light') {
      if (!edited.lights[edit.light]) return { why: `there is no light ${edit.light}` };
      edited.primitives.forEach((p, i) => p.attributes.lights.includes(edit.light) && recordsOf.has(i) && repack.add(i));
    } else {
      for (const i of sharing(edit.primitives)) (edit.kind === 'shader' ? repack : recolour).add(i);
    }
  }

  // Parameter blocks: each reached block packed again, written where it changed. Primitives of the
  // same shading content share a block (shading/instance-cache.ts): one of them edited alone cannot
  // be written in place, so such an edit converts the frame again.
  const blockKey = (r: number): string => `${tables.pipeline[r]}:${tables.paramBase[r]}`;
  const repackedRecords = new Set([...repack].flatMap((i) => recordsOf.get(i)!));
  const repackedBlocks = new Set([...repackedRecords].map(blockKey));
  /** Reached blocks that records the edit leaves alone also use. */
  const sharedBlocks = new Set<string>();
  if (repackedBlocks.size > 0) {
    for (let r = 0; r < records.count; r++) if (!repackedRecords.has(r) && repackedBlocks.has(blockKey(r))) sharedBlocks.add(blockKey(r));
  }
  const packed = new Set<string>();
  const changedBlocks = new Set<string>();
  for (const i of repack) {
    const first = recordsOf.get(i)![0]!;
    const pipeline = tables.pipeline[first]!;
    const at = tables.paramBase[first]!;
    const key = blockKey(first);
    if (packed.has(key)) continue;
    packed.add(key);
    if (sharedBlocks.has(key)) return { why: `the parameter block of primitive ${i} is shared with primitives the edit leaves alone` };
    const instance = provider(shadingRequest(edited, i, spaces, prev.layout, warn));
    const entry = pipelines[pipeline]!;
    if (instance.kernel.key !== entry.kernel.key) return { why: `the shading kernel of primitive ${i} changed` };
    if (at + instance.params.length > entry.params.length) return { why: `the parameter block of primitive ${i} grew` };
    if (instance.params.every((v, k) => Object.is(v, entry.params[at + k]))) continue;
    const params = entry.params === prev.converted.pipelines[pipeline]!.params ? entry.params.slice() : entry.params;
    params.set(instance.params, at);
    pipelines[pipeline] = { ...entry, params };
    plan.blocks.push({ pipeline, at, values: instance.params });
    changedBlocks.add(key);
  }
  if (changedBlocks.size > 0) {
    for (let r = 0; r < records.count; r++) if (changedBlocks.has(blockKey(r))) plan.shade[r] = 1;
  }

  // Colours: the recoloured primitives converted alone for their records' Cs and Os corner words.
  const opacityPipelines = new Set<number>();
  for (const i of recolour) {
    const mine = recordsOf.get(i)!;
    if (mine.some((r) => floats[r * RECORD.floats + RECORD.solid] !== 0)) return { why: `primitive ${i} is in a solid` };
    const alone = convertFrame({ ...edited, primitives: [edited.primitives[i]!], solids: [] }, prev.camera, spaces, prev.layout, provider, () => {});
    if (alone.records.count !== mine.length) return { why: `primitive ${i} converts to other records alone` };
    const fresh = alone.records.floats();
    mine.forEach((r, k) => {
      const words = fresh.slice(k * RECORD.floats + RECORD.Cs, k * RECORD.floats + RECORD.N);
      const at = r * RECORD.floats + RECORD.Cs;
      if (words.every((v, j) => Object.is(v, floats[at + j]))) return;
      plan.colours.push({ record: r, words });
      plan.shade[r] = 1;
    });
    opacityPipelines.add(tables.pipeline[mine[0]!]!);
  }
  plan.redice = plan.colours.length > 0 || plan.shade.some((on, r) => on === 1 && pipelines[tables.pipeline[r]!]!.kernel.writesGridInputs.length > 0);

  // The shaders' texture maps must be those the kept tile pool holds (a new map name, a shadow map
  // rendered again for a moved light).
  const textures = provider.textures?.(spaces);
  const maps = textures?.maps ?? [];
  const pool = base.textures?.maps ?? [];
  if (maps.length !== pool.length || maps.some((m, k) => m !== pool[k])) return { why: 'the texture maps changed' };

  // Opacity decides the opaque path (sample and composite fused) per pipeline, as convertFrame does.
  let opaqueChanged = false;
  for (const p of opacityPipelines) {
    let opaque = pipelines[p]!.kernel.keepsOpaque;
    for (let r = 0; r < records.count && opaque; r++) {
      if (tables.pipeline[r] !== p) continue;
      const { attributes, geometry } = edited.primitives[records.sources[r]!]!;
      if (!leavesOpaque(attributes, geometry, floats[r * RECORD.floats + RECORD.solid] !== 0)) opaque = false;
    }
    if (opaque !== pipelines[p]!.opaque) {
      pipelines[p] = { ...pipelines[p]!, opaque };
      opaqueChanged = true;
    }
  }

  const stats = emptyStats();
  const { resolution, pixelSamples, mode, scenePrimitives, primitiveRecords } = prev.stats;
  Object.assign(stats, { resolution, pixelSamples, mode, scenePrimitives, primitiveRecords });
  stats.stages = opaqueChanged ? frameStages(options, pipelines, prev.layout.maxVertices) : prev.stats.stages!.map((node) => ({ ...node }));
  stats.stageMs.convert = performance.now() - started;
  plan.job = {
    ...prev, started, frame: edited, stats, warnings, warn, converted: { ...prev.converted, pipelines },
    image: createFloatImage(prev.image.width, prev.image.height),
    variables: new Map([...prev.variables].map(([name, v]) => [name, { ...v, image: createFloatImage(v.image.width, v.image.height) }])),
  };
  return plan;
}

/** Why `edited` differs from the snapshot in something an edit description cannot say. */
function unchanged(snapshot: FrameSnapshot, edited: Frame): string | undefined {
  if (JSON.stringify(edited.camera) !== snapshot.camera) return 'the camera changed';
  if (JSON.stringify(edited.options) !== snapshot.options) return 'the options changed';
  if (edited.lights.length !== snapshot.lights || edited.primitives.length !== snapshot.primitives.length) return 'lights or primitives were added or removed';
  for (let i = 0; i < edited.primitives.length; i++) {
    const p = edited.primitives[i]!;
    const was = snapshot.primitives[i]!;
    if (p.geometry !== was.geometry || p.objectToWorld !== was.objectToWorld) return `the geometry of primitive ${i} changed`;
    if (primitiveState(p) !== was.state) return `the lights, shaders or shading rate of primitive ${i} changed`;
  }
  return undefined;
}
