// The GPU tile pool: a frame's texture maps paged into a fixed number of tile slots (counted
// against the memory budget with the rest of the atlas), the page table the kernels translate
// (map, level, tile) through, and the feedback loop. A shading pass records the tiles its lookups
// found absent and the grids that missed one (those write nothing back); the host then uploads
// the missing tiles, evicting the least recently used, and runs the pass again for the missed
// grids only (the others return at once), until every grid is shaded. The pictures do not depend
// on the pool's size: every grid is finally shaded with every tile it reads resident.
//
// When the missed grids together need more tiles than the pool holds, the pass is run for the
// first half of them only (probing what that half needs), halving until their tiles fit; a grid
// that alone needs more than the pool holds grows the pool (with a warning).
import type { GpuRuntime } from '../gpu/runtime.ts';
import { ATLAS, FEEDBACK, PAGE_ABSENT, TILE } from '../layout/texture-pages.ts';
import type { FrameTextures } from './texture-registry.ts';
import { byCoarseness, tileTexels, type TileTable } from './tile-table.ts';

/** What the texture pages did in a frame (`--stats`). */
export interface TextureStats {
  /** texture(), environment() and shadow() calls per vertex of the grids shaded. */
  lookups: number;
  /** Tiles lookups asked for and found absent (summed over shading passes). */
  tileMisses: number;
  /** Grids shaded again after a miss (summed over passes). */
  reshadedGrids: number;
  /** Shading passes run again for missed grids. */
  extraPasses: number;
  tilesUploaded: number;
  bytesUploaded: number;
  /** Slots in the pool and tiles of all the frame's maps. */
  poolTiles: number;
  mapTiles: number;
}

export function emptyTextureStats(): TextureStats {
  return { lookups: 0, tileMisses: 0, reshadedGrids: 0, extraPasses: 0, tilesUploaded: 0, bytesUploaded: 0, poolTiles: 0, mapTiles: 0 };
}

const TILE_BYTES = TILE.words * 4;
/** Passes of one batch past which the lookups are taken to never settle (each pass uploads what the
 * grids it runs asked for, so only lookups that depend on what they read can get here). */
const MAX_PASSES = 10_000;

export class TilePool {
  private readonly maps: FrameTextures['maps'];
  private readonly table: TileTable;
  private buffer: GPUBuffer;
  private feedbackBuffer: GPUBuffer;
  private gridWords: number;
  private capacity: number;
  private readonly pagesStart: number;
  private readonly bitmapWords: number;
  /** Per page entry, its slot or -1; per slot, its page entry or -1 and the pass it was last read in. */
  private readonly slotOfPage: Int32Array;
  private pageOfSlot: Int32Array;
  private lastUse: Float64Array;
  private clock = 0;
  private readonly pending = { tiles: 0 };
  private paged: boolean;

  /** The pool for `maps` with room for `poolBytes` of tiles (at least one tile, at most what one
   * binding holds beside the table), every tile resident when they all fit. */
  constructor(
    private readonly gpu: GpuRuntime, textures: FrameTextures, poolBytes: number, private readonly owned: GPUBuffer[],
    private readonly warn: (message: string) => void,
  ) {
    const table = textures.table;
    this.maps = textures.maps;
    this.table = table;
    const total = table.tiles.length;
    const room = Math.floor((gpu.maxBindingBytes() - table.words.byteLength) / TILE_BYTES);
    if (total > 0 && room < 1) throw new Error(`the texture maps' page table (${table.words.byteLength} bytes) leaves no room for a tile in one storage binding`);
    this.capacity = Math.min(total, room, Math.max(1, Math.floor(poolBytes / TILE_BYTES)));
    this.paged = this.capacity < total;
    this.pagesStart = table.words[ATLAS.pagesStart]!;
    this.bitmapWords = table.words[ATLAS.bitmapWords]!;
    this.slotOfPage = new Int32Array(total).fill(-1);
    this.pageOfSlot = new Int32Array(this.capacity).fill(-1);
    this.lastUse = new Float64Array(this.capacity);
    const words = table.words.slice();
    words[ATLAS.paged] = this.paged ? 1 : 0;
    this.buffer = this.allocate(this.capacity);
    gpu.device.queue.writeBuffer(this.buffer, 0, words);
    this.gridWords = 32;
    this.feedbackBuffer = this.allocateFeedback();
    // Before any lookup asks, the coarsest levels (which every distant lookup reads) go in first.
    const order = byCoarseness(table).slice(0, this.capacity);
    order.forEach((page, slot) => this.place(page, slot));
    this.writePages();
  }

