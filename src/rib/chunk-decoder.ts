// Turns the raw chunks of a file into RIB bytes for the lexer, inflating gzip on the way
// (detected by its magic number, not the file name). Inflation is incremental and lazy: a raw
// chunk is pushed through the inflater in small slices, and only when the lexer has used up
// what came out of the last slice, so inflated data never piles up ahead of the lexer.

import { Gunzip } from 'fflate';

/** Compressed bytes inflated per step; bounds the inflated data held at once (~ratio × this). */
const GZIP_SLICE = 64 * 1024;

export class ChunkDecoder {
  private mode: 'detect' | 'plain' | 'gzip' | 'failed' = 'detect';
  /** Raw bytes given and not yet passed on (or pushed through the inflater). */
  private raw: Uint8Array | null = null;
  private rawPos = 0;
  private rawEnded = false;
  private flushed = false;
  private readonly out: Uint8Array[] = [];
  private gunzip: Gunzip | null = null;
  /** Set when gzip data cannot be inflated; nothing more comes out after that. */
  error: string | null = null;

  /** The next raw chunk of the file, or null at its end. Only call when take() answered undefined. */
  give(raw: Uint8Array | null): void {
    if (raw === null) this.rawEnded = true;
    else if (this.raw !== null && this.rawPos < this.raw.length) {
      // Only while detecting: fewer than two bytes were seen so far.
      const joined = new Uint8Array(this.raw.length - this.rawPos + raw.length);
      joined.set(this.raw.subarray(this.rawPos));
      joined.set(raw, this.raw.length - this.rawPos);
      this.raw = joined;
      this.rawPos = 0;
    } else {
      this.raw = raw;
      this.rawPos = 0;
    }
  }

  /** The next RIB bytes; undefined when a raw chunk must be given first; null at the end. */
  take(): Uint8Array | null | undefined {
    for (;;) {
      const ready = this.out.shift();
      if (ready !== undefined) return ready;
      if (this.mode === 'failed') return null;
      const raw = this.raw;
      const left = raw === null ? 0 : raw.length - this.rawPos;
      if (this.mode === 'detect') {
        if (left < 2 && !this.rawEnded) return undefined;
        this.mode = left >= 2 && raw![this.rawPos] === 0x1f && raw![this.rawPos + 1] === 0x8b ? 'gzip' : 'plain';
        if (this.mode === 'gzip') this.gunzip = new Gunzip((data) => { if (data.length > 0) this.out.push(data); });
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
      if (!this.rawEnded) return undefined;
      if (this.mode === 'gzip' && !this.flushed) {
        this.flushed = true;
        this.inflate(new Uint8Array(0), true);
        continue;
      }
      return null;
    }
  }

  private inflate(data: Uint8Array, final: boolean): void {
    try {
      this.gunzip!.push(data, final);
    } catch (e) {
      this.error = `corrupt gzip data (${e instanceof Error ? e.message : String(e)})`;
      this.mode = 'failed';
      this.out.length = 0;
    }
  }
}
