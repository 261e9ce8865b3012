// What each Display driver writes for a picture, read back with independent readers: straight
// alpha in PNG, associated alpha in TIFF and EXR, the driver (not the name) choosing the format.
import { describe, expect, it } from 'vitest';
import { depthBeside, displayFiles, outputVariables, type DisplaySettings } from '../../src/image/display-files.ts';
import { createFloatImage, type FloatImage, type VariableImage } from '../../src/image/image.ts';
import type { Display } from '../../src/rib/scene.ts';
import { readExr, readPng, readTiff } from './independent-readers.ts';

const COLOUR = [1, 0.5, 0.25];

/** 3×1: an opaque pixel, a half-covered one (premultiplied), an empty one; depth 5 where covered. */
function edgePicture(): FloatImage {
  const image = createFloatImage(3, 1);
  image.rgba.set([...COLOUR, 1, ...COLOUR.map((c) => c * 0.5), 0.5, 0, 0, 0, 0]);
  image.depth.set([5, 5]);
  return image;
}

const EIGHT_BIT: DisplaySettings = {
  exposure: { gain: 1, gamma: 1 },
  quantize: { rgba: { one: 255, min: 0, max: 255, ditherAmplitude: 0 }, z: { one: 0, min: 0, max: 0, ditherAmplitude: 0 } },
};

function display(name: string, type: string, mode = 'rgba', params: Display['params'] = []): Display {
  return { name, type, mode, params };
}

function only(image: FloatImage, d: Display, settings = EIGHT_BIT) {
  const { files, warnings } = displayFiles(image, d, settings);
  expect(files).toHaveLength(1);
  return { file: files[0]!, warnings };
}

const magic = (bytes: Uint8Array): string => Array.from(bytes.slice(0, 4), (b) => b.toString(16).padStart(2, '0')).join('');
const PNG_MAGIC = '89504e47';
const TIFF_MAGIC = '4d4d002a'; // "MM", 42
const EXR_MAGIC = '762f3101';

describe('PNG: straight alpha', () => {
  it('stores the half-covered pixel with alpha 1/2 and its full colour, so it composites over white without a dark fringe', () => {
    const { file } = only(edgePicture(), display('edge.png', 'png'));
    const png = readPng(file.bytes);
    expect([png.width, png.height, png.channels, png.depth]).toEqual([3, 1, 4, 8]);
    expect(png.values.slice(4, 8)).toEqual([255, 128, 64, 128]);
    // Over white, any viewer computes c·a + 1·(1 − a): between the surface colour and white,
    // never darker than both (premultiplied colour read as straight gives 0.75 for red: a fringe).
    const a = png.values[7]! / 255;
    for (let c = 0; c < 3; c++) {
      const over = (png.values[4 + c]! / 255) * a + (1 - a);
      expect(over).toBeCloseTo(COLOUR[c]! * 0.5 + 0.5, 2);
      expect(over).toBeGreaterThanOrEqual(Math.min(COLOUR[c]!, 1) - 1e-9);
    }
    expect(png.values.slice(8)).toEqual([0, 0, 0, 0]);
  });

  it('divides by alpha after exposure and before quantization and dither', () => {
    const image = createFloatImage(1, 1);
    image.rgba.set([0.1, 0.1, 0.1, 0.2]); // straight 0.5
    const settings: DisplaySettings = { ...EIGHT_BIT, exposure: { gain: 2, gamma: 1 } };
    expect(readPng(only(image, display('x.png', 'png'), settings).file.bytes).values).toEqual([255, 255, 255, 51]);
    const dithered: DisplaySettings = { ...EIGHT_BIT, quantize: { ...EIGHT_BIT.quantize, rgba: { one: 255, min: 0, max: 255, ditherAmplitude: 0.5 } } };
    const red = readPng(only(image, display('x.png', 'png'), dithered).file.bytes).values[0]!;
    expect([127, 128]).toContain(red); // 127.5 ± 0.5: the dither moves the straight value
  });

  it('writes RGB (colour over black: no alpha to divide by) and grey alpha PNGs for modes "rgb" and "a"', () => {
    const rgb = readPng(only(edgePicture(), display('x.png', 'png', 'rgb')).file.bytes);
    expect(rgb.channels).toBe(3);
    expect(rgb.values).toEqual([255, 128, 64, 128, 64, 32, 0, 0, 0]);
    const alpha = readPng(only(edgePicture(), display('x.png', 'png', 'a')).file.bytes);
    expect([alpha.channels, ...alpha.values]).toEqual([1, 255, 128, 0]);
  });
});

