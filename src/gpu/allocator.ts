// Every GPU buffer of the renderer is made here. The allocator knows the budget, the live bytes and
// the peak, so the schedulers can size their work with `free()`, and a request past the budget fails
// with a GpuBudgetError instead of a driver out-of-memory later.
//
// Released buffers are kept in a small pool and handed out again, to a request of the same usage and
// at most REUSE_SLACK times smaller (the smallest such buffer), because creating large buffers costs
// more than the work on them: a new buffer's pages are faulted in and zeroed by the kernel at first
// touch (and by Dawn too where it zeroes), and every region's grid records and sample buffers have a
// size of their own, so exact sizes alone seldom meet again. Pooled
// buffers count as live; they are destroyed first when a request would pass the budget, and the pool
// holds at most a quarter of the budget (oldest destroyed first): buffers of sizes that never come
// again (a frame of many small regions) would otherwise keep the process at the whole budget.
import { GpuBudgetError } from './errors.ts';

/** The most of the budget released buffers may hold while they wait to be reused. */
const POOL_SHARE = 0.25;

/** How much larger than a request a pooled buffer handed out for it may be. */
const REUSE_SLACK = 2;

export interface BufferRequest {
  label: string;
  size: number;
  usage: GPUBufferUsageFlags;
}

interface PooledBuffer {
  buffer: GPUBuffer;
  size: number;
  usage: GPUBufferUsageFlags;
}

export class GpuAllocator {
  private readonly sizes = new Map<GPUBuffer, number>();
  private readonly pool: PooledBuffer[] = [];
  private pooled = 0;
  private liveBytes = 0;
  private peakBytes = 0;

  /** The fill pattern's words, grown to the largest new buffer filled so far. */
  private fillWords = new Uint32Array(0);

  /** `newBufferFill`, when given, is written over every new buffer that may be copied into
   * (GpuContext.newBufferFill). */
  constructor(
    readonly device: GPUDevice,
    private budgetBytes: number,
    private readonly newBufferFill?: number,
  ) {}

  get budget(): number {
    return this.budgetBytes;
  }

  /** Bytes held by buffers in use or pooled for reuse. */
  get live(): number {
    return this.liveBytes;
  }

  /** The most bytes held at once since creation or the last `resetPeak`. */
  get peak(): number {
    return this.peakBytes;
  }

  /** Bytes that can still be allocated, counting pooled buffers as reclaimable. */
  free(): number {
    return this.budgetBytes - this.liveBytes + this.pooledBytes();
  }

  setBudget(bytes: number): void {
    this.budgetBytes = bytes;
  }

  resetPeak(): void {
    this.peakBytes = this.liveBytes;
  }

  /** A buffer of at least `size` bytes (rounded up to 4; at least 4). */
  createBuffer(request: BufferRequest): GPUBuffer {
    const size = Math.max(4, Math.ceil(request.size / 4) * 4);
    const reused = this.takeFromPool(size, request.usage);
    if (reused) {
      reused.label = request.label;
      return reused;
    }
    this.evictPoolUntilFits(size);
    if (this.liveBytes + size > this.budgetBytes) {
      throw new GpuBudgetError(request.label, size, this.budgetBytes, this.liveBytes);
    }
    const buffer = this.device.createBuffer({ label: request.label, size, usage: request.usage });
    if (this.newBufferFill !== undefined && request.usage & GPUBufferUsage.COPY_DST) this.fill(buffer, size / 4);
    this.sizes.set(buffer, size);
    this.liveBytes += size;
    this.peakBytes = Math.max(this.peakBytes, this.liveBytes);
    return buffer;
  }

  /** A buffer holding `data`, for reading by kernels (and copying). */
  createBufferWithData(label: string, data: ArrayBufferView, usage: GPUBufferUsageFlags): GPUBuffer {
    const buffer = this.createBuffer({ label, size: data.byteLength, usage: usage | GPUBufferUsage.COPY_DST });
    const bytes = new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
    // writeBuffer wants a multiple of 4 bytes.
    const padded = bytes.byteLength % 4 === 0 ? bytes : padTo4(bytes);
    if (padded.byteLength > 0) this.device.queue.writeBuffer(buffer, 0, padded);
    return buffer;
  }

  /** Gives the buffer back; it may be handed out again for a later request of its usage that it holds
   * (see REUSE_SLACK). */
  release(buffer: GPUBuffer): void {
    const size = this.sizes.get(buffer);
    if (size === undefined) throw new Error(`GpuAllocator.release: "${buffer.label}" was not made by this allocator`);
    if (buffer.usage & (GPUBufferUsage.MAP_READ | GPUBufferUsage.MAP_WRITE)) {
      this.destroy(buffer);
      return;
    }
    this.pool.push({ buffer, size, usage: buffer.usage });
    this.pooled += size;
    while (this.pooled > this.budgetBytes * POOL_SHARE) this.destroyPooled(this.pool.shift()!);
  }

  /** Destroys pooled buffers: their memory goes back to the driver. */
  trim(): void {
    for (const entry of this.pool.splice(0)) this.destroyPooled(entry);
  }

  private destroyPooled(entry: PooledBuffer): void {
    this.pooled -= entry.size;
    this.destroy(entry.buffer);
  }

  private destroy(buffer: GPUBuffer): void {
    const size = this.sizes.get(buffer) ?? 0;
    this.sizes.delete(buffer);
    this.liveBytes -= size;
    buffer.destroy();
  }

  private fill(buffer: GPUBuffer, words: number): void {
    if (this.fillWords.length < words) this.fillWords = new Uint32Array(words).fill(this.newBufferFill!);
    this.device.queue.writeBuffer(buffer, 0, this.fillWords, 0, words);
  }

  private pooledBytes(): number {
    return this.pooled;
  }

  private takeFromPool(size: number, usage: GPUBufferUsageFlags): GPUBuffer | undefined {
    let best = -1;
    this.pool.forEach((entry, k) => {
      const fits = entry.usage === usage && entry.size >= size && entry.size <= size * REUSE_SLACK;
      if (fits && (best < 0 || entry.size < this.pool[best]!.size)) best = k;
    });
    if (best < 0) return undefined;
    const [entry] = this.pool.splice(best, 1);
    this.pooled -= entry!.size;
    return entry!.buffer;
  }

  private evictPoolUntilFits(size: number): void {
    while (this.liveBytes + size > this.budgetBytes && this.pool.length > 0) {
      this.destroyPooled(this.pool.shift()!);
    }
  }
}

function padTo4(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const padded = new Uint8Array(Math.ceil(bytes.byteLength / 4) * 4);
  padded.set(bytes);
  return padded;
}
