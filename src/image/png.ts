// PNG encoding and decoding (Node: pngjs). Grey (1 sample), RGB (3) or RGBA (4), 8 or 16 bits per
// channel. PNG alpha is straight (unassociated): quantize with `quantizeImage(..., 'straight')`.
import { PNG } from 'pngjs';
import type { QuantizedImage } from './image.ts';

const COLOR_TYPE = { 1: 0, 3: 2, 4: 6 } as const;

/** `pick`: the channels of each pixel's RGBA to store: all four, RGB, or one as grey. */
export function encodePng(image: QuantizedImage, pick: readonly number[] = [0, 1, 2, 3]): Uint8Array {
  const samples = pick.length as 1 | 3 | 4;
  const colorType = COLOR_TYPE[samples];
  if (colorType === undefined) throw new Error(`a PNG holds 1, 3 or 4 channels, not ${pick.length}`);
  const count = image.width * image.height;
  const data = image.bitDepth === 16 ? new Uint16Array(count * samples) : new Uint8Array(count * samples);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < samples; c++) data[i * samples + c] = image.rgba[i * 4 + pick[c]!]!;
  }
  const png = new PNG({ width: image.width, height: image.height, bitDepth: image.bitDepth, colorType, inputColorType: colorType, inputHasAlpha: samples === 4 });
  // pngjs reads 16-bit input as native-endian 16-bit words and writes them big-endian.
  png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return PNG.sync.write(png, { colorType, bitDepth: image.bitDepth, inputColorType: colorType, inputHasAlpha: samples === 4 });
}

/** Decodes a PNG to 8-bit RGBA. */
export function decodePng(bytes: Uint8Array): QuantizedImage {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, rgba: new Uint8Array(png.data), bitDepth: 8 };
}