describe('TIFF: associated alpha, samples following Quantize', () => {
  it('8-bit with ExtraSamples = 1 and premultiplied colour', async () => {
    const { file } = only(edgePicture(), display('edge.tif', 'file'));
    expect(file.contents).toBe('8-bit RGBA TIFF');
    const tiff = await readTiff(file.bytes);
    expect(tiff).toMatchObject({ width: 3, height: 1, bitsPerSample: 8, samples: 4, extraSamples: 1 });
    expect(tiff.values).toEqual([255, 128, 64, 255, 128, 64, 32, 128, 0, 0, 0, 0]);
  });

  it('16-bit when Quantize max passes 255, float when Quantize one is 0', async () => {
    const sixteen: DisplaySettings = { ...EIGHT_BIT, quantize: { ...EIGHT_BIT.quantize, rgba: { one: 65535, min: 0, max: 65535, ditherAmplitude: 0 } } };
    const t16 = await readTiff(only(edgePicture(), display('e.tif', 'tiff', 'rgb'), sixteen).file.bytes);
    expect(t16).toMatchObject({ bitsPerSample: 16, samples: 3, extraSamples: undefined });
    expect(t16.values).toEqual([65535, 32768, 16384, 32768, 16384, 8192, 0, 0, 0]);
    const float: DisplaySettings = { ...EIGHT_BIT, quantize: { ...EIGHT_BIT.quantize, rgba: { one: 0, min: 0, max: 0, ditherAmplitude: 0 } } };
    const f = await readTiff(only(edgePicture(), display('e.tif', 'file'), float).file.bytes);
    expect(f).toMatchObject({ bitsPerSample: 32, sampleFormat: 3, extraSamples: 1 });
    expect(f.values).toEqual([1, 0.5, 0.25, 1, 0.5, 0.25, 0.125, 0.5, 0, 0, 0, 0]);
  });
});

describe('OpenEXR', () => {
  it('half by default, float with "exrpixeltype" "float", colour associated', () => {
    const half = readExr(only(edgePicture(), display('e.exr', 'openexr')).file.bytes);
    expect(half.pixelTypes).toEqual({ R: 1, G: 1, B: 1, A: 1 });
    expect(half.values).toEqual([1, 0.5, 0.25, 1, 0.5, 0.25, 0.125, 0.5, 0, 0, 0, 0]);
    const image = edgePicture();
    image.rgba[0] = 0.1; // not a half float: only the float file holds it exactly
    const float = readExr(only(image, display('e.exr', 'exr', 'rgba', [{ name: 'exrpixeltype', values: ['float'], type: 'string', storage: 'uniform', arrayLength: null, inferred: false }])).file.bytes);
    expect(float.pixelTypes).toEqual({ R: 2, G: 2, B: 2, A: 2 });
    expect(float.values[0]).toBe(Math.fround(0.1));
    expect(readExr(only(image, display('e.exr', 'exr')).file.bytes).values[0]).not.toBe(Math.fround(0.1));
  });

  it('stores the top row first', () => {
    const image = createFloatImage(1, 2);
    image.rgba.set([1, 0, 0, 1, 0, 0, 1, 1]);
    expect(readExr(only(image, display('e.exr', 'exr')).file.bytes).values).toEqual([1, 0, 0, 1, 0, 0, 1, 1]);
  });
});

