// PNG encoding and decoding (Node: pngjs). RGBA, 8 or 16 bits per channel.
import { PNG } from 'pngjs';
import type { QuantizedImage } from './image.ts';

export function encodePng(image: QuantizedImage): Uint8Array {
  const png = new PNG({ width: image.width, height: image.height, bitDepth: image.bitDepth, colorType: 6, inputColorType: 6 });
  if (image.bitDepth === 16) {
    // pngjs takes 16-bit samples big-endian in its data buffer.
    const data = Buffer.alloc(image.rgba.length * 2);
    for (let i = 0; i < image.rgba.length; i++) data.writeUInt16BE(image.rgba[i]!, i * 2);
    png.data = data;
  } else {
    png.data = Buffer.from(image.rgba.buffer, image.rgba.byteOffset, image.rgba.byteLength);
  }
  return PNG.sync.write(png, { colorType: 6, bitDepth: image.bitDepth, inputColorType: 6 });
}

/** Decodes a PNG to 8-bit RGBA. */
export function decodePng(bytes: Uint8Array): QuantizedImage {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height, rgba: new Uint8Array(png.data), bitDepth: 8 };
}
