// Dawn's Node binding waits for GPU work (mapAsync, onSubmittedWorkDone, async pipeline creation)
// by calling its instance's ProcessEvents from `setImmediate`, again and again while anything is
// pending (AsyncRunner::ScheduleProcessEvents, crbug.com/dawn/1127): the main thread spins for as
// long as the GPU works. With a software Vulkan driver (lavapipe) the GPU is the CPU's other
// threads, so the spinning thread takes a core from the very work it waits for. The wrapper keeps
// a wait's first SPIN_MS of polls immediate (short waits stay short) and then sleeps PAUSE_MS
// before each poll (Atomics.wait: the thread blocks, its core free). A setTimeout of 1 ms had
// paced the polls instead, at a millisecond or more each: bound/split, which waits for every
// split level, took Airplane 0.99-1.10 s against 0.69-0.81 s paused (A/B alternating). Other
// callers of setImmediate are untouched: Dawn's callback is a native function.

/** How long a wait polls without pause before it pauses between polls. */
const SPIN_MS = 2;
/** The pause before each later poll. */
const PAUSE_MS = 0.25;
/** What Atomics.wait sleeps on: a word nothing changes. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

let installed = false;

/** Replaces globalThis.setImmediate with the paced version (once per process, before Dawn starts). */
export function paceDawnEventPolling(): void {
  if (installed) return;
  installed = true;
  const immediate = globalThis.setImmediate;
  let polling = false;
  let waitStart = 0;
  const paced = (callback: (...args: unknown[]) => void, ...args: unknown[]): NodeJS.Immediate => {
    if (!isNative(callback)) return immediate(callback, ...args);
    // Dawn schedules the next poll from inside the current one; a call from elsewhere starts a wait.
    if (!polling) waitStart = performance.now();
    const poll = (): void => {
      polling = true;
      try {
        callback(...args);
      } finally {
        polling = false;
      }
    };
    if (performance.now() - waitStart < SPIN_MS) return immediate(poll);
    return immediate(() => {
      Atomics.wait(sleeper, 0, 0, PAUSE_MS);
      poll();
    });
  };
  globalThis.setImmediate = Object.assign(paced, immediate) as typeof globalThis.setImmediate;
}

function isNative(callback: unknown): boolean {
  return typeof callback === 'function' && Function.prototype.toString.call(callback).endsWith('{ [native code] }');
}
