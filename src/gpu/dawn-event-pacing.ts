// Dawn's Node binding waits for GPU work (mapAsync, onSubmittedWorkDone, async pipeline creation)
// by calling its instance's ProcessEvents from `setImmediate`, again and again while anything is
// pending (AsyncRunner::ScheduleProcessEvents, crbug.com/dawn/1127): the main thread spins for as
// long as the GPU works. With a software Vulkan driver (lavapipe) the GPU is the CPU's other
// threads, so the spinning thread takes a core from the very work it waits for. The wrapper keeps
// a wait's first SPIN_MS of polls immediate (short waits stay short) and then polls once a
// millisecond. Other callers of setImmediate are untouched: Dawn's callback is a native function.

/** How long a wait polls without pause before it polls once a millisecond. */
const SPIN_MS = 2;

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
    // Dawn ignores what setImmediate returns.
    return setTimeout(poll, 1) as unknown as NodeJS.Immediate;
  };
  globalThis.setImmediate = Object.assign(paced, immediate) as typeof globalThis.setImmediate;
}

function isNative(callback: unknown): boolean {
  return typeof callback === 'function' && Function.prototype.toString.call(callback).endsWith('{ [native code] }');
}
