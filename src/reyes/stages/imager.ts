// Imager: the frame's Imager shader (RI 3.2 section 12.5) on every pixel of the filtered image, on
// the GPU, after filtering and before exposure and quantization. The image is cut into tiles of at
// most maxVertices pixels, each one grid of the imager's layout (src/layout/grid-layout.ts
// imagerGridLayout: P, Ci, Oi, alpha), and the compiled kernel runs one workgroup per tile, as a
// shading kernel runs one per grid of micropolygons. imager-tiles.wgsl packs the pixels into the tile
// records and unpacks the result, so only the image rows cross to the GPU and back; runs of tiles
// are cut so that records and rows fit one storage binding and the budget.
//
// In: P the pixel centre in raster coordinates of the whole image (x + 0.5, y + 0.5, 0; a cropped
// image keeps its place), Ci the premultiplied colour, Oi = (alpha, alpha, alpha) (the renderer keeps
// one opacity per pixel) and alpha the filtered coverage. Out: Ci, and as the picture's alpha the
// imager's alpha where it assigns alpha (the standard background imager does), otherwise the mean of
// its Oi: RI 3.2 table 12.5 names Ci and Oi as the outputs, and Aqsis takes a pixel's alpha from Oi
// (imagers written for it, like iramp or fakesky, set only Oi = 1). Depth is left as it is.
import { GpuBudgetError } from '../../gpu/errors.ts';
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { FloatImage } from '../../image/image.ts';
import type { Options, ShaderRef } from '../../rib/scene.ts';
import { FRAME_UNIFORMS_BYTES, GRID_INFO, gridOffsetConstants, type GridLayout } from '../../layout/grid-layout.ts';
import { kernelPipeline } from '../../layout/kernel-sources.ts';
import { kernelFrameUniforms, type KernelSpaces } from '../shading/spaces.ts';

/** A compiled imager shader's kernel (the shading-kernel binding contract over imagerGridLayout). */
export interface ImagerKernel {
  label: string;
  code: string;
  entryPoint: string;
  layout: GridLayout;
  /** The kernel assigns alpha (else the picture's alpha is the mean of its Oi). */
  writesAlpha: boolean;
}

export interface ImagerInstance {
  kernel: ImagerKernel;
  /** The parameter block, in the kernel's layout, with the Imager request's values. */
  params: Float32Array;
}

export interface ImagerRequest {
  /** The frame's Imager request. */
  imager: ShaderRef;
  /** The frame's options (search path, option() values). */
  options: Options;
  spaces: KernelSpaces;
  /** Pixels per tile: the workgroup size. */
  maxVertices: number;
  warn(message: string): void;
}

/** Tile width and height for `maxVertices` pixels a tile: square where it can be (16 × 16 of 256). */
export function imagerTileSize(maxVertices: number): [number, number] {
  const width = 2 ** Math.ceil(Math.log2(maxVertices) / 2);
  return [width, Math.floor(maxVertices / width)];
}

/** A run of tiles (row-major over the image) and the image rows they lie in. */
interface Batch {
  firstTile: number;
  tileCount: number;
  firstRow: number;
  rows: number;
}

/** Runs `instance` on every pixel of `image` (in place); (originX, originY) is the raster position of
 * the image's first pixel. With `profile`, gpuMs is the kernels' GPU time from timestamp queries. */
