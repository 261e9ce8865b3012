// What the page's Insight overlays show of the schedulers' work besides the regions: the outline of
// every shaded grid, its four corner vertices (u, v) = (0, 0), (1, 0), (1, 1), (0, 1) projected to
// raster space (global pixels, the space the regions use). Read back only when asked for.
import { vec4, type mat4 } from 'gl-matrix';
import { PIECE } from '../../layout/ready-piece.ts';
import type { FrameGpu, ReadyPieces } from '../frame-gpu.ts';
import type { DicedGrids } from '../stages/dice.ts';

/** Grids whose P rows are copied back in one go. */
const CHUNK = 512;

export async function collectOutlines(frame: FrameGpu, ready: ReadyPieces, diced: DicedGrids, out: number[]): Promise<void> {
  if (diced.count === 0) return;
  const { gpu, layout, camera } = frame;
  const maxV = layout.maxVertices;
  const offsetP = layout.variables.find((v) => v.name === 'P')!.offset;
  const pieces = await gpu.readU32(ready.buffer, ready.count * PIECE.words);
  const rowBytes = 3 * maxV * 4;
  for (let first = 0; first < diced.count; first += CHUNK) {
    const n = Math.min(CHUNK, diced.count - first);
    const staging = gpu.allocator.createBuffer({ label: 'grid outlines', size: n * rowBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    try {
      const encoder = gpu.device.createCommandEncoder({ label: 'grid outlines' });
      for (let k = 0; k < n; k++) encoder.copyBufferToBuffer(diced.grids, (diced.bases[first + k]! + offsetP) * 4, staging, k * rowBytes, rowBytes);
      gpu.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const p = new Float32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      for (let k = 0; k < n; k++) {
        const g = first + k;
        const nu = pieces[g * PIECE.words + PIECE.nu]!;
        const nv = pieces[g * PIECE.words + PIECE.nv]!;
        for (const vertex of [0, nu - 1, nv * nu - 1, (nv - 1) * nu]) {
          const base = k * 3 * maxV;
          out.push(...project(camera.cameraToRaster, p[base + vertex]!, p[base + maxV + vertex]!, p[base + 2 * maxV + vertex]!));
        }
      }
    } finally {
      gpu.allocator.release(staging);
    }
  }
}

function project(cameraToRaster: mat4, x: number, y: number, z: number): [number, number] {
  const h = vec4.transformMat4(vec4.create(), [x, y, z, 1], cameraToRaster);
  const w = Math.abs(h[3]) > 1e-12 ? h[3] : 1e-12;
  return [h[0] / w, h[1] / w];
}
