// Shade: every grid runs through its pipeline's shading kernel (one workgroup per grid), in the
// dispatches the shading scheduler (schedulers/shading-scheduler.ts) cuts each kernel's grid list
// into; a dispatch is a window of gridInfo (bound at an offset), so grids never move.
import { GRID_INFO } from '../../layout/grid-layout.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { addGpuTimes, stageRecorder, timed, type FrameGpu, type ReadyPieces } from '../frame-gpu.ts';
import { kernelFrameUniforms } from '../shading/spaces.ts';
import { kernelDispatch, maxGridsPerBatch } from '../shading/multipass.ts';
import type { DicedGrids } from './dice.ts';
import { reseam } from './reseam.ts';
import { shadingBatches } from '../schedulers/shading-scheduler.ts';

/** `dicedGridInfoCurrent` false: the grids were diced before the primitives' parameter bases changed
 * (a prepared frame re-rendered), so the lists are built from `primParamBase` even for one pipeline.
 * `only` (per record, non-zero to shade): a prepared frame's targeted edit shades just the grids of
 * those records; the others keep what an earlier render shaded into them (grids are shaded in place). */
export function shade(
  frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, primPipeline: Uint32Array, primParamBase: Uint32Array, dicedGridInfoCurrent = true,
  only?: Uint8Array,
): Promise<void> {
  return timed(frame, 'shade', async () => {
    if (diced.count === 0) return;
    const { gpu } = frame;
    const pieces = await gpu.readU32(ready.buffer, ready.count * PIECE.words);
    const shaded = (g: number): boolean => !only || only[pieces[g * PIECE.words + PIECE.prim]!] !== 0;
    // With one pipeline every grid uses the diced gridInfo; otherwise each pipeline gets its own
    // gridInfo list, built from the ready pieces (prim, nu, nv of each grid).
    const lists: { pipeline: number; gridInfo: GPUBuffer; count: number; owned: boolean }[] = [];
    if (frame.pipelines.length === 1 && dicedGridInfoCurrent && !only) {
      lists.push({ pipeline: 0, gridInfo: diced.gridInfo, count: diced.count, owned: false });
    } else {
      const perPipeline = frame.pipelines.map(() => [] as number[]);
      for (let g = 0; g < ready.count; g++) {
        if (!shaded(g)) continue;
        const prim = pieces[g * PIECE.words + PIECE.prim]!;
        perPipeline[primPipeline[prim]!]!.push(pieces[g * PIECE.words + PIECE.nu]!, pieces[g * PIECE.words + PIECE.nv]!,
          diced.bases[g]!, primParamBase[prim]!);
      }
      perPipeline.forEach((words, pipeline) => {
        if (words.length === 0) return;
        const gridInfo = gpu.allocator.createBufferWithData('pipeline grid info', new Uint32Array(words), GPUBufferUsage.STORAGE);
        lists.push({ pipeline, gridInfo, count: words.length / GRID_INFO.words, owned: true });
      });
    }
    try {
      for (const list of lists) await shadeList(frame, diced, list.pipeline, list.gridInfo, list.count);
      // Displacement moved seam vertices off their coarser neighbours' edges: put them back (grids
      // a targeted edit left alone were put back when they were shaded).
      if (diced.seams && lists.length > 0) await reseam(frame, ready, diced.grids, diced.seams);
    } finally {
      for (const list of lists) if (list.owned) gpu.allocator.release(list.gridInfo);
    }
    for (let g = 0; g < ready.count; g++) {
      const nu = pieces[g * PIECE.words + PIECE.nu]!;
      const nv = pieces[g * PIECE.words + PIECE.nv]!;
      frame.stats.micropolygons += (nu - 1) * (nv - 1);
      if (!shaded(g)) continue;
      frame.stats.verticesShaded += nu * nv;
      frame.stats.gridsShaded++;
    }
  });
}

export async function shadeList(frame: FrameGpu, diced: DicedGrids, pipelineIndex: number, gridInfo: GPUBuffer, count: number): Promise<void> {
  const { gpu } = frame;
  const entry = frame.pipelines[pipelineIndex]!;
  const kernel = entry.kernel;
  // One pipeline, or the passes of a kernel the compiler split (shading/multipass.ts).
  const dispatch = await kernelDispatch(gpu, kernel, frame.layout.maxVertices);
  for (const { start, count: n } of shadingBatches(count, Math.min(gpu.limits.maxComputeWorkgroupsPerDimension * 64, maxGridsPerBatch(kernel, frame.layout.maxVertices, gpu.maxBindingBytes())))) {
    frame.stats.shadingBatches++;
    const used = kernel.bindings ?? [0, 1, 2, 3];
    const pass = async (): Promise<void> => {
      const recorder = stageRecorder(frame, `shade ${kernel.label}`);
      const uniforms = recorder.transient(gpu.allocator.createBufferWithData('frame uniforms', kernelFrameUniforms(frame.spaces, n, kernel.loops?.iterations), GPUBufferUsage.UNIFORM));
      const bindings = {
        0: diced.grids,
        1: { buffer: gridInfo, offset: start * GRID_INFO.words * 4, size: n * GRID_INFO.words * 4 },
        2: entry.paramBuffer,
        3: uniforms,
        5: frame.textures.atlas,
        6: frame.textures.feedback,
        // Loops that leave through the cap raise their flag here (shading/loop-cap.ts).
        ...(entry.loopFlags ? { 12: entry.loopFlags } : {}),
      } as Record<(typeof used)[number], GPUBuffer | GPUBufferBinding>;
      dispatch(recorder, Object.fromEntries(used.map((b) => [b, bindings[b]])), n);
      await recorder.submit();
      addGpuTimes(frame, recorder, 'shade');
    };
    // Kernels with texture lookups run again for the grids that missed a tile (src/texture/tile-pool.ts).
    await (used.includes(5) ? frame.textures.shadeBatch(n, pass, frame.stats.textures, kernel) : pass());
  }
}
