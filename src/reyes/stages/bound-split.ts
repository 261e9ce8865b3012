// Bound/split on the GPU: the queue of (primitive, parameter range) pieces is bounded and split in
// parallel each iteration (reyes-bound-split.wgsl); two scans give each split piece the slot of its
// children in the next queue and each ready piece its slot in the ready list. The counts come back
// once per iteration to size the next one.
import { Scan } from '../../gpu/scan.ts';
import { addGpuTimes, PIECE_WORDS, stageRecorder, timed, type FrameGpu, type ReadyPieces, type Region } from '../frame-gpu.ts';
import { reyesPipeline } from '../kernels.ts';

/** Deepest split of a primitive (2^-24 of its parameter range). */
const MAX_DEPTH = 24;
const STORAGE = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** The ready pieces of every primitive whose bound touches `region` (plus the filter apron). */
export function boundSplit(frame: FrameGpu, region: Region): Promise<ReadyPieces> {
  return timed(frame, 'boundSplit', () => run(frame, region));
}

async function run(frame: FrameGpu, region: Region): Promise<ReadyPieces> {
  const { gpu, camera } = frame;
  const allocator = gpu.allocator;
  const [classify, emit] = await Promise.all([
    reyesPipeline(gpu, 'boundSplit', 'classify'),
    reyesPipeline(gpu, 'boundSplit', 'emit'),
  ]);
  const scan = new Scan(gpu);
  const initial = new Uint32Array(frame.primCount * PIECE_WORDS);
  const one = new Float32Array([1]);
  const oneBits = new Uint32Array(one.buffer)[0]!;
  for (let p = 0; p < frame.primCount; p++) {
    initial.set([p, 0, 0, oneBits, 0, oneBits, 0, 0], p * PIECE_WORDS);
  }
  let queue = allocator.createBufferWithData('split queue', initial, STORAGE());
  let queueCount = frame.primCount;
  let ready = allocator.createBuffer({ label: 'ready pieces', size: Math.max(1, queueCount) * PIECE_WORDS * 4, usage: STORAGE() });
  let readyCapacity = Math.max(1, queueCount);
  let readyCount = 0;
  const apron = frame.apron;
  const header = new Uint32Array(28);
  const headerFloats = new Float32Array(header.buffer);
  let iterations = 0;
  try {
    while (queueCount > 0) {
      frame.stats.boundSplitIterations++;
      if (++iterations > MAX_DEPTH + 2) throw new Error('bound/split did not terminate');
      if (readyCount + queueCount > readyCapacity) {
        const capacity = Math.max(readyCount + queueCount, readyCapacity * 2);
        const grown = allocator.createBuffer({ label: 'ready pieces', size: capacity * PIECE_WORDS * 4, usage: STORAGE() });
        const copy = gpu.device.createCommandEncoder({ label: 'grow ready pieces' });
        if (readyCount > 0) copy.copyBufferToBuffer(ready, 0, grown, 0, readyCount * PIECE_WORDS * 4);
        gpu.device.queue.submit([copy.finish()]);
        allocator.release(ready);
        ready = grown;
        readyCapacity = capacity;
      }
      const recorder = stageRecorder(frame, 'bound/split');
      header.set([queueCount, frame.layout.maxVertices, readyCount, MAX_DEPTH]);
      headerFloats.set([region.x0 - apron, region.y0 - apron, region.x1 + apron, region.y1 + apron], 4);
      headerFloats.set([camera.near, camera.far, camera.near * 0.5], 8);
      header[11] = camera.perspective ? 1 : 0;
      headerFloats.set(camera.cameraToRaster, 12);
      const params = recorder.params('bound/split', header);
      const decision = recorder.scratch('split decision', queueCount * 4);
      const childCount = recorder.scratch('split child count', queueCount * 4);
      const readyFlag = recorder.scratch('split ready flag', queueCount * 4);
      const childOffset = recorder.scratch('split child offset', queueCount * 4);
      const readyOffset = recorder.scratch('split ready offset', queueCount * 4);
      const childTotal = recorder.scratch('split child total', 4);
      const readyTotal = recorder.scratch('split ready total', 4);
      const totals = allocator.createBuffer({ label: 'split totals', size: 8, usage: STORAGE() });
      const next = allocator.createBuffer({ label: 'split queue', size: Math.max(1, queueCount * 2) * PIECE_WORDS * 4, usage: STORAGE() });
      const groups = Math.ceil(queueCount / 64);
      recorder.dispatch(classify, { 0: params, 1: frame.prims, 2: queue, 3: decision, 4: childCount, 5: readyFlag }, groups);
      await scan.encode(recorder, { input: childCount, output: childOffset, count: queueCount, total: childTotal });
      await scan.encode(recorder, { input: readyFlag, output: readyOffset, count: queueCount, total: readyTotal });
      recorder.dispatch(emit, { 0: params, 2: queue, 3: decision, 6: childOffset, 7: readyOffset, 8: next, 9: ready }, groups);
      recorder.encoder.copyBufferToBuffer(childTotal, 0, totals, 0, 4);
      recorder.encoder.copyBufferToBuffer(readyTotal, 0, totals, 4, 4);
      await recorder.submit();
      addGpuTimes(frame, recorder, 'boundSplit');
      const [children, readyNow] = await gpu.readU32(totals, 2);
      allocator.release(totals);
      allocator.release(queue);
      queue = next;
      queueCount = children!;
      readyCount += readyNow!;
    }
  } catch (error) {
    allocator.release(ready);
    throw error;
  } finally {
    allocator.release(queue);
  }
  return { buffer: ready, count: readyCount };
}