  /** Binding 5: the table and the pool. */
  get atlas(): GPUBuffer {
    return this.buffer;
  }

  /** Binding 6: requests, uses and grid bits. */
  get feedback(): GPUBuffer {
    return this.feedbackBuffer;
  }

  /**
   * Shades a batch of `grids` grids: `pass` dispatches the kernel once over all of them (grid k is
   * workgroup k), binding `atlas` and `feedback` as they are when it runs; it runs again after each
   * upload, the grids already shaded (and those held back) skipping.
   */
  async shadeBatch(grids: number, pass: () => Promise<void>, stats: TextureStats, kernel: { label: string; passes?: unknown } = { label: '' }): Promise<void> {
    // A kernel the compiler split into passes shares one grid bit between them: it cannot be shaded
    // again grid by grid, so every tile is made resident for it.
    if (kernel.passes && this.paged) this.makeAllResident(kernel.label, stats);
    stats.poolTiles = this.capacity;
    stats.mapTiles = this.table.tiles.length;
    stats.tilesUploaded += this.pending.tiles;
    stats.bytesUploaded += this.pending.tiles * TILE_BYTES;
    this.pending.tiles = 0;
    const { device } = this.gpu;
    if (!this.paged) {
      device.queue.writeBuffer(this.feedbackBuffer, 0, new Uint32Array(FEEDBACK.requests));
      await pass();
      stats.lookups += (await this.gpu.readU32(this.feedbackBuffer, FEEDBACK.requests))[FEEDBACK.lookups]!;
      return;
    }
    if (Math.ceil(grids / 32) > this.gridWords) {
      this.gpu.allocator.release(this.feedbackBuffer);
      this.owned.splice(this.owned.indexOf(this.feedbackBuffer), 1);
      this.gridWords = Math.ceil(grids / 32);
      this.feedbackBuffer = this.allocateFeedback();
    }
    const done = new Uint8Array(grids);
    let active = [...Array(grids).keys()];
    const bitmaps = FEEDBACK.requests + 2 * this.bitmapWords;
    for (let passes = 0; ; passes++) {
      if (passes > MAX_PASSES) throw new Error(`texture lookups still miss tiles after ${MAX_PASSES} shading passes`);
      // Grid bits: set for every grid this pass must skip.
      const skip = new Uint32Array(this.gridWords).fill(0xffffffff);
      for (const g of active) skip[g >> 5]! &= ~(1 << (g & 31));
      device.queue.writeBuffer(this.feedbackBuffer, 0, new Uint32Array(bitmaps));
      device.queue.writeBuffer(this.feedbackBuffer, bitmaps * 4, skip);
      if (passes > 0) {
        stats.extraPasses++;
        stats.reshadedGrids += active.length;
      }
      await pass();
      const feedback = await this.gpu.readU32(this.feedbackBuffer, bitmaps + this.gridWords);
      this.clock++;
      stats.lookups += feedback[FEEDBACK.lookups]!;
      const used = this.pagesIn(feedback, FEEDBACK.requests + this.bitmapWords);
      for (const page of used) this.lastUse[this.slotOfPage[page]!] = this.clock;
      const missed = active.filter((g) => !((feedback[bitmaps + (g >> 5)]! >>> (g & 31)) & 1));
      for (const g of active) done[g] = 1;
      for (const g of missed) done[g] = 0;
      if (missed.length === 0) {
        active = [...done.keys()].filter((g) => !done[g]);
        if (active.length === 0) return;
        continue;
      }
      const requested = this.pagesIn(feedback, FEEDBACK.requests);
      stats.tileMisses += requested.length;
      const needed = new Set([...requested, ...used]);
      if (needed.size > this.capacity) {
        if (active.length > 1) {
          // Too many for the pool at once: find out what the first half of the missed grids (or the
          // one missed grid) needs on its own.
          active = missed.slice(0, Math.ceil(missed.length / 2));
          continue;
        }
        this.warn(`texture tile pool: one grid reads ${needed.size} tiles, more than the ${this.capacity} the pool holds; the pool grows to ${needed.size} (Option "limits" "texturememory")`);
        this.grow(needed.size);
      }
      this.upload(requested, needed, stats);
      active = missed;
    }
  }

