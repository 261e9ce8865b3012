// The geometry kernels' sine, cosine and arccosine (shaders/kernels/trig.wgsl) on the GPU, against
// float64: about 1 ulp, whatever the driver's builtins do (REYES_VULKAN=swiftshader runs it there).
import { describe, expect, it } from 'vitest';
import { kernelSource } from '../../src/layout/kernel-sources.ts';
import { storageUsage, useGpuRuntime } from './gpu-fixture.ts';

const gpu = useGpuRuntime();

const KERNEL = `${kernelSource('trig.wgsl')}
@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= arrayLength(&xs)) { return; }
  let x = xs[id.x];
  out[id.x] = vec4f(sinCos(x), preciseAcos(clamp(x, -1.0, 1.0)), 0.0);
}`;

/** (sin x, cos x, acos x) for each x (as f32) on the GPU. */
async function evaluate(xs: Float32Array): Promise<Float32Array> {
  const runtime = gpu();
  const pipeline = await runtime.kernels.pipeline({ label: 'trig test', code: KERNEL, entryPoint: 'main' });
  const input = runtime.allocator.createBufferWithData('trig arguments', xs, storageUsage());
  const out = runtime.allocator.createBuffer({ label: 'trig values', size: xs.length * 16, usage: storageUsage() });
  try {
    const recorder = runtime.recorder('trig test');
    recorder.dispatch(pipeline, { 0: input, 1: out }, Math.ceil(xs.length / 256));
    await recorder.submit();
    return new Float32Array(await runtime.read(out));
  } finally {
    runtime.allocator.release(input);
    runtime.allocator.release(out);
  }
}

/** The largest of `error(got, x)` over the arguments, where `got` is component `c` of the results. */
async function largestError(xs: Float32Array, c: number, error: (got: number, x: number) => number): Promise<number> {
  const values = await evaluate(xs);
  let worst = 0;
  xs.forEach((x, i) => { worst = Math.max(worst, error(values[i * 4 + c]!, x)); });
  return worst;
}

const spaced = (n: number, lo: number, hi: number) => Float32Array.from({ length: n + 1 }, (_, i) => lo + ((hi - lo) * i) / n);

describe('trig.wgsl', () => {
  it('sin and cos are within 2.4e-7 over [-4π, 4π]', async () => {
    const xs = spaced(1 << 18, -4 * Math.PI, 4 * Math.PI);
    expect(await largestError(xs, 0, (got, x) => Math.abs(got - Math.sin(x)))).toBeLessThanOrEqual(2.4e-7);
    expect(await largestError(xs, 1, (got, x) => Math.abs(got - Math.cos(x)))).toBeLessThanOrEqual(2.4e-7);
  });

  it('sin keeps its relative precision near zero, down to 1e-30', async () => {
    const xs = Float32Array.from({ length: 3001 }, (_, i) => (i % 2 ? -1 : 1) * 10 ** (-30 + (29 * i) / 3000));
    expect(await largestError(xs, 0, (got, x) => Math.abs(got / Math.sin(x) - 1))).toBeLessThanOrEqual(2.4e-7);
  });

  it('acos is within 2 ulp over [-1, 1], and relatively near 1', async () => {
    const xs = spaced(1 << 18, -1, 1);
    expect(await largestError(xs, 2, (got, x) => Math.abs(got - Math.acos(x)))).toBeLessThanOrEqual(4.8e-7);
    const nearOne = Float32Array.from({ length: 4096 }, (_, i) => 1 - (i + 1) * 2 ** -24);
    expect(await largestError(nearOne, 2, (got, x) => Math.abs(got / Math.acos(x) - 1))).toBeLessThanOrEqual(2.4e-7);
  });
});
