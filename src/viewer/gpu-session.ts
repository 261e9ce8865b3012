// The page's GPU device: acquired once, re-created after a loss. Renders run one at a time (they
// share the allocator); a request made while one runs replaces any request still waiting, so the
// page always converges on the latest state without queueing stale frames.
import { acquireGpu, type GpuContext, GpuRuntime } from '../index.ts';

export type LossListener = (message: string) => void;

export class GpuSession {
  private runtime: GpuRuntime | undefined;
  private acquiring: Promise<GpuRuntime> | undefined;
  /** Device losses recovered so far. */
  recoveries = 0;

  constructor(private readonly onLost: LossListener) {}

  get current(): GpuRuntime | undefined {
    return this.runtime;
  }

  async get(): Promise<GpuRuntime> {
    if (this.runtime && !this.runtime.context.lostError) return this.runtime;
    this.acquiring ??= acquireGpu().then((context) => {
      const runtime = new GpuRuntime(context);
      this.runtime = runtime;
      this.acquiring = undefined;
      void context.lost.then((lost) => {
        if (this.runtime === runtime) this.runtime = undefined;
        this.recoveries++;
        this.onLost(lost.message);
      });
      return runtime;
    }, (error: unknown) => {
      this.acquiring = undefined;
      throw error;
    });
    return this.acquiring;
  }

  /** For the tests and the About panel: loses the device on purpose. */
  loseDevice(): void {
    (this.runtime?.context as GpuContext | undefined)?.device.destroy();
  }
}

/** Runs jobs one at a time; a job submitted while one runs replaces the one waiting. */
export class LatestJobQueue {
  private running = false;
  private waiting: (() => Promise<void>) | undefined;

  submit(job: () => Promise<void>): void {
    this.waiting = job;
    if (!this.running) void this.drain();
  }

  get busy(): boolean {
    return this.running;
  }

  /** Drops the job waiting behind the running one (Stop). */
  discardWaiting(): void {
    this.waiting = undefined;
  }

  /** A job is waiting behind the running one. */
  get hasWaiting(): boolean {
    return this.waiting !== undefined;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting) {
        const job = this.waiting;
        this.waiting = undefined;
        await job();
      }
    } finally {
      this.running = false;
    }
  }
}

/** One GPU job at a time: renders and pick passes share the device's allocator. */
export class GpuLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job, job);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
