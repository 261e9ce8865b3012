// What a RIB file can be given as: whole (text, bytes, an ArrayBuffer) or as a stream of chunks.
// ribBytes turns a whole input into RIB bytes at once; the reader itself streams instead
// (chunk-decoder.ts), so this is for callers that want the inflated bytes.

import { gunzipSync } from 'fflate';

export type RibInput = string | Uint8Array | ArrayBuffer;

/** A file as a stream of raw chunks (a Node read stream, a fetch body, an array of parts). */
export type ByteChunks = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/** A whole file (text, bytes, gzip bytes) or its chunks (raw file bytes, gzip or not). */
export type RibSource = RibInput | ByteChunks;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Returns the RIB bytes, or an error message when gzip data cannot be inflated. */
export function ribBytes(input: RibInput): Uint8Array | { error: string } {
  const bytes =
    typeof input === 'string' ? new TextEncoder().encode(input)
    : input instanceof Uint8Array ? input
    : new Uint8Array(input);
  if (!isGzip(bytes)) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (e) {
    return { error: `corrupt gzip data (${e instanceof Error ? e.message : String(e)})` };
  }
}
