// Dice: each ready piece becomes a grid record in the shared grid layout (reyes-dice.wgsl), with
// its gridInfo words (nu, nv, record base, parameter base). The ready pieces come back to the CPU
// once so that the seam table (grid-seams.ts) can say where a neighbouring grid is coarser, in the
// same record or across a joined record edge (the patches of a mesh).
import { seamCells, seamTable } from './grid-seams.ts';
import { frameDisplaces } from './reseam.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { addGpuTimes, stageRecorder, timed, type FrameGpu, type ReadyPieces } from '../frame-gpu.ts';
import { GRID_INFO, gridOffsetConstants, layoutUserVariables } from '../../layout/grid-layout.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';

export interface DicedGrids {
  grids: GPUBuffer;
  gridInfo: GPUBuffer;
  count: number;
  /** The seam table, kept for the reseam pass when a shading kernel displaces (stages/reseam.ts). */
  seams?: GPUBuffer;
}

const DICED_VARIABLES = ['P', 'N', 'Ng', 'I', 'dPdu', 'dPdv', 'u', 'v', 'du', 'dv', 's', 't', 'Cs', 'Os'];

/** Bytes of grid storage one ready piece needs (record + gridInfo). */
export function gridBytes(frame: FrameGpu): number {
  return frame.layout.recordFloats * 4 + GRID_INFO.words * 4;
}

export function dice(frame: FrameGpu, ready: ReadyPieces): Promise<DicedGrids> {
  return timed(frame, 'dice', async () => {
    const { gpu, layout } = frame;
    // User primitive variables sit together in the grid record, component rows in layout order,
    // and per primitive record in its auxiliary block (primitive-record.ts, frame.userCorners) as 4
    // corners per component row in the same order, or 16 Bézier control values for vertex-class
    // variables on bicubic records.
    const user = layoutUserVariables(layout);
    const userComponents = user.reduce((n, v) => n + (v.type === 'float' ? 1 : 3), 0);
    const firstUser = user[0] ? layout.variables.find((v) => v.name === user[0]!.name)!.offset : 0;
    const pipeline = await kernelPipeline(gpu, 'reyes-dice.wgsl', 'dice', {
      ...gridOffsetConstants(layout, DICED_VARIABLES),
      RECORD_FLOATS: layout.recordFloats,
      USER_COMPONENTS: userComponents,
      OFF_USER: firstUser,
      SEAM_CELLS: seamCells(layout.maxVertices),
    });
    const pieces = ready.count > 0 ? await gpu.readU32(ready.buffer, ready.count * PIECE.words) : new Uint32Array(0);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const grids = gpu.allocator.createBuffer({ label: 'grids', size: ready.count * layout.recordFloats * 4, usage });
    let gridInfo: GPUBuffer;
    try {
      gridInfo = gpu.allocator.createBuffer({ label: 'grid info', size: ready.count * GRID_INFO.words * 4, usage });
    } catch (error) {
      gpu.allocator.release(grids);
      throw error;
    }
    let seams: GPUBuffer;
    try {
      seams = gpu.allocator.createBufferWithData('grid seams', seamTable(pieces, ready.count, layout.maxVertices, 1, frame.edgeNeighbours), usage);
    } catch (error) {
      gpu.allocator.release(grids);
      gpu.allocator.release(gridInfo);
      throw error;
    }
    const recorder = stageRecorder(frame, 'dice');
    const params = recorder.params('dice', [ready.count, frame.camera.perspective ? 1 : 0, 0, 0]);
    recorder.dispatch(pipeline, { 0: params, 1: frame.prims, 2: ready.buffer, 3: grids, 4: gridInfo, 5: frame.userCorners, 6: seams }, ready.count);
    const keepSeams = frameDisplaces(frame);
    try {
      await recorder.submit();
    } finally {
      if (!keepSeams) gpu.allocator.release(seams);
    }
    addGpuTimes(frame, recorder, 'dice');
    return { grids, gridInfo, count: ready.count, ...(keepSeams ? { seams } : {}) };
  });
}

export function releaseGrids(frame: FrameGpu, diced: DicedGrids): void {
  frame.gpu.allocator.release(diced.grids);
  frame.gpu.allocator.release(diced.gridInfo);
  if (diced.seams) frame.gpu.allocator.release(diced.seams);
}
