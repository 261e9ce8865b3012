// Imager shaders on the GPU (RI 3.2 section 12.5): the stage alone on images with known pixels, then
// through renderFrame with the Imager request of a RIB. Expected values come from the spec's
// definitions: P is the pixel centre in raster space (z = 0), Ci the premultiplied colour, Oi and
// alpha the pixel's opacity; the standard background imager gives Ci + (1 - alpha) * bgcolor, alpha 1.
import { describe, expect, it } from 'vitest';
import { createFloatImage, type FloatImage } from '../../src/image/image.ts';
import { quantizeImage } from '../../src/image/quantize.ts';
import { frameCamera } from '../../src/reyes/camera.ts';
import { prepareFrame, renderFrame } from '../../src/reyes/render-frame.ts';
import { RslShadingProvider, type ShaderLookup } from '../../src/reyes/shading/rsl-provider.ts';
import type { ShadingKernelProvider } from '../../src/reyes/shading/shading-kernel.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { applyImager, imagerTileSize, type ImagerInstance } from '../../src/reyes/stages/imager.ts';
import type { Frame } from '../../src/rib/scene.ts';
import { useGpuRuntime, withBindingLimit } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel } from './render-helpers.ts';

const SOURCES: Record<string, string> = {
  rasterpos: 'imager rasterpos()\n{\n  Ci = color(xcomp(P), ycomp(P), zcomp(P));\n  Oi = 1;\n}\n',
  // P over the resolution option() reports: 1 at the right and bottom edges whatever --res says.
  format: 'imager format()\n{\n  float res[3];\n  option("Format", res);\n  Ci = color(xcomp(P) / res[0], ycomp(P) / res[1], 0);\n  Oi = 1;\n}\n',
  // Reads the inputs back (alpha, Oi) and sets only Oi: the picture's alpha is then the mean of Oi.
  inputs: 'imager inputs()\n{\n  Ci = color(alpha, comp(Oi, 1), comp(Ci, 2));\n  Oi = color(0, 0.5, 1);\n}\n',
  // Built-ins that make sense on pixels: colour spaces, option(), the frame globals, noise, random.
  builtins: `imager builtins()
{
  float res[3];
  option("Format", res);
  color red = ctransform("hsv", "rgb", color(0, 1, 1));
  float n = float noise(P * 0.37);
  float r = random();
  float inRange = (n >= 0 && n <= 1 ? 10 : 0) + (r >= 0 && r < 1 ? 100 : 0);
  Ci = color(comp(red, 0) + comp(red, 1) + inRange, res[0] * 10 + res[1], ncomps * 100 + time + dtime);
  alpha = smoothstep(0, 1, 0.5) + clamp(mod(xcomp(P), 1), 0, 1);
}
`,
  // The camera's position in a scene coordinate system (looked up by name at run time).
  coordsys: 'imager coordsys(string space = "myspace")\n{\n  point p = transform(space, point(0, 0, 0));\n  Ci = color(xcomp(p), ycomp(p), zcomp(p));\n  Oi = 1;\n}\n',
  lit: 'imager lit()\n{\n  illuminance(P) {\n    Ci += Cl;\n  }\n}\n',
};

const lookup: ShaderLookup = (name) => (SOURCES[name] ? { file: `${name}.sl`, text: SOURCES[name] } : undefined);

/** A frame with `Format w h`, for its options and spaces. */
async function formatFrame(width: number, height: number, imager = ''): Promise<Frame> {
  return frameFromText(`Format ${width} ${height} 1\n${imager}\nWorldBegin\nWorldEnd\n`);
}

function imagerInstance(provider: RslShadingProvider, frame: Frame, warnings: string[] = []): ImagerInstance {
  const instance = provider.imager({
    imager: frame.options.imager!, options: frame.options, spaces: kernelSpaces(frameCamera(frame)), maxVertices: 256,
    warn: (message) => void warnings.push(message),
  });
  if (!instance) throw new Error(`no imager: ${warnings.join('\n')}`);
  return instance;
}