export async function applyImager(
  gpu: GpuRuntime, image: FloatImage, originX: number, originY: number, instance: ImagerInstance, spaces: KernelSpaces, profile = false,
): Promise<{ gpuMs: number }> {
  const { kernel } = instance;
  const { layout } = kernel;
  const [tileWidth, tileHeight] = imagerTileSize(layout.maxVertices);
  const tilesX = Math.ceil(image.width / tileWidth);
  const tileCount = tilesX * Math.ceil(image.height / tileHeight);
  let gpuMs = 0;
  if (tileCount === 0) return { gpuMs };
  const constants = {
    ...gridOffsetConstants(layout, ['P', 'Ci', 'Oi', 'alpha']), RECORD_FLOATS: layout.recordFloats, TILE_W: tileWidth, TILE_H: tileHeight,
    ALPHA_FROM_IMAGER: kernel.writesAlpha ? 1 : 0,
  };
  const [pack, shade, unpack] = await Promise.all([
    kernelPipeline(gpu, 'imager-tiles.wgsl', 'packTiles', constants),
    gpu.kernels.pipeline({ label: kernel.label, code: kernel.code, entryPoint: kernel.entryPoint }),
    kernelPipeline(gpu, 'imager-tiles.wgsl', 'unpackTiles', constants),
  ]);
  const params = gpu.allocator.createBufferWithData(`${kernel.label} params`, instance.params, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
  try {
    const rowBytes = image.width * 16;
    for (const batch of batches(gpu, tileCount, tilesX, tileHeight, image.height, layout.recordFloats * 4, rowBytes)) {
      const rows = image.rgba.subarray(batch.firstRow * image.width * 4, (batch.firstRow + batch.rows) * image.width * 4);
      const pixels = gpu.allocator.createBufferWithData('imager pixels', rows, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
      try {
        const recorder = gpu.recorder(`imager ${kernel.label}`, { profile });
        const grids = recorder.scratch('imager tiles', batch.tileCount * layout.recordFloats * 4);
        const info = recorder.transient(gpu.allocator.createBufferWithData('imager tile info', tileInfo(batch, tilesX, tileWidth, tileHeight, image, layout), GPUBufferUsage.STORAGE));
        const uniforms = recorder.transient(gpu.allocator.createBufferWithData('imager frame uniforms', kernelFrameUniforms(spaces, batch.tileCount), GPUBufferUsage.UNIFORM));
        const words = new Uint32Array(8);
        words.set([image.width, image.height, tilesX, batch.firstTile, batch.tileCount, batch.firstRow]);
        new Float32Array(words.buffer).set([originX, originY], 6);
        const tiles = { 0: recorder.params('imager tiles', words), 1: pixels, 2: grids };
        recorder.dispatch(pack, tiles, batch.tileCount);
        recorder.dispatch(shade, { 0: grids, 1: info, 2: params, 3: uniforms }, batch.tileCount);
        recorder.dispatch(unpack, tiles, batch.tileCount);
        await recorder.submit();
        for (const t of recorder.timings ?? []) gpuMs += t.milliseconds;
        image.rgba.set(new Float32Array(await gpu.read(pixels, rows.byteLength)), batch.firstRow * image.width * 4);
      } finally {
        gpu.allocator.release(pixels);
      }
    }
  } finally {
    gpu.allocator.release(params);
  }
  return { gpuMs };
}

/**
 * Runs of tiles whose records and image rows each fit one storage binding and, with the rows' read-back
 * copy, the memory the budget leaves.
 */
function batches(gpu: GpuRuntime, tileCount: number, tilesX: number, tileHeight: number, height: number, recordBytes: number, rowBytes: number): Batch[] {
  const binding = gpu.maxBindingBytes();
  const free = gpu.allocator.free() - FRAME_UNIFORMS_BYTES - 256;
  const rowsOf = (first: number, count: number): [number, number] => {
    const firstRow = Math.floor(first / tilesX) * tileHeight;
    return [firstRow, Math.min(height, (Math.floor((first + count - 1) / tilesX) + 1) * tileHeight) - firstRow];
  };
  const fits = (first: number, count: number): boolean => {
    const rowsBytes = rowsOf(first, count)[1] * rowBytes;
    return count * recordBytes <= binding && rowsBytes <= binding && count * (recordBytes + GRID_INFO.words * 4) + 2 * rowsBytes <= free;
  };
  const out: Batch[] = [];
  for (let first = 0; first < tileCount;) {
    let count = 0;
    while (first + count < tileCount && fits(first, count + 1)) count++;
    if (count === 0) throw new GpuBudgetError('imager tile', recordBytes + GRID_INFO.words * 4 + 2 * tileHeight * rowBytes, gpu.allocator.budget, gpu.allocator.budget - gpu.allocator.free());
    const [firstRow, rows] = rowsOf(first, count);
    out.push({ firstTile: first, tileCount: count, firstRow, rows });
    first += count;
  }
  return out;
}

/** gridInfo of a batch's tiles: nu, nv, record base, parameter block 0. */
function tileInfo(batch: Batch, tilesX: number, tileWidth: number, tileHeight: number, image: FloatImage, layout: GridLayout): Uint32Array {
  const words = new Uint32Array(batch.tileCount * GRID_INFO.words);
  for (let k = 0; k < batch.tileCount; k++) {
    const tile = batch.firstTile + k;
    const x0 = (tile % tilesX) * tileWidth;
    const y0 = Math.floor(tile / tilesX) * tileHeight;
    words.set([Math.min(tileWidth, image.width - x0), Math.min(tileHeight, image.height - y0), k * layout.recordFloats, 0], k * GRID_INFO.words);
  }
  return words;
}
