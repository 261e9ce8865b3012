// Exposure, quantization with dither, the CPU pixel filters, PNG round trips and TIFF output.
import { describe, expect, it } from 'vitest';
import { createFloatImage } from '../../src/image/image.ts';
import { PIXEL_FILTERS, pixelFilterCode, pixelFilterWeight } from '../../src/image/pixel-filters.ts';
import { decodePng, encodePng } from '../../src/image/png.ts';
import { ditherAt, expose, quantizeImage, quantizeValue, roundHalfUp } from '../../src/image/quantize.ts';
import { encodeDepthTiff, encodeTiff } from '../../src/image/tiff.ts';
import { readPng, readTiff } from './independent-readers.ts';

describe('exposure and quantize', () => {
  it('applies gain then gamma to colour', () => {
    expect(expose(0.25, { gain: 2, gamma: 1 })).toBeCloseTo(0.5);
    expect(expose(0.25, { gain: 1, gamma: 2 })).toBeCloseTo(0.5);
  });

  it('rounds, clamps and dithers within the amplitude', () => {
    const q = { one: 255, min: 0, max: 255, ditherAmplitude: 0.5 };
    expect(quantizeValue(0.5, q, 0)).toBe(128);
    expect(quantizeValue(2, q, 0)).toBe(255);
    expect(quantizeValue(-1, q, 0)).toBe(0);
    for (let x = 0; x < 50; x++) expect(Math.abs(ditherAt(x, 3, 1, 0.5))).toBeLessThanOrEqual(0.5);
    expect(ditherAt(1, 2, 0, 0.5)).toBe(ditherAt(1, 2, 0, 0.5));
  });

  it('dither averages out: a 0.5/255 field quantizes to a mix of 0 and 1', () => {
    const image = createFloatImage(32, 32);
    image.rgba.fill(0.5 / 255);
    const q = quantizeImage(image, { gain: 1, gamma: 1 }, { one: 255, min: 0, max: 255, ditherAmplitude: 0.5 });
    const reds = Array.from(q.rgba.filter((_, i) => i % 4 === 0));
    const mean = reds.reduce((a, b) => a + b, 0) / reds.length;
    expect(mean).toBeGreaterThan(0.3);
    expect(mean).toBeLessThan(0.7);
  });

  it('rounds as Math.round does, halves up, at the doubles where floor(v + 0.5) does not', () => {
    const hard = [0.49999999999999994, -0.49999999999999994, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 254.5, 65534.5, -0.25,
      2 ** 52, 2 ** 52 + 1, -(2 ** 52) - 1, 2 ** 53 + 2, 4503599627370495.5, -4503599627370495.5, 1e300, -1e300, Infinity, -Infinity];
    for (const v of hard) expect(roundHalfUp(v) === Math.round(v), `${v}`).toBe(true);
    expect(roundHalfUp(NaN)).toBeNaN();
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
    for (let k = 0; k < 100_000; k++) {
      const v = (random() - 0.5) * 2 ** (random() * 70 - 10);
      const half = Math.floor(v) + 0.5;
      for (const x of [v, half, Math.floor(v)]) if (roundHalfUp(x) !== Math.round(x)) expect(roundHalfUp(x), `${x}`).toBe(Math.round(x));
    }
  });

  it('quantizes a picture as its definition does value by value: exposure, alpha storage, dither, rounding, clamping', () => {
    const [width, height] = [37, 23];
    const image = createFloatImage(width, height);
    let seed = 3;
    const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
    for (let i = 0; i < image.rgba.length; i++) image.rgba[i] = random() * 1.4 - 0.2;
    image.rgba.set([NaN, Infinity, -Infinity, 0.5, 0.5 / 255, 1.5 / 255, 0, 0]);
    const cases = [
      { exposure: { gain: 1, gamma: 1 }, q: { one: 255, min: 0, max: 255, ditherAmplitude: 0.5 }, storage: 'associated' as const },
      { exposure: { gain: 1.7, gamma: 2.2 }, q: { one: 255, min: 0, max: 255, ditherAmplitude: 0.5 }, storage: 'straight' as const },
      { exposure: { gain: 0.8, gamma: 1 }, q: { one: 65535, min: 0, max: 65535, ditherAmplitude: 0.5 }, storage: 'associated' as const },
      { exposure: { gain: 1, gamma: 1 }, q: { one: 200, min: 10, max: 250, ditherAmplitude: 0 }, storage: 'straight' as const },
      { exposure: { gain: 1, gamma: 1 }, q: { one: 0, min: 0, max: 0, ditherAmplitude: 0.25 }, storage: 'associated' as const },
    ];
    for (const { exposure, q, storage } of cases) {
      const { one, min, max } = q.one === 0 ? { one: 255, min: 0, max: 255 } : q;
      const expected = Array.from({ length: width * height * 4 }, (_, k) => {
        const [i, c] = [Math.floor(k / 4), k % 4];
        const alpha = image.rgba[i * 4 + 3]!;
        let value = image.rgba[k]!;
        if (c < 3) {
          value = expose(value, exposure);
          if (storage === 'straight' && alpha > 0) value /= alpha;
        }
        return Math.min(max, Math.max(min, Math.round(one * value + ditherAt(i % width, Math.floor(i / width), c, q.ditherAmplitude))));
      });
      const quantized = quantizeImage(image, exposure, q, storage);
      expect(quantized.bitDepth).toBe(q.max > 255 ? 16 : 8);
      expect(Array.from(quantized.rgba)).toEqual(Array.from((q.max > 255 ? Uint16Array : Uint8Array).from(expected)));
    }
  });

  it('writes 16-bit PNGs when Quantize asks for more than 8 bits, and 8-bit PNGs round-trip', () => {
    const image = createFloatImage(3, 2);
    image.rgba.set([1, 0.5, 0, 1]);
    const q8 = quantizeImage(image, { gain: 1, gamma: 1 }, { one: 255, min: 0, max: 255, ditherAmplitude: 0 });
    expect(Array.from(decodePng(encodePng(q8)).rgba)).toEqual(Array.from(q8.rgba));
    const q16 = quantizeImage(image, { gain: 1, gamma: 1 }, { one: 65535, min: 0, max: 65535, ditherAmplitude: 0 });
    expect(q16.bitDepth).toBe(16);
    expect(q16.rgba[1]).toBe(32768);
    const back16 = readPng(encodePng(q16));
    expect(back16.depth).toBe(16);
    expect(back16.values.slice(0, 4)).toEqual([65535, 32768, 0, 65535]);
  });
});

