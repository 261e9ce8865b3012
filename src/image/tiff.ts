// TIFF output (baseline TIFF 6.0, one uncompressed strip) through UTIF (utif2), which writes the
// directory; the pixel data follows it big-endian, as UTIF's directory is. 8-bit, 16-bit unsigned
// or 32-bit IEEE float samples (SampleFormat 3); 1 sample (BlackIsZero), 3 (RGB) or RGB plus
// associated alpha (ExtraSamples = 1, colour premultiplied). Depth maps are 1-sample float TIFFs.
import UTIF from 'utif2';

export interface TiffRaster {
  width: number;
  height: number;
  /** Samples per pixel: 1 (grey or depth), 3 (RGB) or 4 (RGB + associated alpha). */
  samples: 1 | 3 | 4;
  /** width × height × samples values, rows top to bottom; the type gives the sample format. */
  data: Uint8Array | Uint16Array | Float32Array;
}

const TAG = {
  imageWidth: 't256', imageLength: 't257', bitsPerSample: 't258', compression: 't259', photometric: 't262',
  stripOffsets: 't273', samplesPerPixel: 't277', rowsPerStrip: 't278', stripByteCounts: 't279',
  planarConfiguration: 't284', extraSamples: 't338', sampleFormat: 't339',
} as const;
const ASSOCIATED_ALPHA = 1;

/** The tags PRMan and Aqsis use to describe texture files and the camera of a depth map. */
export const PIXAR_TAG = { textureFormat: 33302, wrapModes: 33303, worldToScreen: 33305, worldToCamera: 33306 } as const;
// UTIF writes only tags whose type it knows: the Pixar ones are ASCII and DOUBLE.
const utifTypes = (UTIF as unknown as { _types: { basic: { rest: Record<number, number> } } })._types.basic.rest;
Object.assign(utifTypes, { [PIXAR_TAG.textureFormat]: 2, [PIXAR_TAG.wrapModes]: 2, [PIXAR_TAG.worldToScreen]: 12, [PIXAR_TAG.worldToCamera]: 12 });

/** The camera a depth map was rendered from, RenderMan matrices (row-major, points as row vectors):
 * world → camera, and world → screen with the image spanning [-1, 1] in x and y (y up). */
export interface DepthCamera {
  worldToCamera: number[];
  worldToScreen: number[];
}
const SAMPLE_FORMAT = { unsigned: 1, float: 3 } as const;

/** `extraTags`: more tags by number, above SampleFormat's (e.g. PIXAR_TAG). */
export function encodeTiff(raster: TiffRaster, extraTags: Record<number, number[] | string[]> = {}): Uint8Array {
  const { width, height, samples, data } = raster;
  if (data.length !== width * height * samples) {
    throw new Error(`a ${width}×${height} TIFF with ${samples} samples per pixel needs ${width * height * samples} values, not ${data.length}`);
  }
  const bits = data.BYTES_PER_ELEMENT * 8;
  const format = data instanceof Float32Array ? SAMPLE_FORMAT.float : SAMPLE_FORMAT.unsigned;
  const each = (v: number): number[] => new Array<number>(samples).fill(v);
  // Keys in ascending tag order: UTIF writes them as given and TIFF requires them sorted.
  const ifd: Record<string, number[]> = {
    [TAG.imageWidth]: [width], [TAG.imageLength]: [height], [TAG.bitsPerSample]: each(bits), [TAG.compression]: [1],
    [TAG.photometric]: [samples >= 3 ? 2 : 1], [TAG.stripOffsets]: [0], [TAG.samplesPerPixel]: [samples],
    [TAG.rowsPerStrip]: [Math.max(1, height)], [TAG.stripByteCounts]: [data.byteLength], [TAG.planarConfiguration]: [1],
  };
  if (samples === 4) ifd[TAG.extraSamples] = [ASSOCIATED_ALPHA];
  ifd[TAG.sampleFormat] = each(format);
  for (const [tag, value] of Object.entries(extraTags)) ifd[`t${tag}`] = value as number[];
  // The directory's size does not depend on the strip offset's value: write it once to learn where
  // the pixels go, then again with that offset.
  const pixelOffset = (encodeDirectory(ifd).length + 3) & ~3;
  ifd[TAG.stripOffsets] = [pixelOffset];
  const directory = encodeDirectory(ifd);
  const bytes = new Uint8Array(pixelOffset + data.byteLength);
  bytes.set(directory);
  writeBigEndian(bytes, pixelOffset, data);
  return bytes;
}

/** `data` into `bytes` at `offset` (a multiple of 4), each value big-endian. Bytes are copied as
 * they are; wider values go through a view of their bits that swaps the byte order where the
 * machine is little-endian (a DataView store per value took 50 ms for a 1280 × 960 RGBA picture). */
function writeBigEndian(bytes: Uint8Array, offset: number, data: Uint8Array | Uint16Array | Float32Array): void {
  if (data instanceof Uint8Array) {
    bytes.set(data, offset);
  } else if (data instanceof Uint16Array) {
    const out = new Uint16Array(bytes.buffer, bytes.byteOffset + offset, data.length);
    if (LITTLE_ENDIAN) for (let k = 0; k < data.length; k++) out[k] = ((data[k]! & 0xff) << 8) | (data[k]! >>> 8);
    else out.set(data);
  } else {
    const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
    const out = new Uint32Array(bytes.buffer, bytes.byteOffset + offset, data.length);
    if (LITTLE_ENDIAN) {
      for (let k = 0; k < bits.length; k++) {
        const v = bits[k]!;
        out[k] = ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >>> 8) & 0xff00) | (v >>> 24);
      }
    } else out.set(bits);
  }
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** A single-channel 32-bit float TIFF: camera-space depth, +Infinity where nothing is hit; with the
 * camera, in the Pixar tags (what MakeShadow needs). */
export function encodeDepthTiff(width: number, height: number, depth: Float32Array, camera?: DepthCamera): Uint8Array {
  const tags: Record<number, number[]> = camera ? { [PIXAR_TAG.worldToScreen]: camera.worldToScreen, [PIXAR_TAG.worldToCamera]: camera.worldToCamera } : {};
  return encodeTiff({ width, height, samples: 1, data: depth }, tags);
}

function encodeDirectory(ifd: Record<string, number[]>): Uint8Array {
  return new Uint8Array(UTIF.encode([ifd as unknown as UTIF.IFD]));
}
