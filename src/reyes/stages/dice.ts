// Dice: each ready piece becomes a grid in the shared grid layout (reyes-dice.wgsl), with its
// gridInfo words (nu, nv, record base, parameter base). The ready pieces come back to the CPU once
// so that the seam table (grid-seams.ts) can say where a neighbouring grid is coarser, in the same
// record or across a joined record edge (the patches of a mesh), and so that grids of few vertices
// are packed into shared records (packGridRecords): each piece's grid base goes back into its ready
// list word PIECE.gridBase, where the dicer, reseam and the sampler read it.
import { seamCells, seamTable } from './grid-seams.ts';
import { frameDisplaces } from './reseam.ts';
import { PIECE } from '../../layout/ready-piece.ts';
import { addGpuTimes, stageRecorder, timed, type FrameGpu, type ReadyPieces } from '../frame-gpu.ts';
import { GRID_INFO, gridOffsetConstants, layoutUserVariables, packGridRecords, type GridRecords } from '../../layout/grid-layout.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import { shapeConstants } from '../convert/convert-frame.ts';
import type { DicingBin } from '../schedulers/dicing-scheduler.ts';

export interface DicedGrids {
  grids: GPUBuffer;
  gridInfo: GPUBuffer;
  count: number;
  /** Each grid's base in `grids` (floats), as its ready piece's PIECE.gridBase holds it. */
  bases: Uint32Array;
  /** The seam table, kept for the reseam pass when a shading kernel displaces (stages/reseam.ts). */
  seams?: GPUBuffer;
}

const DICED_VARIABLES = ['P', 'N', 'Ng', 'I', 'dPdu', 'dPdv', 'u', 'v', 'du', 'dv', 's', 't', 'Cs', 'Os'];

/** The vertex counts of `count` ready pieces' grids. */
export function pieceVertices(pieces: Uint32Array, count: number): Uint32Array {
  return Uint32Array.from({ length: count }, (_, g) => pieces[g * PIECE.words + PIECE.nu]! * pieces[g * PIECE.words + PIECE.nv]!);
}

/** Where the ready pieces' grids go (packGridRecords), each base also written into `pieces`. */
export function placeGrids(frame: FrameGpu, pieces: Uint32Array, count: number): GridRecords {
  const placed = packGridRecords(frame.layout, pieceVertices(pieces, count));
  for (let g = 0; g < count; g++) pieces[g * PIECE.words + PIECE.gridBase] = placed.bases[g]!;
  return placed;
}

/** Bytes of grid storage `grids` grids in `records` records need (records + gridInfo). */
export function gridBytes(frame: FrameGpu, records: number, grids: number): number {
  return records * frame.layout.recordFloats * 4 + grids * GRID_INFO.words * 4;
}

/** The dicer's override constants (reyes-dice-grid.wgsl), for the dice kernel and the fused ones. */
export function diceConstants(frame: FrameGpu): Record<string, number> {
  const { layout } = frame;
  // User primitive variables sit together in the grid record, component rows in layout order,
  // and per primitive record in its auxiliary block (primitive-record.ts, frame.userCorners) as 4
  // corners per component row in the same order, or 16 Bézier control values for vertex-class
  // variables on bicubic records.
  const user = layoutUserVariables(layout);
  return {
    ...gridOffsetConstants(layout, DICED_VARIABLES),
    USER_COMPONENTS: user.reduce((n, v) => n + (v.type === 'float' ? 1 : 3), 0),
    OFF_USER: user[0] ? layout.variables.find((v) => v.name === user[0]!.name)!.offset : 0,
    SEAM_CELLS: seamCells(layout.maxVertices),
    ...shapeConstants(frame.shapeKinds),
  };
}

/** The dice kernel's pipeline (not fused with shading). */
export function dicePipeline(frame: FrameGpu): Promise<GPUComputePipeline> {
  return kernelPipeline(frame.gpu, 'reyes-dice.wgsl', 'dice', diceConstants(frame));
}

export function dice(frame: FrameGpu, ready: ReadyPieces): Promise<DicedGrids> {
  return timed(frame, 'dice', async () => {
    const { gpu } = frame;
    const pipeline = await dicePipeline(frame);
    const pieces = ready.count > 0 ? await gpu.readU32(ready.buffer, ready.count * PIECE.words) : new Uint32Array(0);
    const diced = allocateGrids(frame, ready, pieces);
    const recorder = stageRecorder(frame, 'dice');
    const params = recorder.params('dice', [ready.count, frame.camera.perspective ? 1 : 0, 0, 0]);
    recorder.dispatch(pipeline, { 0: params, 1: frame.prims, 2: ready.buffer, 3: diced.grids, 4: diced.gridInfo, 5: frame.userCorners, 6: diced.seams! }, ready.count);
    try {
      await recorder.submit();
    } finally {
      keepSeamsIfDisplaced(frame, diced);
    }
    addGpuTimes(frame, recorder, 'dice');
    return diced;
  });
}

/** Grid storage for the ready pieces (`pieces` read back; their grid bases placed here and written
 * to the ready list), gridInfo filled by `gridInfo(bases)` when given (else the dicer writes it), and
 * the seam table. */
export function allocateGrids(frame: FrameGpu, ready: ReadyPieces, pieces: Uint32Array, gridInfo?: (bases: Uint32Array) => Uint32Array): DicedGrids {
  const { gpu, layout } = frame;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const { bases, records } = placeGrids(frame, pieces, ready.count);
  if (ready.count > 0) gpu.device.queue.writeBuffer(ready.buffer, 0, pieces as Uint32Array<ArrayBuffer>, 0, ready.count * PIECE.words);
  const made: GPUBuffer[] = [];
  try {
    made.push(gpu.allocator.createBuffer({ label: 'grids', size: records * layout.recordFloats * 4, usage }));
    made.push(gridInfo ? gpu.allocator.createBufferWithData('grid info', gridInfo(bases), usage)
      : gpu.allocator.createBuffer({ label: 'grid info', size: ready.count * GRID_INFO.words * 4, usage }));
    made.push(gpu.allocator.createBufferWithData('grid seams', seamTable(pieces, ready.count, layout.maxVertices, 1, frame.edgeNeighbours), usage));
  } catch (error) {
    for (const buffer of made) gpu.allocator.release(buffer);
    throw error;
  }
  return { grids: made[0]!, gridInfo: made[1]!, count: ready.count, bases, seams: made[2]! };
}

/** Once the grids are diced: the seam table goes unless a shading kernel displaces (the reseam pass reads it). */
export function keepSeamsIfDisplaced(frame: FrameGpu, diced: DicedGrids): void {
  if (frameDisplaces(frame) || !diced.seams) return;
  frame.gpu.allocator.release(diced.seams);
  delete diced.seams;
}

/** Dice's Process on a dicing bin (pipeline/runtime.ts): its ready pieces become grids. */
export async function diceProcess(bin: DicingBin): Promise<boolean> {
  bin.diced = await dice(bin.frame, bin.ready!);
  bin.frame.stats.gridsDiced += bin.diced.count;
  return true;
}

export function releaseGrids(frame: FrameGpu, diced: DicedGrids): void {
  frame.gpu.allocator.release(diced.grids);
  frame.gpu.allocator.release(diced.gridInfo);
  if (diced.seams) frame.gpu.allocator.release(diced.seams);
}
