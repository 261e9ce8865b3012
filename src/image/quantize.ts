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

// The dither's hash mixes one odd multiplier per coordinate, so a loop over a picture takes each
// product once per column, row and channel (quantizeImage) and only the finish per value.
const DITHER_X = 0x27d4eb2d;
const DITHER_Y = 0x165667b1;
const DITHER_CHANNEL = 0x9e3779b9;

/** A deterministic dither in [-amplitude, amplitude] for pixel (x, y), channel c. */
export function ditherAt(x: number, y: number, channel: number, amplitude: number): number {
  if (amplitude === 0) return 0;
  return ditherOfHash(Math.imul(x + 1, DITHER_X) ^ Math.imul(y + 1, DITHER_Y) ^ Math.imul(channel + 1, DITHER_CHANNEL), amplitude);
}

function ditherOfHash(mixed: number, amplitude: number): number {
  let h = mixed;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  h ^= h >>> 15;
  const unit = (h >>> 0) / 4294967296;
  return (unit * 2 - 1) * amplitude;
}

/** Math.round(v) (halves up), as V8 compiles Math.round here about twice as slowly as this:
 * floor(v + 0.5) is v's rounding or one more (when v + 0.5 itself rounded up, as for the largest
 * double below 0.5), and k - 0.5 is exact, so the test puts it back. NaN and ±Infinity pass through. */
export function roundHalfUp(v: number): number {
  const k = Math.floor(v + 0.5);
  return k - 0.5 > v ? k - 1 : k;
}

export function quantizeValue(value: number, q: QuantizeSettings, dither: number): number {
  if (q.one === 0) return value;
  const v = roundHalfUp(q.one * value + dither);
  return Math.min(q.max, Math.max(q.min, v));
}

/** How a file stores colour against alpha: premultiplied (TIFF ExtraSamples 1, EXR) or straight (PNG). */
export type AlphaStorage = 'associated' | 'straight';

/** Colour of a pixel after exposure, in the given alpha storage (alpha 0 keeps the colour as it is). */
export function exposedColour(value: number, alpha: number, exposure: ExposureSettings, storage: AlphaStorage): number {
  const exposed = expose(value, exposure);
  return storage === 'straight' && alpha > 0 ? exposed / alpha : exposed;
}

/** Exposure then quantization of every channel; 16-bit output when `max` exceeds 255. The loop
 * is exposedColour, quantizeValue and ditherAt with the settings and the dither's per-coordinate
 * products hoisted: called per value they took 0.2 s of CPU for a 1280 × 960 picture. */
export function quantizeImage(image: FloatImage, exposure: ExposureSettings, q: QuantizeSettings, storage: AlphaStorage = 'associated'): QuantizedImage {
  const bitDepth: 8 | 16 = q.max > 255 ? 16 : 8;
  const { width, height } = image;
  const source = image.rgba;
  const rgba = bitDepth === 16 ? new Uint16Array(width * height * 4) : new Uint8Array(width * height * 4);
  const { one, min, max } = q.one === 0 ? { one: 255, min: 0, max: 255 } : q;
  const amplitude = q.ditherAmplitude;
  const { gain, gamma } = exposure;
  const straight = storage === 'straight';
  const columns = Int32Array.from({ length: width }, (_, x) => Math.imul(x + 1, DITHER_X));
  const channels = Int32Array.from({ length: 4 }, (_, c) => Math.imul(c + 1, DITHER_CHANNEL));
  for (let y = 0, i = 0; y < height; y++) {
    const row = Math.imul(y + 1, DITHER_Y);
    for (let x = 0; x < width; x++, i += 4) {
      const alpha = source[i + 3]!;
      const pixel = columns[x]! ^ row;
      for (let c = 0; c < 4; c++) {
        let value = source[i + c]!;
        if (c < 3) {
          value *= gain;
          if (gamma !== 1 && value > 0) value = Math.pow(value, 1 / gamma);
          if (straight && alpha > 0) value /= alpha;
        }
        const dither = amplitude === 0 ? 0 : ditherOfHash(pixel ^ channels[c]!, amplitude);
        rgba[i + c] = Math.min(max, Math.max(min, roundHalfUp(one * value + dither)));
      }
    }
  }
  return { width, height, rgba, bitDepth };
}