  private makeAllResident(label: string, stats: TextureStats): void {
    const total = this.table.tiles.length;
    this.warn(`texture tile pool: "${label}" is split into passes, which are not shaded again after a tile miss; the pool grows to all ${total} tiles of the frame's maps`);
    if (total > this.capacity) this.grow(total);
    const free = [...this.pageOfSlot.keys()].filter((slot) => this.pageOfSlot[slot]! < 0);
    this.table.tiles.forEach((_, page) => {
      if (this.slotOfPage[page]! < 0) this.place(page, free.shift()!);
    });
    this.writePages();
    this.paged = false;
    this.gpu.device.queue.writeBuffer(this.buffer, ATLAS.paged * 4, new Uint32Array([0]));
    stats.poolTiles = this.capacity;
  }

  /** Page entries whose bit is set in the bitmap at word `at` of the feedback. */
  private pagesIn(feedback: Uint32Array, at: number): number[] {
    const pages: number[] = [];
    for (let w = 0; w < this.bitmapWords; w++) {
      let bits = feedback[at + w]!;
      while (bits !== 0) {
        const b = 31 - Math.clz32(bits & -bits);
        pages.push(w * 32 + b);
        bits &= bits - 1;
      }
    }
    return pages.sort((a, b) => a - b);
  }

  /** Puts the requested tiles in, evicting the least recently read tiles not in `keep`. */
  private upload(requested: number[], keep: Set<number>, stats: TextureStats): void {
    const free = [...this.pageOfSlot.keys()]
      .filter((slot) => this.pageOfSlot[slot]! < 0 || !keep.has(this.pageOfSlot[slot]!))
      .sort((a, b) => (this.pageOfSlot[a]! < 0 ? -1 : this.lastUse[a]!) - (this.pageOfSlot[b]! < 0 ? -1 : this.lastUse[b]!) || a - b);
    requested.forEach((page, k) => {
      const slot = free[k]!;
      const evicted = this.pageOfSlot[slot]!;
      if (evicted >= 0) this.slotOfPage[evicted] = -1;
      this.place(page, slot);
      this.lastUse[slot] = this.clock;
    });
    stats.tilesUploaded += this.pending.tiles;
    stats.bytesUploaded += this.pending.tiles * TILE_BYTES;
    this.pending.tiles = 0;
    this.writePages();
  }

  private place(page: number, slot: number): void {
    const tile = this.table.tiles[page]!;
    this.slotOfPage[page] = slot;
    this.pageOfSlot[slot] = page;
    this.gpu.device.queue.writeBuffer(this.buffer, (this.table.words.length + slot * TILE.words) * 4, tileTexels(this.maps[tile.map]!, tile));
    this.pending.tiles++;
  }

  private writePages(): void {
    const pages = Uint32Array.from(this.slotOfPage, (slot) => (slot < 0 ? PAGE_ABSENT : slot));
    if (pages.length > 0) this.gpu.device.queue.writeBuffer(this.buffer, this.pagesStart * 4, pages);
  }

  /** A pool of `capacity` slots, copied from the old one. */
  private grow(capacity: number): void {
    const room = Math.floor((this.gpu.maxBindingBytes() - this.table.words.byteLength) / TILE_BYTES);
    if (capacity > room) throw new Error(`one grid's texture lookups read ${capacity} tiles; one storage binding holds ${room}`);
    const old = this.buffer;
    this.buffer = this.allocate(capacity);
    const encoder = this.gpu.device.createCommandEncoder({ label: 'grow the texture tile pool' });
    // What the old pool holds: its buffer may be larger (allocator.ts hands out pooled buffers that hold a request).
    encoder.copyBufferToBuffer(old, 0, this.buffer, 0, this.poolBytes(this.capacity));
    this.gpu.device.queue.submit([encoder.finish()]);
    this.gpu.allocator.release(old);
    this.owned.splice(this.owned.indexOf(old), 1);
    const pageOfSlot = new Int32Array(capacity).fill(-1);
    pageOfSlot.set(this.pageOfSlot);
    const lastUse = new Float64Array(capacity);
    lastUse.set(this.lastUse);
    [this.pageOfSlot, this.lastUse, this.capacity] = [pageOfSlot, lastUse, capacity];
  }

  /** Bytes of the page table and a pool of `capacity` slots. */
  private poolBytes(capacity: number): number {
    return this.table.words.byteLength + capacity * TILE_BYTES;
  }

  private allocate(capacity: number): GPUBuffer {
    const buffer = this.gpu.allocator.createBuffer({
      label: 'texture atlas and tile pool', size: this.poolBytes(capacity),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    this.owned.push(buffer);
    return buffer;
  }

  private allocateFeedback(): GPUBuffer {
    const buffer = this.gpu.allocator.createBuffer({
      label: 'texture feedback', size: (FEEDBACK.requests + 2 * this.bitmapWords + this.gridWords) * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    this.owned.push(buffer);
    return buffer;
  }
}
