// Turns whatever the caller holds (text, bytes, an ArrayBuffer) into the bytes the lexer reads,
// inflating gzip-compressed RIB on the way (detected by its magic number, not the file name).

import { gunzipSync } from 'fflate';

export type RibInput = string | Uint8Array | ArrayBuffer;

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
