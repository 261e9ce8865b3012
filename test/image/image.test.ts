// Exposure, quantization with dither, the CPU pixel filters, PNG round trips and TIFF output.
import { describe, expect, it } from 'vitest';
import { createFloatImage } from '../../src/image/image.ts';
import { PIXEL_FILTERS, pixelFilterCode, pixelFilterWeight } from '../../src/image/pixel-filters.ts';
import { decodePng, encodePng } from '../../src/image/png.ts';
import { ditherAt, expose, quantizeImage, quantizeValue } from '../../src/image/quantize.ts';
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
