// The renderer's handle on a GPU: the device, the allocator every buffer comes from, the kernel
// cache, and command recorders that run kernels and give their transient buffers back when the GPU
// is done with them.
import { GpuAllocator } from './allocator.ts';
import { checkUncapturedErrors, withGpuErrorScope, type GpuContext } from './device.ts';
import { KernelCache } from './kernels.ts';
import { PassProfiler, type PassTiming } from './pass-profiler.ts';

export type Bindings = Record<number, GPUBuffer | GPUBufferBinding>;

export class GpuRuntime {
  readonly allocator: GpuAllocator;
  readonly kernels: KernelCache;

  constructor(
    readonly context: GpuContext,
    budgetBytes = defaultBudget(context.limits),
  ) {
    this.allocator = new GpuAllocator(context.device, budgetBytes, context.newBufferFill);
    this.kernels = new KernelCache(context.device);
  }

  get device(): GPUDevice {
    return this.context.device;
  }

  get limits(): GPUSupportedLimits {
    return this.context.limits;
  }

  /** The most bytes one storage binding can hold: every buffer a kernel binds must fit it. */
  maxBindingBytes(): number {
    return Math.min(this.limits.maxStorageBufferBindingSize, this.limits.maxBufferSize);
  }

  /** A 2-D workgroup grid for `groups` workgroups (one dimension holds at most 65535). */
  workgroupGrid(groups: number): [number, number] {
    const perDimension = this.limits.maxComputeWorkgroupsPerDimension;
    if (groups <= perDimension) return [groups, 1];
    const y = Math.ceil(groups / perDimension);
    if (y > perDimension) throw new RangeError(`${groups} workgroups exceed the device's dispatch limit`);
    return [Math.ceil(groups / y), y];
  }

  /**
   * A recorder for one command buffer. With `profile`, each pass is timed with timestamp queries
   * where the adapter offers them (see CommandRecorder.timings).
   */
  recorder(label: string, options: { profile?: boolean } = {}): CommandRecorder {
    const profiler = options.profile && PassProfiler.supported(this.device) ? new PassProfiler(this.device) : undefined;
    return new CommandRecorder(this, label, profiler);
  }

