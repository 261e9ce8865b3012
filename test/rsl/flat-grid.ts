// The 2×2 grid the RSL conformance tests shade snippets on, and how they read results and messages.
import { expect } from 'vitest';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { PipelineDescription } from '../../src/rsl/compile.ts';
import { RslCompileError } from '../../src/rsl/diagnostics.ts';
import { shadeGrid } from './grid-runner.ts';

export const UV = [[0, 0], [1, 0], [0, 1], [1, 1]] as const;

/** A flat 2×2 grid in the z = 1 plane facing the camera (N = -z), u and v in {0, 1}, I = P. */
export function flatGrid(): Record<string, number[][]> {
  return {
    P: UV.map(([u, v]) => [u, v, 1]), N: UV.map(() => [0, 0, -1]), Ng: UV.map(() => [0, 0, -1]), I: UV.map(([u, v]) => [u, v, 1]),
    dPdu: UV.map(() => [1, 0, 0]), dPdv: UV.map(() => [0, 1, 0]),
    u: UV.map(([u]) => [u]), v: UV.map(([, v]) => [v]), du: UV.map(() => [1]), dv: UV.map(() => [1]),
    s: UV.map(([u]) => [u]), t: UV.map(([, v]) => [v]), Cs: UV.map(() => [0.2, 0.4, 0.6]), Os: UV.map(() => [1, 1, 1]),
  };
}

export function surface(source: string, extra: Partial<PipelineDescription> = {}): PipelineDescription {
  return { surface: { source, file: 'test.sl' }, maxVertices: 4, ...extra };
}

/** Compiles the pipeline and shades the flat grid with it on the GPU. */
export async function shadeFlatGrid(gpu: GpuRuntime, description: PipelineDescription, overrides: Record<string, number[] | string> = {}) {
  const compiled = compilePipeline(description);
  const out = await shadeGrid(gpu, compiled, 2, 2, flatGrid(), overrides);
  return { compiled, out };
}

export function expectClose(actual: number[][] | undefined, expected: number[][], digits = 4): void {
  expect(actual?.map((c) => c.map((x) => +x.toFixed(digits)))).toEqual(expected.map((c) => c.map((x) => +x.toFixed(digits))));
}

/** The compiler's messages of one severity as [line, column, text], whether or not it compiled. */
export function messages(description: PipelineDescription, severity: 'error' | 'warning'): [number, number, string][] {
  try {
    return compilePipeline(description).diagnostics.filter((d) => d.severity === severity).map((d) => [d.line, d.column, d.message]);
  } catch (error) {
    if (!(error instanceof RslCompileError)) throw error;
    return error.diagnostics.filter((d) => d.severity === severity).map((d) => [d.line, d.column, d.message]);
  }
}