describe('output variables', () => {
  const normal = (): VariableImage => {
    const image = createFloatImage(3, 1);
    image.rgba.set([0.5, -0.25, -1, 1, 0.25, -0.125, -0.5, 0.5, 0, 0, 0, 0]);
    return { components: 3, image };
  };
  const float: DisplaySettings = { ...EIGHT_BIT, exposure: { gain: 2, gamma: 2 }, quantize: { ...EIGHT_BIT.quantize, rgba: { one: 0, min: 0, max: 0, ditherAmplitude: 0 } } };

  it('a mode naming a variable writes its values, without alpha and without exposure', async () => {
    const variables = new Map([['N', normal()], ['s', { components: 1 as const, image: normal().image }]]);
    const n = await readTiff(displayFiles(edgePicture(), display('n.tif', 'file', 'N'), float, variables).files[0]!.bytes);
    expect([n.samples, n.extraSamples]).toEqual([3, undefined]);
    expect(n.values).toEqual([0.5, -0.25, -1, 0.25, -0.125, -0.5, 0, 0, 0]);
    const s = await readTiff(displayFiles(edgePicture(), display('s.tif', 'file', 'varying float s'), float, variables).files[0]!.bytes);
    expect([s.samples, ...s.values]).toEqual([1, 0.5, 0.25, 0]);
    expect(outputVariables([display('a', 'file', 'N'), display('b', 'file', 'color Ci'), display('c', 'file', 'rgba'), display('d', 'zfile', 'z'), display('e', 'png', 'varying float s')])).toEqual([{ name: 'N' }, { name: 's', type: 'float' }]);
  });

  it('"Ci" is the colour; a variable that was not rendered is a warning, not a file', async () => {
    const ci = await readTiff(only(edgePicture(), display('c.tif', 'file', 'Ci')).file.bytes);
    expect(ci.values).toEqual([255, 128, 64, 128, 64, 32, 0, 0, 0]);
    expect(displayFiles(edgePicture(), display('f.tif', 'file', 'color foo'), EIGHT_BIT)).toEqual({
      files: [], warnings: ['Display "f.tif" "file" "color foo": output variable "foo" was not rendered; nothing written'],
    });
  });
});

describe('drivers and modes', () => {
  it('the driver decides the format, never the name', () => {
    expect(magic(only(edgePicture(), display('x.tif', 'png')).file.bytes)).toBe(PNG_MAGIC);
    expect(magic(only(edgePicture(), display('x.png', 'file')).file.bytes)).toBe(TIFF_MAGIC);
    expect(magic(only(edgePicture(), display('x.png', 'tiff')).file.bytes)).toBe(TIFF_MAGIC);
    expect(magic(only(edgePicture(), display('x.tif', 'exr')).file.bytes)).toBe(EXR_MAGIC);
  });

  it('"zfile" and "shadow" write depth as a float TIFF; a colour mode with z puts depth beside the picture', async () => {
    for (const type of ['zfile', 'shadow']) {
      const { file } = only(edgePicture(), display('depth.z', type, 'z'));
      expect(file.name).toBe('depth.z');
      const tiff = await readTiff(file.bytes);
      expect(tiff).toMatchObject({ bitsPerSample: 32, samples: 1, sampleFormat: 3 });
      expect(tiff.values).toEqual([5, 5, Infinity]);
    }
    const both = displayFiles(edgePicture(), display('pic.png', 'png', 'rgbaz'), EIGHT_BIT).files;
    expect(both.map((f) => f.name)).toEqual(['pic.png', 'pic.z.tif']);
    expect(depthBeside('dir.v2/pic')).toBe('dir.v2/pic.z.tif');
    expect(only(edgePicture(), display('z.tif', 'file', 'z')).file.name).toBe('z.tif');
  });

  it('"framebuffer" writes a PNG named after the display; "null" writes nothing', () => {
    const { file } = only(edgePicture(), display('sphere.tif', 'framebuffer'));
    expect(file.name).toBe('sphere.png');
    expect(magic(file.bytes)).toBe(PNG_MAGIC);
    expect(displayFiles(edgePicture(), display('x', 'null'), EIGHT_BIT)).toEqual({ files: [], warnings: [] });
  });

  it('warns about what it cannot do as asked instead of dropping it silently', () => {
    const unknown = displayFiles(edgePicture(), display('x.tif', 'mplay'), EIGHT_BIT);
    expect(unknown.warnings[0]).toMatch(/unknown display driver "mplay"; written as a TIFF/);
    expect(magic(unknown.files[0]!.bytes)).toBe(TIFF_MAGIC);
    const quantizedZ: DisplaySettings = { ...EIGHT_BIT, quantize: { ...EIGHT_BIT.quantize, z: { one: 255, min: 0, max: 255, ditherAmplitude: 0 } } };
    expect(displayFiles(edgePicture(), display('d.z', 'zfile', 'z'), quantizedZ).warnings[0]).toMatch(/Quantize "z" is not applied/);
  });
});
