// OpenEXR output through hdrify: a scanline file with R, G, B and A channels, colour associated
// with alpha as OpenEXR defines it. hdrify ties the pixel type to the compression: "half" is
// written ZIP-compressed with 16-bit half floats, "float" uncompressed with 32-bit floats.
import { writeExr } from 'hdrify';

export type ExrPixelType = 'half' | 'float';

/** `rgba`: 4 floats per pixel, rows top to bottom, colour premultiplied by alpha. */
export function encodeExr(width: number, height: number, rgba: Float32Array, pixelType: ExrPixelType): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error(`a ${width}×${height} EXR needs ${width * height * 4} values, not ${rgba.length}`);
  return writeExr(
    { width, height, data: rgba.slice(), linearColorSpace: 'linear-rec709' },
    { compression: pixelType === 'half' ? 'zip' : 'none', sanitize: false },
  );
}
