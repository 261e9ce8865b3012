// Pictures the Make* requests read: TIFF (8 or 16-bit integer or 32-bit float samples, strips or
// tiles, the compressions UTIF (utif2) reads) and PNG (fast-png: grey, grey-alpha, RGB, RGBA,
// palette; 1 to 16 bits). Recognised by their first bytes, not their names. Integer samples become
// [0, 1]; the first directory of a TIFF is the picture.
import { convertIndexedToRgb, decode as decodePng, hasPngSignature } from 'fast-png';
import UTIF from 'utif2';
import { tiffSamples, type FloatRaster } from './tiff-samples.ts';

function isTiff(bytes: Uint8Array): boolean {
  return (bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 42 && bytes[3] === 0) || (bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0 && bytes[3] === 42);
}

/** Decodes a picture; throws a message saying what is wrong with it. */
export function decodePicture(bytes: Uint8Array): FloatRaster {
  if (isTiff(bytes)) {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const ifd = UTIF.decode(buffer).find((d) => (d as unknown as Record<string, unknown>)['t256'] !== undefined);
    if (!ifd) throw new Error('the TIFF holds no image');
    return tiffSamples(new Uint8Array(buffer), ifd);
  }
  if (hasPngSignature(bytes)) {
    const png = decodePng(bytes);
    if (png.palette) {
      const rgb = convertIndexedToRgb(png);
      const channels = rgb.length / (png.width * png.height);
      return { width: png.width, height: png.height, channels, data: Float32Array.from(rgb, (v) => v / 255) };
    }
    const max = 2 ** png.depth - 1;
    return { width: png.width, height: png.height, channels: png.channels, data: Float32Array.from(png.data, (v) => v / max) };
  }
  throw new Error('not a TIFF or PNG picture');
}