describe('pixel filters', () => {
  it('knows the RI filters and nothing else', () => {
    expect(PIXEL_FILTERS.map((f) => pixelFilterCode(f))).toEqual([0, 1, 2, 3, 4]);
    expect(pixelFilterCode('mitchell')).toBeUndefined();
  });

  it('peak at the centre, zero outside the width', () => {
    for (const f of PIXEL_FILTERS) {
      expect(pixelFilterWeight(f, 0, 0, 2, 2)).toBeCloseTo(1);
      expect(pixelFilterWeight(f, 1.01, 0, 2, 2)).toBe(0);
      expect(pixelFilterWeight(f, 0, -1.6, 3, 3)).toBe(0);
    }
    expect(pixelFilterWeight('triangle', 0.5, 0, 2, 2)).toBeCloseTo(0.5);
    expect(pixelFilterWeight('gaussian', 1, 0, 2, 2)).toBeCloseTo(Math.exp(-2));
    expect(pixelFilterWeight('catmull-rom', 1, 0, 4, 4)).toBeCloseTo(0);
    expect(pixelFilterWeight('catmull-rom', 1.5, 0, 4, 4)).toBeLessThan(0);
  });
});

describe('TIFF', () => {
  it('writes 8-bit, 16-bit and float samples that an independent reader gets back exactly', async () => {
    const u8 = await readTiff(encodeTiff({ width: 2, height: 1, samples: 4, data: Uint8Array.from([255, 128, 64, 255, 10, 20, 30, 128]) }));
    expect(u8).toMatchObject({ width: 2, height: 1, bitsPerSample: 8, samples: 4, sampleFormat: 1, extraSamples: 1 });
    expect(u8.values).toEqual([255, 128, 64, 255, 10, 20, 30, 128]);
    const u16 = await readTiff(encodeTiff({ width: 1, height: 2, samples: 3, data: Uint16Array.from([65535, 32768, 1, 0, 258, 513]) }));
    expect(u16).toMatchObject({ bitsPerSample: 16, samples: 3, extraSamples: undefined });
    expect(u16.values).toEqual([65535, 32768, 1, 0, 258, 513]);
    const depth = Float32Array.from([4, 4.25, Infinity, 1e-7, -2.5, 3.4e38]);
    const f32 = await readTiff(encodeDepthTiff(3, 2, depth));
    expect(f32).toMatchObject({ width: 3, height: 2, bitsPerSample: 32, samples: 1, sampleFormat: 3 });
    expect(f32.values).toEqual(Array.from(depth));
  });

  it('rejects data that does not fit the size', () => {
    expect(() => encodeDepthTiff(2, 2, new Float32Array(3))).toThrow(/needs 4 values/);
  });
});
