// A frame's GPU buffers: the primitive records (whole, or batched past one binding or half the
// budget: frame/record-batches.ts), their
// auxiliary values, the parameter blocks, the texture atlas, the per-record tables and the sample
// counter.
import type { GpuRuntime } from '../../gpu/runtime.ts';
import { RECORD } from '../../layout/primitive-record.ts';
import { checkFrameBindings, type ConvertedFrame } from '../convert/convert-frame.ts';
import type { FrameGpu } from '../frame-gpu.ts';
import type { FrameRecords, PrimitiveTables } from '../schedulers/dicing-scheduler.ts';
import { recordsBatched, recordSource } from './record-batches.ts';
import type { FrameJob } from './frame-job.ts';
import { texturePoolBytes } from '../../texture/texture-memory.ts';
import { TilePool } from '../../texture/tile-pool.ts';
import { tileTable } from '../../texture/tile-table.ts';
import { createLoopFlags } from '../shading/loop-cap.ts';

/** The per-frame GPU buffers: primitive records, user corner values, parameter blocks. */
export interface FrameBuffers {
  prims: GPUBuffer;
  userCorners: GPUBuffer;
  pipelines: FrameGpu['pipelines'];
  textures: TilePool;
  tables: PrimitiveTables;
  /** Records past one storage binding or half the budget: taken in batches, each dicing region
   * binding its own (frame/record-batches.ts); `prims` and `userCorners` then hold none. */
  batched?: FrameRecords['batched'];
}

export function uploadFrame(gpu: GpuRuntime, converted: ConvertedFrame, job: Pick<FrameJob, 'textures' | 'frame' | 'warn'>, owned: GPUBuffer[]): FrameBuffers {
  const { allocator } = gpu;
  // Counted against the budget like every buffer; a kernel without lookups leaves it unbound.
  const textures = new TilePool(gpu, job.textures ?? { maps: [], table: tileTable([]) }, texturePoolBytes(job.frame.options, allocator.budget), owned, job.warn);
  const maxBinding = gpu.maxBindingBytes();
  checkFrameBindings(converted, maxBinding);
  const { records } = converted;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const tables = primitiveTables(converted);
  if (recordsBatched(records, maxBinding, allocator.budget)) {
    const none = allocator.createBufferWithData('no records bound whole (batched per region)', new Float32Array(4), usage);
    owned.push(none);
    return { prims: none, userCorners: none, pipelines: uploadParams(gpu, converted, owned), textures, tables, batched: { records, source: recordSource(gpu, records, owned) } };
  }
  const prims = allocator.createBufferWithData('primitive records', records.floats(), usage);
  owned.push(prims);
  const userCorners = allocator.createBufferWithData('user primitive variables', records.userFloatsData(), usage);
  owned.push(userCorners);
  return { prims, userCorners, pipelines: uploadParams(gpu, converted, owned), textures, tables };
}

export function uploadParams(gpu: GpuRuntime, converted: ConvertedFrame, owned: GPUBuffer[]): FrameBuffers['pipelines'] {
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  return converted.pipelines.map((p) => {
    const paramBuffer = gpu.allocator.createBufferWithData(`${p.kernel.label} params`, p.params, usage);
    owned.push(paramBuffer);
    // Kernels whose loops report the cap: their flags, cleared each render (shading/loop-cap.ts).
    const loopFlags = createLoopFlags(gpu, p.kernel);
    if (loopFlags) owned.push(loopFlags);
    return { ...p, paramBuffer, ...(loopFlags ? { loopFlags } : {}) };
  });
}

export function primitiveTables(converted: ConvertedFrame): PrimitiveTables {
  const count = converted.records.count;
  const words = new Uint32Array(converted.records.floats().buffer, converted.records.floats().byteOffset, count * RECORD.floats);
  return {
    pipeline: Uint32Array.from({ length: count }, (_, k) => words[k * RECORD.floats + RECORD.pipeline]!),
    paramBase: Uint32Array.from({ length: count }, (_, k) => words[k * RECORD.floats + RECORD.paramBase]!),
  };
}


export function createSampleCounter(gpu: GpuRuntime, owned: GPUBuffer[]): GPUBuffer {
  const counter = gpu.allocator.createBufferWithData('sample counter', new Uint32Array(4), GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
  owned.push(counter);
  return counter;
}