  /** Copies `byteLength` bytes of `buffer` (from `offset`) back to the CPU. */
  async read(buffer: GPUBuffer, byteLength = buffer.size, offset = 0): Promise<ArrayBuffer> {
    const size = Math.ceil(byteLength / 4) * 4;
    if (size === 0) return new ArrayBuffer(0);
    const staging = this.allocator.createBuffer({
      label: `read back ${buffer.label}`,
      size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    try {
      const encoder = this.device.createCommandEncoder({ label: `read back ${buffer.label}` });
      encoder.copyBufferToBuffer(buffer, offset, staging, 0, size);
      const submitted = withGpuErrorScope(this.device, `reading back ${buffer.label}`, () =>
        this.device.queue.submit([encoder.finish()]),
      );
      // Mapped while the scope is popped: one wait on Dawn's events (CommandRecorder.submitAndRead).
      const mapped = staging.mapAsync(GPUMapMode.READ);
      mapped.catch(() => {});
      await submitted;
      await mapped;
      return staging.getMappedRange().slice(0, byteLength);
    } finally {
      this.allocator.release(staging);
    }
  }

  async readU32(buffer: GPUBuffer, count: number, offset = 0): Promise<Uint32Array> {
    return new Uint32Array(await this.read(buffer, count * 4, offset));
  }
}

/** The default memory budget: what one buffer may hold, times four, at most 2 GiB. */
export function defaultBudget(limits: GPUSupportedLimits): number {
  return Math.min(limits.maxBufferSize * 4, 2 * 1024 ** 3);
}

/**
 * Records kernel dispatches into one command buffer. Transient buffers (per-dispatch parameters,
 * scratch) come from the allocator and go back to it once the submitted work has finished.
 */
export class CommandRecorder {
  readonly encoder: GPUCommandEncoder;
  private readonly transients: GPUBuffer[] = [];
  private submitted = false;
  /** GPU time per pass label, filled in by `submit` when the recorder was made with `profile`. */
  timings: PassTiming[] | undefined;

  constructor(
    private readonly runtime: GpuRuntime,
    readonly label: string,
    private readonly profiler?: PassProfiler,
  ) {
    this.encoder = runtime.device.createCommandEncoder({ label });
  }

  /** A uniform buffer holding `words` (u32 or the bits of f32), for one dispatch. */
  params(label: string, words: ArrayLike<number>): GPUBuffer {
    const data = new Uint32Array(Math.max(4, Math.ceil(words.length / 4) * 4));
    data.set(Array.from(words));
    return this.transient(
      this.runtime.allocator.createBufferWithData(`${label} params`, data, GPUBufferUsage.UNIFORM),
    );
  }

  /** A storage buffer that lives until this recorder's work has finished. Its contents are undefined. */
  scratch(label: string, size: number, usage: GPUBufferUsageFlags = 0): GPUBuffer {
    return this.transient(
      this.runtime.allocator.createBuffer({
        label,
        size,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST | usage,
      }),
    );
  }

  /** Hands an allocator buffer to this recorder, to be released after the work finishes. */
  transient(buffer: GPUBuffer): GPUBuffer {
    this.transients.push(buffer);
    return buffer;
  }

  /** Dispatches `groups` workgroups (laid out 2-D when needed) of `pipeline` with group-0 `bindings`. */
  dispatch(pipeline: GPUComputePipeline, bindings: Bindings, groups: number): void {
    if (groups === 0) return;
    const entries: GPUBindGroupEntry[] = Object.entries(bindings).map(([binding, resource]) => ({
      binding: Number(binding),
      resource: 'buffer' in resource ? resource : { buffer: resource },
    }));
    const bindGroup = this.runtime.device.createBindGroup({
      label: pipeline.label,
      layout: pipeline.getBindGroupLayout(0),
      entries,
    });
    const timestampWrites = this.profiler?.nextPass(pipeline.label);
    const pass = this.encoder.beginComputePass({ label: pipeline.label, ...(timestampWrites ? { timestampWrites } : {}) });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    const [x, y] = this.runtime.workgroupGrid(groups);
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  /** Submits the recorded work, waits for it, and throws the typed error of any GPU failure. */
  async submit(): Promise<void> {
    await this.submitAndRead();
  }

  /** `submit`, with `staging` (a MAP_READ buffer the recorded work copies into, the caller's to
   * release) mapped for reading in the same wait. */
  async submitAndMap(staging: GPUBuffer): Promise<void> {
    await this.submitAndRead(undefined, staging);
  }

  /** `submit`, with `count` u32 words of `buffer` (from word `offset`) read back by the same
   * submission. */
  async submitAndReadU32(buffer: GPUBuffer, count: number, offset = 0): Promise<Uint32Array> {
    return new Uint32Array((await this.submitAndRead({ buffer, byteLength: count * 4, offset: offset * 4 }))!);
  }

  /**
   * Submits the recorded work with the copies into mappable buffers of what is read back (the pass
   * timestamps, `read`), and waits once for all of it: the error scopes, then the mappings, or the
   * queue when nothing is read. Each wait on Dawn costs at least a poll of its events (paused ones
   * once a wait passes SPIN_MS, dawn-event-pacing.ts), and bound/split submits and reads back once
   * per split level: as a chain of waits (scope, work done, a second submission for the
   * timestamps, a third for the counts) each submission had cost Airplane 3.9 ms beyond its GPU time.
   */
  private async submitAndRead(read?: { buffer: GPUBuffer; byteLength: number; offset: number }, mapped?: GPUBuffer): Promise<ArrayBuffer | undefined> {
    if (this.submitted) throw new Error(`recorder "${this.label}" was already submitted`);
    this.submitted = true;
    const { device, allocator } = this.runtime;
    const stampsAt = this.profiler?.resolve(this.encoder, allocator);
    if (stampsAt) this.transient(stampsAt);
    const stamps = stampsAt ? this.readBack(stampsAt, stampsAt.size, 0) : undefined;
    const wanted = read ? this.readBack(read.buffer, read.byteLength, read.offset) : undefined;
    try {
      const submitted = withGpuErrorScope(device, this.label, () => device.queue.submit([this.encoder.finish()]));
      const stagings = [stamps, wanted, mapped].filter((staging) => staging !== undefined);
      const done = stagings.length > 0 ? stagings.map((staging) => staging.mapAsync(GPUMapMode.READ)) : [device.queue.onSubmittedWorkDone()];
      // A failed submission's mappings fail too: the scope's error is the one to report.
      for (const wait of done) wait.catch(() => {});
      await submitted;
      await Promise.all(done);
      checkUncapturedErrors(this.runtime.context);
      if (stamps) this.timings = this.profiler!.timings(stamps.getMappedRange());
      return wanted?.getMappedRange().slice(0, read!.byteLength);
    } finally {
      this.profiler?.destroy();
      for (const buffer of this.transients.splice(0)) allocator.release(buffer);
    }
  }

  /** A mappable buffer the recorded work copies `byteLength` bytes of `buffer` (from `offset`) into;
   * released with the transients. */
  private readBack(buffer: GPUBuffer, byteLength: number, offset: number): GPUBuffer {
    const size = Math.max(4, Math.ceil(byteLength / 4) * 4);
    const staging = this.transient(this.runtime.allocator.createBuffer({
      label: `read back ${buffer.label}`,
      size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }));
    this.encoder.copyBufferToBuffer(buffer, offset, staging, 0, Math.min(size, buffer.size - offset));
    return staging;
  }
}
