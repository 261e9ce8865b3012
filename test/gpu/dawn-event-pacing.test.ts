// Waiting for the GPU leaves the main thread (and the core it runs on) mostly idle: Dawn's
// ProcessEvents polling is paced once a wait passes its first milliseconds (dawn-event-pacing.ts).
// The pauses block the thread (Atomics.wait) rather than spin, so what the test reads is the main
// thread's CPU time, from Linux's /proc (the event loop counts a blocked thread as busy).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from './gpu-fixture.ts';

const gpu = useGpuRuntime();

// Each invocation spins through a long integer loop: a dispatch the driver works on for a while.
const BUSY = `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
override ROUNDS: u32 = 1u;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  var x = id.x;
  for (var i = 0u; i < ROUNDS; i++) { x = x * 1664525u + 1013904223u; }
  out[id.x] = x;
}`;

/** CPU milliseconds the main thread has used (utime + stime, in clock ticks of 10 ms). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function busyWait(rounds: number): Promise<{ ms: number; cpuMs: number }> {
  const runtime = gpu();
  const pipeline = await runtime.kernels.pipeline({ label: 'busy.wgsl', code: BUSY, entryPoint: 'main', constants: { ROUNDS: rounds } });
  const recorder = runtime.recorder('busy');
  recorder.dispatch(pipeline, { 0: recorder.scratch('busy out', 64 * 256 * 4) }, 256);
  const cpu = mainThreadCpuMs();
  const start = performance.now();
  await recorder.submit();
  return { ms: performance.now() - start, cpuMs: mainThreadCpuMs() - cpu };
}

describe('waiting for Dawn', () => {
  it.runIf(process.platform === 'linux')('leaves the main thread mostly idle during a long GPU wait', async () => {
    let rounds = 1 << 16;
    let wait = await busyWait(rounds);
    // Lengthen the dispatch until the wait is long enough to tell polling from spinning.
    while (wait.ms < 400 && rounds < 1 << 24) {
      rounds *= 4;
      wait = await busyWait(rounds);
    }
    expect(wait.ms).toBeGreaterThanOrEqual(400);
    // Spinning on setImmediate keeps the thread busy all the wait (CPU time near the wait's).
    expect(wait.cpuMs).toBeLessThan(0.5 * wait.ms);
  });

  it('leaves other setImmediate callbacks to Node', () => {
    const handle = setImmediate(() => {});
    clearImmediate(handle);
    expect(handle.constructor.name).toBe('Immediate');
  });
});