/** Equal within float32 rounding of a few operations. */
function expectClose(actual: number[], expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, k) => expect(v, `channel ${k} of [${actual.join(', ')}]`).toBeCloseTo(expected[k]!, 6));
}

function imageOf(width: number, height: number, pixels: number[][]): FloatImage {
  const image = createFloatImage(width, height);
  pixels.forEach((p, k) => image.rgba.set(p, k * 4));
  return image;
}

describe('imager stage', () => {
  const gpu = useGpuRuntime();
  const provider = new RslShadingProvider({ lookup });

  it('gives P as the pixel centre in raster space, over partial tiles and several batches', async () => {
    const [tileWidth, tileHeight] = imagerTileSize(256);
    expect([tileWidth, tileHeight]).toEqual([16, 16]);
    const width = 2 * tileWidth + 5;
    const height = tileHeight + 5;
    const frame = await formatFrame(100, 100, 'Imager "rasterpos"');
    const instance = imagerInstance(provider, frame);
    const image = createFloatImage(width, height);
    // A budget of seven tile records (three tiles with their read-back copies) cuts the six tiles into batches.
    const runtime = gpu();
    const budget = runtime.allocator.budget;
    runtime.allocator.trim();
    runtime.allocator.setBudget(7 * instance.kernel.layout.recordFloats * 4);
    try {
      await applyImager(runtime, image, 7, 11, instance, kernelSpaces(frameCamera(frame)));
    } finally {
      runtime.allocator.trim();
      runtime.allocator.setBudget(budget);
    }
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) expect(pixel(image, x, y), `pixel ${x}, ${y}`).toEqual([7 + x + 0.5, 11 + y + 0.5, 0, 1]);
    }
  });

  it('keeps every tile binding within the device\'s storage binding limit', async () => {
    const frame = await formatFrame(100, 100, 'Imager "rasterpos"');
    const instance = imagerInstance(provider, frame);
    const runtime = gpu();
    // The same device, reporting room for two tile records in one binding.
    const limited = withBindingLimit(runtime, 2 * instance.kernel.layout.recordFloats * 4);
    const image = createFloatImage(40, 20);
    await applyImager(limited, image, 0, 0, instance, kernelSpaces(frameCamera(frame)));
    limited.allocator.trim();
    expect(pixel(image, 39, 19)).toEqual([39.5, 19.5, 0, 1]);
    expect(pixel(image, 17, 3)).toEqual([17.5, 3.5, 0, 1]);
  });

  it('runs the built-ins that make sense on pixels', async () => {
    const frame = await formatFrame(64, 48, 'Imager "builtins"');
    const image = createFloatImage(3, 2);
    await applyImager(gpu(), image, 0, 0, imagerInstance(provider, frame), kernelSpaces(frameCamera(frame)));
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 3; x++) expect(pixel(image, x, y)).toEqual([111, 688, 300, 1]);
    }
  });

  it('fills uncovered pixels with the background, keeps covered ones and blends partial ones', async () => {
    const frame = await formatFrame(4, 1, 'Imager "background" "color bgcolor" [0.2 0.4 0.8]');
    const covered = [0.4, 0.3, 0.2, 1];
    const half = [0.2, 0.1, 0.05, 0.5];
    const image = imageOf(4, 1, [covered, [0, 0, 0, 0], half, [0.1, 0.1, 0.1, 0.25]]);
    await applyImager(gpu(), image, 0, 0, imagerInstance(provider, frame), kernelSpaces(frameCamera(frame)));
    expect(pixel(image, 0, 0)).toEqual(covered.map(Math.fround));
    expect(pixel(image, 1, 0)).toEqual([0.2, 0.4, 0.8, 1].map(Math.fround));
    expectClose(pixel(image, 2, 0), [0.2 + 0.5 * 0.2, 0.1 + 0.5 * 0.4, 0.05 + 0.5 * 0.8, 1]);
    expectClose(pixel(image, 3, 0), [0.1 + 0.75 * 0.2, 0.1 + 0.75 * 0.4, 0.1 + 0.75 * 0.8, 1]);
  });

  it('multiplies the background imager\'s two colours, as Aqsis does', async () => {
    const frame = await formatFrame(1, 1, 'Imager "background" "color bgcolor" [0.5 1 1] "color background" [1 0.5 0.25]');
    const image = imageOf(1, 1, [[0, 0, 0, 0]]);
    await applyImager(gpu(), image, 0, 0, imagerInstance(provider, frame), kernelSpaces(frameCamera(frame)));
    expect(pixel(image, 0, 0)).toEqual([0.5, 0.5, 0.25, 1]);
  });

  it('gives Oi = alpha as input and takes the picture\'s alpha from Oi when the imager sets only Oi', async () => {
    const frame = await formatFrame(2, 1, 'Imager "inputs"');
    const image = imageOf(2, 1, [[0.1, 0.2, 0.3, 0.75], [0, 0, 0, 0]]);
    const instance = imagerInstance(provider, frame);
    expect(instance.kernel.writesAlpha).toBe(false);
    await applyImager(gpu(), image, 0, 0, instance, kernelSpaces(frameCamera(frame)));
    expect(pixel(image, 0, 0)).toEqual([0.75, 0.75, Math.fround(0.3), 0.5]);
    expect(pixel(image, 1, 0)).toEqual([0, 0, 0, 0.5]);
  });
});

