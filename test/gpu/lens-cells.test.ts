// The box of a blur stratum's lens positions (reyes-jitter.wgsl lensCellBox), which bounds where the
// sampler looks for a micropolygon seen through that part of the lens: every lens position of the
// stratum lies inside it, and it is the box of the cell's image under the concentric map (not the
// loose disk about the cell's centre it replaced).
import { describe, expect, it } from 'vitest';
import { kernelSource } from '../../src/layout/kernel-sources.ts';
import { storageUsage, useGpuRuntime } from './gpu-fixture.ts';

const gpu = useGpuRuntime();

/** Offsets within a cell per axis: a 65-point grid, its ends exactly on the cell's edges. */
const STEPS = 64;

// One invocation per (stratum, offset): the lens position there, less the box's low corner, and
// the box's high corner less it (both ≥ 0 inside), then the box itself once per stratum.
const KERNEL = `${kernelSource('reyes-jitter.wgsl')}
struct Grid { nx: u32, ny: u32 }
@group(0) @binding(0) var<uniform> grid: Grid;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  let points = ${(STEPS + 1) ** 2}u;
  let j = id.x / points;
  if (j >= grid.nx * grid.ny) { return; }
  let k = id.x % points;
  let cell = lensCell(j, grid.nx, grid.ny);
  let box = lensCellBox(cell, grid.nx, grid.ny);
  let offset = vec2f(f32(k % ${STEPS + 1}u), f32(k / ${STEPS + 1}u)) / ${STEPS}.0;
  let p = concentricDisk(2.0 * (cell + offset) / vec2f(f32(grid.nx), f32(grid.ny)) - 1.0);
  out[id.x] = vec4f(p - box.xy, box.zw - p);
  if (k == 0u) { out[grid.nx * grid.ny * points + j] = box; }
}`;

async function evaluate(nx: number, ny: number): Promise<{ margins: Float32Array; boxes: Float32Array }> {
  const runtime = gpu();
  const points = (STEPS + 1) ** 2;
  const count = nx * ny * points;
  const pipeline = await runtime.kernels.pipeline({ label: 'lens cells test', code: KERNEL, entryPoint: 'main' });
  const params = runtime.allocator.createBufferWithData('lens grid', new Uint32Array([nx, ny, 0, 0]), GPUBufferUsage.UNIFORM);
  const out = runtime.allocator.createBuffer({ label: 'lens margins', size: (count + nx * ny) * 16, usage: storageUsage() });
  try {
    const recorder = runtime.recorder('lens cells test');
    recorder.dispatch(pipeline, { 0: params, 1: out }, Math.ceil(count / 64));
    await recorder.submit();
    const all = new Float32Array(await runtime.read(out));
    return { margins: all.subarray(0, count * 4), boxes: all.subarray(count * 4) };
  } finally {
    runtime.allocator.release(params);
    runtime.allocator.release(out);
  }
}

describe('lens cell boxes (reyes-jitter.wgsl)', () => {
  it.each([[4, 4], [3, 3], [2, 5], [8, 8], [1, 1]])('hold every lens position of their stratum and no more (%i × %i)', async (nx, ny) => {
    const { margins, boxes } = await evaluate(nx, ny);
    const points = (STEPS + 1) ** 2;
    for (let j = 0; j < nx * ny; j++) {
      // Inside, and reached within the grid's spacing on every side.
      let slack = [Infinity, Infinity, Infinity, Infinity];
      for (let k = 0; k < points; k++) {
        for (let c = 0; c < 4; c++) {
          const margin = margins[(j * points + k) * 4 + c]!;
          expect(margin).toBeGreaterThanOrEqual(0);
          slack[c] = Math.min(slack[c]!, margin);
        }
      }
      expect(Math.max(...slack)).toBeLessThan(2 / Math.min(nx, ny) / STEPS);
      // Under 1.6 times the cell's side across (the disk about the cell's centre it replaced was 2.057).
      const box = boxes.subarray(j * 4, j * 4 + 4);
      expect(Math.max(box[2]! - box[0]!, box[3]! - box[1]!)).toBeLessThan(1.6 * (2 / Math.min(nx, ny)));
    }
  });
});
