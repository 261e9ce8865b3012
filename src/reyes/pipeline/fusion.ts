// Kernel fusion, as Piko fuses adjacent stages whose bins and schedules allow it. Dice and shade run
// over the same dicing bins and map one grid to one workgroup in both (DirectMap), so each compiled
// RSL shading kernel is joined to the dicer (shaders/kernels/reyes-dice-shade.wgsl): a workgroup
// dices the grid it then shades, in one dispatch. Saved: the dicer's dispatch, its submission and
// the wait for it before shading. Not saved yet: the grid still passes through storage (written by
// the dicer's half, read back by the shading half after a storageBarrier in the same workgroup),
// because a compiled kernel loads its inputs from the grid record; keeping them in registers needs
// the compiler to take them as values (src/rsl/wgsl.ts). Kernels binding more than the grid
// contract (texture lookups, light counting), kernels split into passes and the built-in surfaces
// are not fused: their grids are diced apart first (reyes-dice.wgsl diceListed), then shaded as
// without fusion.
// Off unless PipelineConfig.fusion is true: on lavapipe a fused kernel (the dicer inlined into each
// shader) takes far longer to compile than the dispatch and wait it saves.
import type { Bindings } from '../../gpu/runtime.ts';
import { GRID_INFO } from '../../layout/grid-layout.ts';
import { kernelPipeline, kernelSource } from '../../layout/kernel-sources.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { addGpuTimes, stageRecorder, timed } from '../frame-gpu.ts';
import type { DicingBin } from '../schedulers/dicing-scheduler.ts';
import { shadingBatches } from '../schedulers/shading-scheduler.ts';
import type { ShadingKernel } from '../shading/shading-kernel.ts';
import { kernelFrameUniforms } from '../shading/spaces.ts';
import { allocateGrids, diceConstants, keepSeamsIfDisplaced, type DicedGrids } from '../stages/dice.ts';
import { shadeList } from '../stages/shade.ts';
import { LOOP_FLAG_BINDING } from '../../rsl/wgsl.ts';
import { frameDisplaces, reseam } from '../stages/reseam.ts';