/** Red square over the left half (x < 0.3 of an 8 × 4 screen: the edge cuts pixel column 3). */
function squareScene(imager: string, extra = ''): string {
  return `Format 8 4 1
PixelSamples 4 4
PixelFilter "box" 1 1
${extra}
Projection "orthographic"
ScreenWindow -4 4 -2 2
${imager}
WorldBegin
Translate 0 0 5
Surface "constant"
Color [1 0 0]
Polygon "P" [-4 -2 0  -0.5 -2 0  -0.5 2 0  -4 2 0]
WorldEnd`;
}

describe('imager in the pipeline', () => {
  const gpu = useGpuRuntime();

  it('runs the RIB\'s Imager with its parameters on every pixel after filtering', async () => {
    const plain = await renderFrame(gpu(), await frameFromText(squareScene('')));
    const imaged = await renderFrame(gpu(), await frameFromText(squareScene('Imager "background" "bgcolor" [0 0.5 1]')));
    expect(imaged.warnings).toEqual([]);
    // Its time is reported as a stage of its own (GPU time from timestamp queries, as for the others).
    expect(imaged.stats.stageMs.imager).toBeGreaterThan(0);
    expect(imaged.stats.stageGpuMs?.imager).toBeGreaterThan(0);
    expect(plain.stats.stageMs.imager).toBe(0);
    const bg = [0, 0.5, 1];
    let partial = 0;
    for (let k = 0; k < 8 * 4; k++) {
      const before = Array.from(plain.image.rgba.subarray(k * 4, k * 4 + 4));
      const after = Array.from(imaged.image.rgba.subarray(k * 4, k * 4 + 4));
      const a = before[3]!;
      if (a > 0 && a < 1) partial++;
      after.slice(0, 3).forEach((c, i) => expect(c).toBeCloseTo(before[i]! + (1 - a) * bg[i]!, 6));
      expect(after[3]).toBe(1);
    }
    // Column 3 is half covered; columns 0-2 covered and 4-7 empty.
    expect(partial).toBe(4);
    expect(pixel(imaged.image, 0, 0)).toEqual([1, 0, 0, 1]);
    expect(pixel(imaged.image, 7, 3)).toEqual([0, 0.5, 1, 1]);
  });

  it('runs before exposure and quantization, which still apply', async () => {
    const frame = await frameFromText(squareScene('Imager "background" "bgcolor" [0.2 0.2 0.2]', 'Exposure 2 2\nQuantize "rgba" 255 0 255 0'));
    const rendered = await renderFrame(gpu(), frame);
    expect(pixel(rendered.image, 7, 0)).toEqual([0.2, 0.2, 0.2, 1].map(Math.fround));
    const quantized = quantizeImage(rendered.image, frame.options.exposure, frame.options.quantize.rgba);
    // (2 · 0.2)^(1/2) · 255 = 161.3
    expect(Array.from(quantized.rgba.subarray(7 * 4, 8 * 4))).toEqual([161, 161, 161, 255]);
  });

  it('warns at the Imager request and runs no imager when the shader is missing or does not compile', async () => {
    const plain = await renderFrame(gpu(), await frameFromText(squareScene('')));
    const missing = await renderFrame(gpu(), await frameFromText(squareScene('Imager "nosuchimager"')));
    expect(missing.warnings.join('\n')).toMatch(/:7:1: imager shader "nosuchimager" not found/);
    expect(missing.image.rgba).toEqual(plain.image.rgba);
    const shading = new RslShadingProvider({ lookup }).provide;
    const broken = await renderFrame(gpu(), await frameFromText(squareScene('Imager "lit"')), { shading });
    const message = broken.warnings.join('\n');
    expect(message).toMatch(/:7:1: imager shader "lit" does not compile/);
    expect(message).toContain('lit.sl:3:3: error: illuminance is only allowed in surface and volume shaders');
    expect(broken.image.rgba).toEqual(plain.image.rgba);
  });

  it('warns when the shading provider compiles no imagers', async () => {
    const standard = new RslShadingProvider();
    const shading: ShadingKernelProvider = (request) => standard.provide(request);
    const rendered = await renderFrame(gpu(), await frameFromText(squareScene('Imager "background"')), { shading });
    expect(rendered.warnings).toEqual(['imager shader "background" is left out: the shading provider compiles no imagers']);
    expect(pixel(rendered.image, 7, 0)).toEqual([0, 0, 0, 0]);
  });

  it('runs on an image with nothing in it', async () => {
    const frame = await frameFromText('Format 3 2 1\nImager "background" "bgcolor" [1 1 0]\nWorldBegin\nWorldEnd\n');
    const rendered = await renderFrame(gpu(), frame);
    for (let k = 0; k < 6; k++) expect(Array.from(rendered.image.rgba.subarray(k * 4, k * 4 + 4))).toEqual([1, 1, 0, 1]);
  });

  it('places P in the whole image\'s raster space under a CropWindow', async () => {
    const shading = new RslShadingProvider({ lookup }).provide;
    const frame = await frameFromText(squareScene('Imager "rasterpos"', 'CropWindow 0.5 1 0.5 1'));
    const rendered = await renderFrame(gpu(), frame, { shading });
    expect([rendered.image.width, rendered.image.height]).toEqual([4, 2]);
    expect(pixel(rendered.image, 0, 0)).toEqual([4.5, 2.5, 0, 1]);
    expect(pixel(rendered.image, 3, 1)).toEqual([7.5, 3.5, 0, 1]);
  });

  it('finds the scene\'s coordinate systems by name', async () => {
    const shading = new RslShadingProvider({ lookup }).provide;
    const frame = await frameFromText('Format 2 1 1\nImager "coordsys"\nWorldBegin\nTranslate 1 2 3\nCoordinateSystem "myspace"\nWorldEnd\n');
    const rendered = await renderFrame(gpu(), frame, { shading });
    expect(rendered.warnings).toEqual([]);
    expectClose(pixel(rendered.image, 1, 0), [-1, -2, -3, 1]);
  });

  it('packs RIB parameters in the imager\'s space like other shaders (a colour needs no transform)', async () => {
    const frame = await frameFromText(squareScene('Imager "background" "bgcolor" [0.25 0.5 0.75]'));
    const warnings: string[] = [];
    const instance = new RslShadingProvider().imager({
      imager: frame.options.imager!, options: frame.options, spaces: kernelSpaces(frameCamera(frame)), maxVertices: 256, warn: (m) => void warnings.push(m),
    })!;
    expect(Array.from(instance.params.subarray(0, 6))).toEqual([0.25, 0.5, 0.75, 1, 1, 1]);
    const unknown = { ...frame.options.imager!, params: [{ ...frame.options.imager!.params[0]!, name: 'bgcolour' }] };
    new RslShadingProvider().imager({
      imager: unknown, options: frame.options, spaces: kernelSpaces(frameCamera(frame)), maxVertices: 256, warn: (m) => void warnings.push(m),
    });
    expect(warnings).toEqual([expect.stringMatching(/:7:1: "bgcolour" is not a parameter of shader "background"; ignored$/)]);
  });
});

