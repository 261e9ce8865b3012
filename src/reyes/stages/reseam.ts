// Reseam (reyes-reseam.wgsl): after the shading kernels displaced P, puts the in-between edge
// vertices of finer grids back on their coarser neighbours' displaced straight edges, so displaced
// surfaces stay as watertight as the dicer made them. Runs only when a shading kernel of the frame
// writes P; the dicer keeps the seam table alive for it (DicedGrids.seams).
import { gridOffsetConstants } from '../../layout/grid-layout.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import { addGpuTimes, stageRecorder, type FrameGpu, type ReadyPieces } from '../frame-gpu.ts';
import { seamCells } from './grid-seams.ts';
import { shapeConstants } from '../convert/convert-frame.ts';

/** Whether any shading kernel of the frame displaces (writes P), so seams must be closed again after it. */
export function frameDisplaces(frame: Pick<FrameGpu, 'pipelines'>): boolean {
  return frame.pipelines.some((p) => p.kernel.writesGridInputs.includes('P'));
}

export async function reseam(frame: FrameGpu, ready: ReadyPieces, grids: GPUBuffer, seams: GPUBuffer): Promise<void> {
  if (ready.count === 0) return;
  const { gpu, layout } = frame;
  const pipeline = await kernelPipeline(gpu, 'reyes-reseam.wgsl', 'reseam', {
    ...gridOffsetConstants(layout, ['P']),
    SEAM_CELLS: seamCells(layout.maxVertices),
    ...shapeConstants(frame.shapeKinds),
  });
  const recorder = stageRecorder(frame, 'reseam');
  const params = recorder.params('reseam', [ready.count, 0, 0, 0]);
  recorder.dispatch(pipeline, { 0: params, 1: frame.prims, 2: ready.buffer, 3: grids, 4: seams }, ready.count);
  await recorder.submit();
  addGpuTimes(frame, recorder, 'shade');
}
