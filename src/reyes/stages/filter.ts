// The pixel filter over one region (image-filter.wgsl): subpixel buffer in, filtered RGBA and
// depth of the region's pixels back on the CPU, and, when asked, the primitive record of each
// pixel's nearest sample.
import { addGpuTimes, stageRecorder, timed, type FrameGpu, type Region } from '../frame-gpu.ts';
import { FILTER_BLOCK, FILTER_PARAMS } from '../../layout/filter-params.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import { packUniform } from '../../layout/uniform-struct.ts';
import type { SubpixelBuffer } from './sample.ts';

export interface FilteredPixels {
  rgba: Float32Array;
  depth: Float32Array;
  /** Primitive record per pixel (0xffffffff where none); only when `withIds`. */
  ids?: Uint32Array;
}

/** The pixel filter's pipeline. */
export function filterPipeline(frame: FrameGpu): Promise<GPUComputePipeline> {
  return kernelPipeline(frame.gpu, 'image-filter.wgsl', 'filterPixels', { FILTER: frame.filter.code });
}

export function filterRegion(frame: FrameGpu, sub: SubpixelBuffer, region: Region, withIds = false): Promise<FilteredPixels> {
  return timed(frame, 'filter', async () => {
    const { gpu } = frame;
    const width = region.x1 - region.x0;
    const height = region.y1 - region.y0;
    const pipeline = await filterPipeline(frame);
    const words = packUniform(FILTER_PARAMS, {
      pixelX: region.x0, pixelY: region.y0, width, height, originX: sub.rect.x, originY: sub.rect.y,
      bufferWidth: sub.rect.width, bufferHeight: sub.rect.height, nx: frame.nx, ny: frame.ny, xWidth: frame.filter.xWidth, yWidth: frame.filter.yWidth,
    });
    const recorder = stageRecorder(frame, 'filter');
    const pixels = gpu.allocator.createBuffer({ label: 'pixels', size: width * height * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    const depth = gpu.allocator.createBuffer({ label: 'pixel depth', size: width * height * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    let ids: GPUBuffer | undefined;
    let staging: GPUBuffer | undefined;
    try {
      ids = gpu.allocator.createBuffer({ label: 'pixel primitive', size: width * height * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
      const blocks = Math.ceil(width / FILTER_BLOCK.pixels) * Math.ceil(height / FILTER_BLOCK.pixels);
      recorder.dispatch(pipeline, { 0: recorder.params('filter', words), 1: sub.color, 2: sub.depth, 3: pixels, 4: depth, 5: sub.ids, 6: ids }, Math.ceil(blocks / FILTER_BLOCK.lanes));
      // Colour, depth and ids come back together: one copy at the end of the filter's command
      // buffer and one map, not a submission and a wait for each.
      const parts = [{ buffer: pixels, bytes: width * height * 16 }, { buffer: depth, bytes: width * height * 4 }, ...(withIds ? [{ buffer: ids, bytes: width * height * 4 }] : [])];
      staging = gpu.allocator.createBuffer({ label: 'filtered pixels read back', size: parts.reduce((n, p) => n + p.bytes, 0), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      let at = 0;
      for (const part of parts) {
        recorder.encoder.copyBufferToBuffer(part.buffer, 0, staging, at, part.bytes);
        at += part.bytes;
      }
      await recorder.submitAndMap(staging);
      addGpuTimes(frame, recorder, 'filter');
      const mapped = staging.getMappedRange();
      const rgbaBytes = parts[0]!.bytes;
      const depthBytes = parts[1]!.bytes;
      const out: FilteredPixels = {
        rgba: new Float32Array(mapped.slice(0, rgbaBytes)),
        depth: new Float32Array(mapped.slice(rgbaBytes, rgbaBytes + depthBytes)),
      };
      if (withIds) out.ids = new Uint32Array(mapped.slice(rgbaBytes + depthBytes, rgbaBytes + depthBytes + parts[2]!.bytes));
      return out;
    } finally {
      gpu.allocator.release(pixels);
      gpu.allocator.release(depth);
      if (ids) gpu.allocator.release(ids);
      if (staging) gpu.allocator.release(staging);
    }
  });
}
