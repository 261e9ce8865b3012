// Exposure, quantization with dither, the CPU pixel filters, PNG round trips and the float TIFF.
import { describe, expect, it } from 'vitest';
import { createFloatImage } from '../../src/image/image.ts';
import { PIXEL_FILTERS, pixelFilterCode, pixelFilterWeight } from '../../src/image/pixel-filters.ts';
import { decodePng, encodePng } from '../../src/image/png.ts';
import { ditherAt, expose, quantizeImage, quantizeValue } from '../../src/image/quantize.ts';
import { decodeFloatTiff, encodeFloatTiff } from '../../src/image/tiff.ts';

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
    expect(encodePng(q16).length).toBeGreaterThan(0);
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

describe('float TIFF (depth)', () => {
  it('writes baseline little-endian TIFF 6.0 with one 32-bit float sample per pixel, and reads it back exactly', () => {
    const data = Float32Array.from([4, 4.25, Infinity, 1e-7, -2.5, 3.4e38]);
    const bytes = encodeFloatTiff({ width: 3, height: 2, data });
    const view = new DataView(bytes.buffer);
    expect(String.fromCharCode(bytes[0]!, bytes[1]!)).toBe('II');
    expect(view.getUint16(2, true)).toBe(42);
    const ifd = view.getUint32(4, true);
    const count = view.getUint16(ifd, true);
    const tags = new Map<number, number>();
    for (let k = 0; k < count; k++) {
      const at = ifd + 2 + k * 12;
      const type = view.getUint16(at + 2, true);
      tags.set(view.getUint16(at, true), type === 3 ? view.getUint16(at + 8, true) : view.getUint32(at + 8, true));
    }
    // Tags ascend, as TIFF requires.
    const order = [...tags.keys()];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(tags.get(256)).toBe(3); // ImageWidth
    expect(tags.get(257)).toBe(2); // ImageLength
    expect(tags.get(258)).toBe(32); // BitsPerSample
    expect(tags.get(259)).toBe(1); // no compression
    expect(tags.get(277)).toBe(1); // SamplesPerPixel
    expect(tags.get(339)).toBe(3); // SampleFormat: IEEE float
    expect(tags.get(279)).toBe(24); // StripByteCounts
    const offset = tags.get(273)!;
    expect(bytes.length).toBe(offset + 24);
    expect(view.getFloat32(offset + 4, true)).toBe(4.25);
    const back = decodeFloatTiff(bytes);
    expect([back.width, back.height]).toEqual([3, 2]);
    expect(Array.from(back.data)).toEqual(Array.from(data));
  });

  it('rejects what it cannot hold or read', () => {
    expect(() => encodeFloatTiff({ width: 2, height: 2, data: new Float32Array(3) })).toThrow(/needs 4 values/);
    expect(() => decodeFloatTiff(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))).toThrow(/not a TIFF/);
  });
});
