// Imager: the frame's Imager shader (RI 3.2 section 12.5) on every pixel of the filtered image, on
// the GPU, after filtering and before exposure and quantization. The image is cut into tiles of at
// most maxVertices pixels, each one grid of the imager's layout (src/rsl/grid-layout.ts
// imagerGridLayout: P, Ci, Oi, alpha), and the compiled kernel runs one workgroup per tile, as a
// shading kernel runs one per grid of micropolygons.
//
// In: P the pixel centre in raster coordinates of the whole image (x + 0.5, y + 0.5, 0; a cropped
// image keeps its place), Ci the premultiplied colour, Oi = (alpha, alpha, alpha) (the renderer keeps
// one opacity per pixel) and alpha the filtered coverage. Out: Ci, and as the picture's alpha the
// imager's alpha where it assigns alpha (the standard background imager does), otherwise the mean of
// its Oi: RI 3.2 table 12.5 names Ci and Oi as the outputs, and Aqsis takes a pixel's alpha from Oi
// (imagers written for it, like iramp or fakesky, set only Oi = 1). Depth is left as it is.
import type { GridLayout } from '../../rsl/grid-layout.ts';
import { FRAME_UNIFORMS_BYTES, GRID_INFO_WORDS } from '../../rsl/grid-layout.ts';
import { GpuBudgetError } from '../../gpu/errors.ts';
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { FloatImage } from '../../image/image.ts';
import type { Options, ShaderRef } from '../../rib/scene.ts';
import { kernelFrameUniforms, type KernelSpaces } from '../shading/spaces.ts';

/** A compiled imager shader's kernel (the shading-kernel binding contract over imagerGridLayout). */
export interface ImagerKernel {
  key: string;
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

interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Runs `instance` on every pixel of `image` (in place); (originX, originY) is the raster position of
 * the image's first pixel. With `profile`, gpuMs is the kernel's GPU time from timestamp queries. */
export async function applyImager(
  gpu: GpuRuntime, image: FloatImage, originX: number, originY: number, instance: ImagerInstance, spaces: KernelSpaces, profile = false,
): Promise<{ gpuMs: number }> {
  const { kernel } = instance;
  const { layout } = kernel;
  const [tileWidth, tileHeight] = imagerTileSize(layout.maxVertices);
  const tiles: Tile[] = [];
  for (let y = 0; y < image.height; y += tileHeight) {
    for (let x = 0; x < image.width; x += tileWidth) {
      tiles.push({ x, y, width: Math.min(tileWidth, image.width - x), height: Math.min(tileHeight, image.height - y) });
    }
  }
  let gpuMs = 0;
  if (tiles.length === 0) return { gpuMs };
  const pipeline = await gpu.kernels.pipeline({ label: kernel.label, code: kernel.code, entryPoint: kernel.entryPoint });
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const params = gpu.allocator.createBufferWithData(`${kernel.label} params`, instance.params, usage);
  try {
    // A tile costs its record, bound whole, a staging copy to read it back and its gridInfo words.
    const recordBytes = layout.recordFloats * 4;
    const tileBytes = 2 * recordBytes + GRID_INFO_WORDS * 4;
    const perBatch = Math.min(tiles.length, Math.floor(gpu.maxBindingBytes() / recordBytes), Math.floor((gpu.allocator.free() - FRAME_UNIFORMS_BYTES) / tileBytes));
    if (perBatch <= 0) throw new GpuBudgetError(`imager ${kernel.label} tile`, tileBytes + FRAME_UNIFORMS_BYTES, gpu.allocator.budget, gpu.allocator.budget - gpu.allocator.free());
    for (let start = 0; start < tiles.length; start += perBatch) {
      const batch = tiles.slice(start, start + perBatch);
      const records = packTiles(image, originX, originY, batch, layout);
      const gridInfo = new Uint32Array(batch.length * GRID_INFO_WORDS);
      batch.forEach((tile, k) => gridInfo.set([tile.width, tile.height, k * layout.recordFloats, 0], k * GRID_INFO_WORDS));
      const grids = gpu.allocator.createBufferWithData('imager tiles', records, usage | GPUBufferUsage.COPY_SRC);
      try {
        const recorder = gpu.recorder(`imager ${kernel.label}`, { profile });
        const info = recorder.transient(gpu.allocator.createBufferWithData('imager tile info', gridInfo, usage));
        const uniforms = recorder.transient(gpu.allocator.createBufferWithData('imager frame uniforms', kernelFrameUniforms(spaces, batch.length), GPUBufferUsage.UNIFORM));
        recorder.dispatch(pipeline, { 0: grids, 1: info, 2: params, 3: uniforms }, batch.length);
        await recorder.submit();
        for (const t of recorder.timings ?? []) gpuMs += t.milliseconds;
        unpackTiles(image, batch, layout, new Float32Array(await gpu.read(grids, records.byteLength)), kernel.writesAlpha);
      } finally {
        gpu.allocator.release(grids);
      }
    }
  } finally {
    gpu.allocator.release(params);
  }
  return { gpuMs };
}

function slot(layout: GridLayout, name: string): number {
  const variable = layout.variables.find((v) => v.name === name);
  if (!variable) throw new Error(`imager grid layout lacks ${name}`);
  return variable.offset;
}

function packTiles(image: FloatImage, originX: number, originY: number, tiles: Tile[], layout: GridLayout): Float32Array {
  const n = layout.maxVertices;
  const [P, Ci, Oi, alpha] = ['P', 'Ci', 'Oi', 'alpha'].map((name) => slot(layout, name)) as [number, number, number, number];
  const records = new Float32Array(tiles.length * layout.recordFloats);
  tiles.forEach((tile, t) => {
    const base = t * layout.recordFloats;
    for (let j = 0; j < tile.height; j++) {
      for (let i = 0; i < tile.width; i++) {
        const k = j * tile.width + i;
        const x = tile.x + i;
        const y = tile.y + j;
        const pixel = (y * image.width + x) * 4;
        const a = image.rgba[pixel + 3]!;
        records[base + P + k] = originX + x + 0.5;
        records[base + P + n + k] = originY + y + 0.5;
        records[base + P + 2 * n + k] = 0;
        for (let c = 0; c < 3; c++) {
          records[base + Ci + c * n + k] = image.rgba[pixel + c]!;
          records[base + Oi + c * n + k] = a;
        }
        records[base + alpha + k] = a;
      }
    }
  });
  return records;
}

function unpackTiles(image: FloatImage, tiles: Tile[], layout: GridLayout, records: Float32Array, writesAlpha: boolean): void {
  const n = layout.maxVertices;
  const [Ci, Oi, alpha] = ['Ci', 'Oi', 'alpha'].map((name) => slot(layout, name)) as [number, number, number];
  tiles.forEach((tile, t) => {
    const base = t * layout.recordFloats;
    for (let j = 0; j < tile.height; j++) {
      for (let i = 0; i < tile.width; i++) {
        const k = j * tile.width + i;
        const pixel = ((tile.y + j) * image.width + tile.x + i) * 4;
        for (let c = 0; c < 3; c++) image.rgba[pixel + c] = records[base + Ci + c * n + k]!;
        image.rgba[pixel + 3] = writesAlpha
          ? records[base + alpha + k]!
          : (records[base + Oi + k]! + records[base + Oi + n + k]! + records[base + Oi + 2 * n + k]!) / 3;
      }
    }
  });
}
