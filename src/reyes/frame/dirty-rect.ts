// The pixels a targeted edit can change: the raster box of the grids it shades again (their kept
// positions, read back), widened by the pixel filter's reach. A prepared frame samples only those
// and keeps the rest of its last picture; the sampling scheduler's pictures do not depend on how
// the screen is cut, so the pixels inside come out as a whole-frame sampling gives them.
import { PIECE } from '../../layout/ready-piece.ts';
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { GridLayout } from '../../layout/grid-layout.ts';
import type { FrameCamera } from '../camera.ts';
import type { Region } from '../frame-gpu.ts';
import type { KeptRegion } from '../schedulers/dicing-scheduler.ts';

/** The raster rectangle (crop-window pixels, clipped to it) the grids of the `marked` records reach
 * with `apron` pixels of filter around them: undefined when there are none, 'all' when a grid
 * reaches behind the eye (no box). */
export async function markedGridsRect(
  gpu: GpuRuntime, kept: readonly KeptRegion[], marked: Uint8Array, layout: GridLayout, camera: FrameCamera, apron: number,
): Promise<Region | 'all' | undefined> {
  const grids: { region: KeptRegion; index: number; vertices: number }[] = [];
  for (const region of kept) {
    if (region.ready.count === 0) continue;
    const pieces = await gpu.readU32(region.ready.buffer, region.ready.count * PIECE.words);
    for (let g = 0; g < region.ready.count; g++) {
      if (marked[pieces[g * PIECE.words + PIECE.prim]!]) grids.push({ region, index: g, vertices: pieces[g * PIECE.words + PIECE.nu]! * pieces[g * PIECE.words + PIECE.nv]! });
    }
  }
  if (grids.length === 0) return undefined;
  // Each marked grid's P rows (x, y, z: maxVertices floats each) copied into one staging buffer.
  const offsetP = layout.variables.find((v) => v.name === 'P')!.offset;
  const rowBytes = 3 * layout.maxVertices * 4;
  const staging = gpu.allocator.createBuffer({ label: 'marked grid positions', size: grids.length * rowBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  let positions: Float32Array;
  try {
    const encoder = gpu.device.createCommandEncoder({ label: 'marked grid positions' });
    grids.forEach(({ region, index }, k) => encoder.copyBufferToBuffer(region.diced.grids, (region.diced.bases[index]! + offsetP) * 4, staging, k * rowBytes, rowBytes));
    gpu.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    positions = new Float32Array(staging.getMappedRange().slice(0));
  } finally {
    gpu.allocator.release(staging);
  }
  const m = camera.cameraToRaster;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const maxV = layout.maxVertices;
  for (const [k, { vertices }] of grids.entries()) {
    const base = k * 3 * maxV;
    for (let v = 0; v < vertices; v++) {
      const x = positions[base + v]!;
      const y = positions[base + maxV + v]!;
      const z = positions[base + 2 * maxV + v]!;
      const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
      if (!(w > 0)) return 'all';
      const px = (m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) / w;
      const py = (m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) / w;
      x0 = Math.min(x0, px);
      x1 = Math.max(x1, px);
      y0 = Math.min(y0, py);
      y1 = Math.max(y1, py);
    }
  }
  const crop = camera.crop;
  const rect = {
    x0: Math.max(crop.x0, Math.floor(x0) - apron - 1), y0: Math.max(crop.y0, Math.floor(y0) - apron - 1),
    x1: Math.min(crop.x1, Math.ceil(x1) + apron + 1), y1: Math.min(crop.y1, Math.ceil(y1) + apron + 1),
  };
  return rect.x0 < rect.x1 && rect.y0 < rect.y1 ? rect : undefined;
}
