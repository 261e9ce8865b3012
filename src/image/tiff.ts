// Single-channel 32-bit float TIFF (baseline TIFF 6.0 with SampleFormat 3: little-endian, one
// uncompressed strip, BlackIsZero), for the depth output: one camera-space z per pixel, rows top to
// bottom, +Infinity where no surface covers the pixel. decodeFloatTiff reads back what
// encodeFloatTiff writes (and other little- or big-endian single-strip-or-more float files without
// compression), for tests and tools.

const TAG = {
  imageWidth: 256, imageLength: 257, bitsPerSample: 258, compression: 259, photometric: 262, stripOffsets: 273,
  samplesPerPixel: 277, rowsPerStrip: 278, stripByteCounts: 279, planarConfiguration: 284, sampleFormat: 339,
} as const;
const SHORT = 3;
const LONG = 4;

export interface FloatRaster {
  width: number;
  height: number;
  /** width × height floats, rows top to bottom. */
  data: Float32Array;
}

export function encodeFloatTiff(image: FloatRaster): Uint8Array {
  const { width, height, data } = image;
  if (data.length !== width * height) throw new Error(`a ${width}×${height} float TIFF needs ${width * height} values, not ${data.length}`);
  const entries: [number, number, number][] = [
    [TAG.imageWidth, LONG, width], [TAG.imageLength, LONG, height], [TAG.bitsPerSample, SHORT, 32], [TAG.compression, SHORT, 1],
    [TAG.photometric, SHORT, 1], [TAG.stripOffsets, LONG, 0], [TAG.samplesPerPixel, SHORT, 1], [TAG.rowsPerStrip, LONG, Math.max(1, height)],
    [TAG.stripByteCounts, LONG, width * height * 4], [TAG.planarConfiguration, SHORT, 1], [TAG.sampleFormat, SHORT, 3],
  ];
  const ifdOffset = 8;
  const ifdBytes = 2 + entries.length * 12 + 4;
  const pixelOffset = ifdOffset + ifdBytes; // even, so the floats start word-aligned
  const bytes = new Uint8Array(pixelOffset + data.length * 4);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49]); // "II": little-endian
  view.setUint16(2, 42, true);
  view.setUint32(4, ifdOffset, true);
  view.setUint16(ifdOffset, entries.length, true);
  entries.forEach(([tag, type, value], k) => {
    const at = ifdOffset + 2 + k * 12;
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, 1, true);
    const v = tag === TAG.stripOffsets ? pixelOffset : value;
    if (type === SHORT) view.setUint16(at + 8, v, true);
    else view.setUint32(at + 8, v, true);
  });
  view.setUint32(ifdOffset + 2 + entries.length * 12, 0, true); // no next IFD
  for (let k = 0; k < data.length; k++) view.setFloat32(pixelOffset + k * 4, data[k]!, true);
  return bytes;
}

export function decodeFloatTiff(bytes: Uint8Array): FloatRaster {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0);
  if (order !== 'II' && order !== 'MM') throw new Error('not a TIFF file');
  const le = order === 'II';
  if (view.getUint16(2, le) !== 42) throw new Error('not a TIFF file (magic number)');
  const ifd = view.getUint32(4, le);
  const count = view.getUint16(ifd, le);
  const tags = new Map<number, number[]>();
  for (let k = 0; k < count; k++) {
    const at = ifd + 2 + k * 12;
    const tag = view.getUint16(at, le);
    const type = view.getUint16(at + 2, le);
    const n = view.getUint32(at + 4, le);
    const size = type === SHORT ? 2 : 4;
    const base = n * size > 4 ? view.getUint32(at + 8, le) : at + 8;
    const values: number[] = [];
    for (let i = 0; i < n; i++) values.push(type === SHORT ? view.getUint16(base + i * 2, le) : view.getUint32(base + i * 4, le));
    tags.set(tag, values);
  }
  const one = (tag: number, fallback?: number): number => {
    const v = tags.get(tag)?.[0] ?? fallback;
    if (v === undefined) throw new Error(`TIFF tag ${tag} is missing`);
    return v;
  };
  const width = one(TAG.imageWidth);
  const height = one(TAG.imageLength);
  if (one(TAG.bitsPerSample) !== 32 || one(TAG.sampleFormat, 1) !== 3 || one(TAG.samplesPerPixel, 1) !== 1) throw new Error('not a single-channel 32-bit float TIFF');
  if (one(TAG.compression, 1) !== 1) throw new Error('compressed TIFF is not supported');
  const offsets = tags.get(TAG.stripOffsets) ?? [];
  const counts = tags.get(TAG.stripByteCounts) ?? [];
  const data = new Float32Array(width * height);
  let k = 0;
  offsets.forEach((offset, s) => {
    const n = (counts[s] ?? 0) / 4;
    for (let i = 0; i < n && k < data.length; i++) data[k++] = view.getFloat32(offset + i * 4, le);
  });
  if (k !== data.length) throw new Error(`TIFF strips hold ${k} of ${data.length} values`);
  return { width, height, data };
}
