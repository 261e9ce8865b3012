// Turns the raw chunks of a file into RIB bytes for the lexer, inflating gzip on the way
// (detected by its magic number, not the file name). Inflation is incremental and lazy: a raw
// chunk is pushed through the inflater in small slices, and only when the lexer has used up
// what came out of the last slice, so inflated data never piles up ahead of the lexer.

import { Gunzip } from 'fflate';

/**
 * Compressed bytes inflated per step. fflate hands over all that one push inflates, so this
 * bounds the inflated bytes held at once to ratio × 16 KiB: ~100 KiB for RIB (ratio 3–8), at
 * worst 16 MiB for data made to compress 1000:1.
 */
const GZIP_SLICE = 16 * 1024;

export class ChunkDecoder {
  private mode: 'detect' | 'plain' | 'gzip' | 'failed' = 'detect';
  /** Raw bytes given and not yet passed on (or pushed through the inflater). */
  private raw: Uint8Array | null = null;
  private rawPos = 0;
  private rawEnded = false;
  /** Raw chunks given and not yet moved into `raw` (see gather). */
  private readonly gathered: Uint8Array[] = [];
  private gatheredLength = 0;
  private flushed = false;
  private readonly out: Uint8Array[] = [];
  private gunzip: Gunzip | null = null;
  // fflate does not notice a stream cut inside the deflate data, so the end is checked against
  // the gzip trailer: its last 4 bytes hold the member's inflated size (mod 2^32).
  private readonly tail = new Uint8Array(8);
  private tailLength = 0;
  private memberSize = 0;
  /** Set when gzip data cannot be inflated; nothing more comes out after that. */
  error: string | null = null;

  /** The next raw chunk of the file, or null at its end. Only call when take() answered undefined. */
  give(raw: Uint8Array | null): void {
    if (raw === null) this.rawEnded = true;
    else if (raw.length > 0) {
      this.gathered.push(raw);
      this.gatheredLength += raw.length;
    }
  }

  /**
   * Moves gathered raw chunks into `raw` once there are enough: 2 bytes to detect gzip, 4 KiB
   * to inflate (fflate copies its 32 KiB window on every push, so tiny pushes would be slow).
   */
  private gather(): void {
    const need = this.mode === 'detect' ? 2 : this.mode === 'gzip' ? 4096 : 1;
    if (this.gatheredLength === 0 || (this.gatheredLength < need && !this.rawEnded)) return;
    const leftover = this.raw === null ? 0 : this.raw.length - this.rawPos;
    if (leftover === 0 && this.gathered.length === 1) this.raw = this.gathered[0]!;
    else {
      const joined = new Uint8Array(leftover + this.gatheredLength);
      if (leftover > 0) joined.set(this.raw!.subarray(this.rawPos));
      let at = leftover;
      for (const chunk of this.gathered) { joined.set(chunk, at); at += chunk.length; }
      this.raw = joined;
    }
    this.rawPos = 0;
    this.gathered.length = 0;
    this.gatheredLength = 0;
  }

  /** The next RIB bytes; undefined when a raw chunk must be given first; null at the end. */
  take(): Uint8Array | null | undefined {
    for (;;) {
      const ready = this.out.shift();
      if (ready !== undefined) return ready;
      if (this.mode === 'failed') return null;
      if (this.raw === null || this.rawPos >= this.raw.length) this.gather();
      const raw = this.raw;
      const left = raw === null ? 0 : raw.length - this.rawPos;
      if (this.mode === 'detect') {
        if (left < 2 && !this.rawEnded) return undefined; // gather() waits for two bytes
        this.mode = left >= 2 && raw![this.rawPos] === 0x1f && raw![this.rawPos + 1] === 0x8b ? 'gzip' : 'plain';
        if (this.mode === 'gzip') {
          this.gunzip = new Gunzip((data) => {
            this.memberSize += data.length;
            if (data.length > 0) this.out.push(data);
          });
          this.gunzip.onmember = () => { this.memberSize = 0; };
        }
      }
      if (left > 0) {
        if (this.mode === 'plain') {
          this.raw = null;
          return raw!.subarray(this.rawPos);
        }
        const end = Math.min(raw!.length, this.rawPos + GZIP_SLICE);
        this.inflate(raw!.subarray(this.rawPos, end), false);
        this.rawPos = end;
        continue;
      }
      this.raw = null;
      if (this.gatheredLength > 0 && this.rawEnded) continue;
      if (!this.rawEnded) return undefined;
      if (this.mode === 'gzip' && !this.flushed) {
        this.flushed = true;
        this.inflate(new Uint8Array(0), true);
        if (this.mode === 'gzip' && !this.trailerMatches()) this.fail('the stream ends before its gzip trailer');
        continue;
      }
      return null;
    }
  }

  private inflate(data: Uint8Array, final: boolean): void {
    this.keepTail(data);
    try {
      this.gunzip!.push(data, final);
    } catch (e) {
      this.fail(e instanceof Error ? e.message : String(e));
    }
  }

  private fail(why: string): void {
    this.error = `corrupt gzip data (${why})`;
    this.mode = 'failed';
    this.out.length = 0;
  }

  private keepTail(data: Uint8Array): void {
    if (data.length >= 8) {
      this.tail.set(data.subarray(data.length - 8));
      this.tailLength = 8;
      return;
    }
    const keep = Math.min(this.tailLength, 8 - data.length);
    this.tail.copyWithin(0, this.tailLength - keep, this.tailLength);
    this.tail.set(data, keep);
    this.tailLength = keep + data.length;
  }

  private trailerMatches(): boolean {
    if (this.tailLength < 8) return false;
    const t = this.tail;
    const size = (t[4]! | (t[5]! << 8) | (t[6]! << 16) | (t[7]! << 24)) >>> 0;
    return size === this.memberSize % 2 ** 32;
  }
}