/** Plastic sphere under a distant light over an empty background, and the background imager. */
function sphereScene(bgcolor: string): string {
  return `Format 48 32 1
PixelSamples 2 2
Projection "perspective" "fov" [40]
Imager "background" "bgcolor" [${bgcolor}]
WorldBegin
LightSource "distantlight" 1 "intensity" [1] "from" [0 0 0] "to" [0 0 1]
Translate 0 0 5
Surface "plastic"
Color [1 0.5 0.2]
Sphere 1 -1 1 360
WorldEnd`;
}

describe('imager in prepared frames and at other resolutions', () => {
  const gpu = useGpuRuntime();

  it('a prepared frame applies the imager again on every re-render, with the imager\'s edited parameters', async () => {
    const frame = await frameFromText(sphereScene('0 0 1'));
    const prepared = await prepareFrame(gpu(), frame, {});
    try {
      expect(prepared.retained).toBe(true);
      expect(pixel(prepared.first.image, 0, 0)).toEqual([0, 0, 1, 1]);
      // A material edit: the kept grids are shaded again, and the background is still there.
      const brighter = await frameFromText(sphereScene('0 0 1').replace('Surface "plastic"', 'Surface "plastic" "Kd" [1]'));
      frame.primitives[0]!.attributes.surface = brighter.primitives[0]!.attributes.surface;
      const edited = await prepared.render(frame);
      expect(edited.stats.reuse).toBe('reused');
      expect(pixel(edited.image, 0, 0)).toEqual([0, 0, 1, 1]);
      expect(edited.image.rgba).toEqual((await renderFrame(gpu(), frame)).image.rgba);
      expect(edited.image.rgba).not.toEqual(prepared.first.image.rgba);
      // An imager edit: a new background colour without dicing again.
      frame.options = { ...frame.options, imager: { ...frame.options.imager!, params: [{ ...frame.options.imager!.params[0]!, values: [0, 1, 0] }] } };
      const green = await prepared.render(frame);
      expect(green.stats.reuse).toBe('reused');
      expect(green.stats.gridsDiced).toBe(0);
      expect(pixel(green.image, 0, 0)).toEqual([0, 1, 0, 1]);
      const centre = pixel(green.image, 24, 16);
      expect(centre[3]).toBe(1);
      expect(centre.slice(0, 3)).toEqual(pixel(edited.image, 24, 16).slice(0, 3));
    } finally {
      prepared.dispose();
    }
  });

  it('answers option("Format") with the resolution rendered, which P spans', async () => {
    const shading = new RslShadingProvider({ lookup }).provide;
    const frame = await frameFromText(squareScene('Imager "format"'));
    for (const resolution of [undefined, [16, 8] as [number, number]]) {
      const rendered = await renderFrame(gpu(), frame, { shading, ...(resolution ? { resolution } : {}) });
      const { width, height } = rendered.image;
      expectClose(pixel(rendered.image, width - 1, height - 1), [(width - 0.5) / width, (height - 0.5) / height, 0, 1]);
    }
  });
});
