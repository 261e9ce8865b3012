// PNG encoding and decoding through fast-png (pure JavaScript: the same code in Node and in the
// page). Grey (1 sample), RGB (3) or RGBA (4), 8 or 16 bits per channel. PNG alpha is straight
// (unassociated): quantize with `quantizeImage(..., 'straight')`.
import { decode, encode } from 'fast-png';
import type { QuantizedImage } from './image.ts';

/** `pick`: the channels of each pixel's RGBA to store: all four, RGB, or one as grey. */
export function encodePng(image: QuantizedImage, pick: readonly number[] = [0, 1, 2, 3]): Uint8Array {
  const samples = pick.length;
  if (samples !== 1 && samples !== 3 && samples !== 4) throw new Error(`a PNG holds 1, 3 or 4 channels, not ${samples}`);
  const count = image.width * image.height;
  const data = image.bitDepth === 16 ? new Uint16Array(count * samples) : new Uint8Array(count * samples);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < samples; c++) data[i * samples + c] = image.rgba[i * 4 + pick[c]!]!;
  }
  return encode({ width: image.width, height: image.height, data, depth: image.bitDepth, channels: samples });
}

/** Decodes a PNG to 8-bit RGBA (16-bit files keep their high bytes; grey is spread to RGB; no
 * alpha channel reads as opaque). */
export function decodePng(bytes: Uint8Array): QuantizedImage {
  const png = decode(bytes);
  if (png.palette) throw new Error('indexed-colour PNGs are not read here');
  const count = png.width * png.height;
  const rgba = new Uint8Array(count * 4);
  const shift = png.depth === 16 ? 8 : 0;
  const channels = png.channels;
  for (let i = 0; i < count; i++) {
    const at = (c: number): number => (png.data[i * channels + c]! >> shift) & 255;
    const grey = channels <= 2;
    rgba[i * 4] = at(0);
    rgba[i * 4 + 1] = grey ? at(0) : at(1);
    rgba[i * 4 + 2] = grey ? at(0) : at(2);
    rgba[i * 4 + 3] = channels === 2 ? at(1) : channels === 4 ? at(3) : 255;
  }
  return { width: png.width, height: png.height, rgba, bitDepth: 8 };
}
