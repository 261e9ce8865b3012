// The samples of one decoded TIFF directory as floats in [0, 1] (integers) or as stored (IEEE
// floats). UTIF (utif2) decompresses strips and tiles into `data` in the file's byte order, except
// 16-bit samples, which it turns little-endian.
import UTIF from 'utif2';
import type { MipLevel } from './texture-map.ts';

const SAMPLE_FORMAT_FLOAT = 3;

export interface FloatRaster extends MipLevel {
  channels: number;
}

/** Decodes directory `ifd` of the TIFF `bytes` (UTIF.decode's) into floats. Throws a message that
 * names what it cannot read. */
export function tiffSamples(bytes: Uint8Array, ifd: UTIF.IFD): FloatRaster {
  const tags = ifd as unknown as Record<string, number[] | undefined>;
  const width = tags['t256']![0]!;
  const height = tags['t257']![0]!;
  const channels = tags['t277']?.[0] ?? 1;
  const bits = tags['t258']?.[0] ?? 1;
  const format = tags['t339']?.[0] ?? 1;
  if ((tags['t284']?.[0] ?? 1) !== 1) throw new Error('planar (separate-plane) TIFF samples are not supported');
  const fileLittleEndian = bytes[0] === 0x49;
  let raw: Uint8Array;
  let littleEndian: boolean;
  if ((tags['t259']?.[0] ?? 1) === 1 && tags['t322'] && bits % 8 === 0) {
    // Uncompressed tiles (texture files) are copied directly: UTIF logs every tile it decodes.
    raw = untile(bytes, tags, width, height, (channels * bits) / 8);
    littleEndian = fileLittleEndian;
  } else {
    UTIF.decodeImage(bytes as unknown as ArrayBuffer, ifd);
    raw = ifd.data;
    // UTIF turns 16-bit samples little-endian; the rest stay in the file's order.
    littleEndian = bits === 16 || fileLittleEndian;
  }
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const count = width * height * channels;
  const data = new Float32Array(count);
  if (format === SAMPLE_FORMAT_FLOAT && bits === 32) {
    for (let k = 0; k < count; k++) data[k] = view.getFloat32(k * 4, littleEndian);
  } else if (format !== SAMPLE_FORMAT_FLOAT && bits === 16) {
    for (let k = 0; k < count; k++) data[k] = view.getUint16(k * 2, littleEndian) / 65535;
  } else if (format !== SAMPLE_FORMAT_FLOAT && bits === 8) {
    for (let k = 0; k < count; k++) data[k] = raw[k]! / 255;
  } else {
    throw new Error(`${bits}-bit ${format === SAMPLE_FORMAT_FLOAT ? 'float' : 'integer'} TIFF samples are not supported (8, 16 or 32-bit float)`);
  }
  return { width, height, channels, data };
}

/** The pixels of an uncompressed tiled image as rows, in the file's byte order. */
function untile(bytes: Uint8Array, tags: Record<string, number[] | undefined>, width: number, height: number, pixelBytes: number): Uint8Array {
  const tileWidth = tags['t322']![0]!;
  const tileHeight = tags['t323']![0]!;
  const offsets = tags['t324']!;
  const across = Math.ceil(width / tileWidth);
  const out = new Uint8Array(width * height * pixelBytes);
  offsets.forEach((offset, k) => {
    const tx = (k % across) * tileWidth;
    const ty = Math.floor(k / across) * tileHeight;
    const rowBytes = Math.min(tileWidth, width - tx) * pixelBytes;
    for (let y = 0; y < tileHeight && ty + y < height; y++) {
      const from = offset + y * tileWidth * pixelBytes;
      if (from + rowBytes > bytes.length) throw new Error('a tile runs past the end of the file');
      out.set(bytes.subarray(from, from + rowBytes), ((ty + y) * width + tx) * pixelBytes);
    }
  });
  return out;
}