/** The compiled RSL kernel's entry point (src/rsl/wgsl.ts), which the fused kernel calls as a function. */
const RSL_ENTRY = /@compute @workgroup_size\((\d+)\)\nfn main\(@builtin\(workgroup_id\) wid: vec3u, @builtin\(num_workgroups\) nwg: vec3u, @builtin\(local_invocation_index\) lid: u32\) \{/;

/** Why `kernel` cannot be fused with the dicer, or undefined when it can. */
export function fusionBlocker(kernel: ShadingKernel, maxVertices: number): string | undefined {
  const entry = RSL_ENTRY.exec(kernel.code);
  if (kernel.entryPoint !== 'main' || kernel.constants || !entry) return `${kernel.label} is not a compiled RSL kernel`;
  if (kernel.passes) return `${kernel.label} runs in passes (shading/multipass.ts)`;
  if (Number(entry[1]) !== maxVertices) return `${kernel.label} runs ${entry[1]} invocations a grid, the dicer ${maxVertices}`;
  // The loop flags (shading/loop-cap.ts) are bound beside the dicer's bindings.
  if ([...kernel.code.matchAll(/@binding\((\d+)\)/g)].some((b) => Number(b[1]) > 3 && Number(b[1]) !== LOOP_FLAG_BINDING)) return `${kernel.label} binds more than the grid contract (texture lookups)`;
  return undefined;
}

/** Why none of the frame's shading kernels can be fused, or undefined when some can. */
export function frameFusionBlocker(kernels: readonly ShadingKernel[], maxVertices: number): string | undefined {
  const why = kernels.map((kernel) => fusionBlocker(kernel, maxVertices));
  return why.some((w) => w === undefined) ? undefined : (why[0] ?? 'the frame has no shading kernels');
}

/** The WGSL of `kernel` fused with the dicer; entry point diceShade. */
export function diceShadeCode(kernel: ShadingKernel): string {
  return `${kernel.code.replace(RSL_ENTRY, 'fn rsl_shade(wid: vec3u, nwg: vec3u, lid: u32) {')}\n${kernelSource('reyes-dice-shade.wgsl')}`;
}

/** Dice and shade's fused Process on a dicing bin: the bin's grids diced and shaded, one dispatch
 * per shading kernel and batch (timed as dice: the two stages are one kernel). */
export function diceAndShade(bin: DicingBin): Promise<boolean> {
  const { frame } = bin;
  return timed(frame, 'dice', async () => {
    const { gpu, layout } = frame;
    const ready = bin.ready!;
    const pieces = ready.count > 0 ? await gpu.readU32(ready.buffer, ready.count * PIECE.words) : new Uint32Array(0);
    // The gridInfo words the dicer writes, made here: the fused kernel finds its grid through them.
    const lists = frame.pipelines.map(() => [] as number[]);
    /** Per pipeline, its grids' indices (ready pieces). */
    const listed = frame.pipelines.map(() => [] as number[]);
    let vertices = 0;
    let micropolygons = 0;
    const diced = allocateGrids(frame, ready, pieces, (bases) => {
      const all = new Uint32Array(ready.count * GRID_INFO.words);
      for (let g = 0; g < ready.count; g++) {
        const piece = pieces.subarray(g * PIECE.words, (g + 1) * PIECE.words);
        const prim = piece[PIECE.prim]!;
        const info = [piece[PIECE.nu]!, piece[PIECE.nv]!, bases[g]!, bin.tables.paramBase[prim]!];
        all.set(info, g * GRID_INFO.words);
        lists[bin.tables.pipeline[prim]!]!.push(...info);
        listed[bin.tables.pipeline[prim]!]!.push(g);
        vertices += info[0]! * info[1]!;
        micropolygons += (info[0]! - 1) * (info[1]! - 1);
      }
      return all;
    });
    bin.diced = diced;
    const owned: GPUBuffer[] = [];
    try {
      const constants = { ...diceConstants(frame), PERSPECTIVE: frame.camera.perspective ? 1 : 0 };
      const gridInfos = lists.map((words) => {
        if (words.length === 0 || lists.length === 1) return diced.gridInfo;
        owned.push(gpu.allocator.createBufferWithData('pipeline grid info', new Uint32Array(words), GPUBufferUsage.STORAGE));
        return owned.at(-1)!;
      });
      const apart = lists.map((words, index) => words.length > 0 && fusionBlocker(frame.pipelines[index]!.kernel, layout.maxVertices) !== undefined);
      if (apart.some(Boolean)) await diceApart(frame, bin, diced, listed.flatMap((grids, index) => (apart[index] ? grids : [])));
      for (const [index, words] of lists.entries()) {
        if (words.length === 0) continue;
        const gridInfo = gridInfos[index]!;
        if (apart[index]) {
          await shadeList(frame, diced, index, gridInfo, words.length / GRID_INFO.words);
          continue;
        }
        const entry = frame.pipelines[index]!;
        const pipeline = await gpu.kernels.pipeline({ label: `dice+${entry.kernel.label}`, code: diceShadeCode(entry.kernel), entryPoint: 'diceShade', constants });
        const count = words.length / GRID_INFO.words;
        const loopFlags: Bindings = entry.loopFlags ? { [LOOP_FLAG_BINDING]: entry.loopFlags } : {};
        for (const { start, count: n } of shadingBatches(count, gpu.limits.maxComputeWorkgroupsPerDimension * 64)) {
          frame.stats.shadingBatches++;
          const recorder = stageRecorder(frame, `dice+shade ${entry.kernel.label}`);
          const uniforms = recorder.transient(gpu.allocator.createBufferWithData('frame uniforms', kernelFrameUniforms(frame.spaces, n, entry.kernel.loops?.iterations), GPUBufferUsage.UNIFORM));
          recorder.dispatch(pipeline, {
            0: diced.grids, 1: { buffer: gridInfo, offset: start * GRID_INFO.words * 4, size: n * GRID_INFO.words * 4 }, 2: entry.paramBuffer, 3: uniforms,
            // Just the region's pieces, which the fused kernel searches for each grid's base.
            8: frame.prims, 9: { buffer: ready.buffer, size: ready.count * PIECE.words * 4 }, 10: frame.userCorners, 11: diced.seams!, ...loopFlags,
          }, n);
          await recorder.submit();
          addGpuTimes(frame, recorder, 'dice');
        }
      }
      // Displacement moved seam vertices off their coarser neighbours' edges: put them back.
      if (frameDisplaces(frame)) await reseam(frame, ready, diced.grids, diced.seams!);
    } finally {
      for (const buffer of owned) gpu.allocator.release(buffer);
      keepSeamsIfDisplaced(frame, diced);
    }
    frame.stats.gridsDiced += ready.count;
    frame.stats.micropolygons += micropolygons;
    frame.stats.verticesShaded += vertices;
    frame.stats.gridsShaded += ready.count;
    return true;
  });
}

/** The grids `listed` diced by the dicer alone (their shading kernels are not fused). */
async function diceApart(frame: DicingBin['frame'], bin: DicingBin, diced: DicedGrids, listed: number[]): Promise<void> {
  const { gpu } = frame;
  const pipeline = await kernelPipeline(gpu, 'reyes-dice.wgsl', 'diceListed', diceConstants(frame));
  const recorder = stageRecorder(frame, 'dice');
  const list = recorder.transient(gpu.allocator.createBufferWithData('listed grids', new Uint32Array(listed), GPUBufferUsage.STORAGE));
  const params = recorder.params('dice', [listed.length, frame.camera.perspective ? 1 : 0, 0, 0]);
  recorder.dispatch(pipeline, { 0: params, 1: frame.prims, 2: bin.ready!.buffer, 3: diced.grids, 5: frame.userCorners, 6: diced.seams!, 7: list }, listed.length);
  await recorder.submit();
  addGpuTimes(frame, recorder, 'dice');
}
