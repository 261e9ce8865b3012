// Exposure and Quantize (RI 3.2 "Exposure", "Quantize"): gain and gamma on the colour channels,
// then value = round(one * v + dither) clamped to [min, max]. The dither is a hash of the pixel
// and channel, so a frame is the same however its regions were scheduled. Pixels are associated
// (premultiplied) as rendered; formats that store straight alpha (PNG) get the colour divided by
// alpha after exposure and before quantization, so the dither and rounding act on the stored values.
import type { FloatImage, QuantizedImage } from './image.ts';

export interface ExposureSettings {
  gain: number;
  gamma: number;
}

export interface QuantizeSettings {
  one: number;
  min: number;
  max: number;
  ditherAmplitude: number;
}

/** Colour after exposure: (gain * c) ^ (1 / gamma). Alpha is not exposed. */
export function expose(value: number, exposure: ExposureSettings): number {
  const scaled = value * exposure.gain;
  if (exposure.gamma === 1 || scaled <= 0) return scaled;
  return Math.pow(scaled, 1 / exposure.gamma);
}

/** A deterministic dither in [-amplitude, amplitude] for pixel (x, y), channel c. */
export function ditherAt(x: number, y: number, channel: number, amplitude: number): number {
  if (amplitude === 0) return 0;
  let h = Math.imul(x + 1, 0x27d4eb2d) ^ Math.imul(y + 1, 0x165667b1) ^ Math.imul(channel + 1, 0x9e3779b9);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  h ^= h >>> 15;
  const unit = (h >>> 0) / 4294967296;
  return (unit * 2 - 1) * amplitude;
}

export function quantizeValue(value: number, q: QuantizeSettings, dither: number): number {
  if (q.one === 0) return value;
  const v = Math.round(q.one * value + dither);
  return Math.min(q.max, Math.max(q.min, v));
}

/** How a file stores colour against alpha: premultiplied (TIFF ExtraSamples 1, EXR) or straight (PNG). */
export type AlphaStorage = 'associated' | 'straight';

/** Colour of a pixel after exposure, in the given alpha storage (alpha 0 keeps the colour as it is). */
export function exposedColour(value: number, alpha: number, exposure: ExposureSettings, storage: AlphaStorage): number {
  const exposed = expose(value, exposure);
  return storage === 'straight' && alpha > 0 ? exposed / alpha : exposed;
}

/** Exposure then quantization of every channel; 16-bit output when `max` exceeds 255. */
export function quantizeImage(image: FloatImage, exposure: ExposureSettings, q: QuantizeSettings, storage: AlphaStorage = 'associated'): QuantizedImage {
  const bitDepth: 8 | 16 = q.max > 255 ? 16 : 8;
  const count = image.width * image.height;
  const rgba = bitDepth === 16 ? new Uint16Array(count * 4) : new Uint8Array(count * 4);
  const one = q.one === 0 ? { ...q, one: 255, min: 0, max: 255 } : q;
  for (let i = 0; i < count; i++) {
    const x = i % image.width;
    const y = Math.floor(i / image.width);
    const alpha = image.rgba[i * 4 + 3]!;
    for (let c = 0; c < 4; c++) {
      const linear = image.rgba[i * 4 + c]!;
      const value = c < 3 ? exposedColour(linear, alpha, exposure, storage) : linear;
      rgba[i * 4 + c] = quantizeValue(value, one, ditherAt(x, y, c, one.ditherAmplitude));
    }
  }
  return { width: image.width, height: image.height, rgba, bitDepth };
}
