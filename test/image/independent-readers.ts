// Readers for the files the renderer writes, from libraries other than the ones it writes them
// with: geotiff for TIFF (the writer is UTIF), pngjs for PNG (the writer is fast-png), parse-exr
// for OpenEXR (the writer is hdrify).
import { PNG } from 'pngjs';
import { fromArrayBuffer } from 'geotiff';
import parseExr from 'parse-exr';

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export interface ReadTiff {
  width: number;
  height: number;
  bitsPerSample: number;
  samples: number;
  /** SampleFormat: 1 unsigned integer, 3 IEEE float. */
  sampleFormat: number;
  /** ExtraSamples (1 associated alpha, 2 unassociated); undefined when absent. */
  extraSamples: number | undefined;
  values: number[];
}

export async function readTiff(bytes: Uint8Array): Promise<ReadTiff> {
  const image = await (await fromArrayBuffer(arrayBuffer(bytes))).getImage();
  const directory = image.fileDirectory as unknown as { getValue(name: string): ArrayLike<number> | number | undefined };
  const extra = directory.getValue('ExtraSamples');
  const format = directory.getValue('SampleFormat');
  return {
    width: image.getWidth(),
    height: image.getHeight(),
    bitsPerSample: image.getBitsPerSample(),
    samples: image.getSamplesPerPixel(),
    sampleFormat: format === undefined ? 1 : typeof format === 'number' ? format : format[0]!,
    extraSamples: extra === undefined ? undefined : typeof extra === 'number' ? extra : extra[0],
    values: Array.from((await image.readRasters({ interleave: true })) as unknown as ArrayLike<number>),
  };
}

export function readPng(bytes: Uint8Array): { width: number; height: number; channels: number; depth: number; values: number[] } {
  // pngjs expands every file to RGBA; the colour type says which of those channels the file holds.
  const png = PNG.sync.read(Buffer.from(bytes), { skipRescale: true });
  const { colorType, depth } = png as unknown as { colorType: number; depth: number };
  const pick = { 0: [0], 2: [0, 1, 2], 4: [0, 3], 6: [0, 1, 2, 3] }[colorType];
  if (!pick) throw new Error(`PNG colour type ${colorType} is not read here`);
  const values: number[] = [];
  for (let i = 0; i < png.width * png.height; i++) for (const c of pick) values.push(png.data[i * 4 + c]!);
  return { width: png.width, height: png.height, channels: pick.length, depth, values };
}

/** RGBA floats, rows top to bottom, and each channel's pixel type (1 half, 2 float). */
export function readExr(bytes: Uint8Array): { width: number; height: number; values: number[]; pixelTypes: Record<string, number> } {
  const exr = parseExr(arrayBuffer(bytes), 1015);
  const header = exr.header as { channels: { name: string; pixelType: number }[] };
  const pixelTypes = Object.fromEntries(header.channels.map((c) => [c.name, c.pixelType]));
  // parse-exr returns rows bottom to top (three.js texture order); the file's first row is the top.
  const row = exr.width * 4;
  const values: number[] = [];
  for (let y = exr.height - 1; y >= 0; y--) values.push(...exr.data.subarray(y * row, (y + 1) * row));
  return { width: exr.width, height: exr.height, values, pixelTypes };
}
