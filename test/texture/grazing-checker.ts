// A checkerboard plane seen at grazing angles, rendered by the real pipeline and compared pixel by
// pixel with EWA (ewa-reference.ts) at each pixel's analytic s, t and their Jacobian. Shared by
// test/texture/ewa-comparison.test.ts and bench/texture.bench.ts.
//
// The camera looks along +z, `EYE` above the plane y = 0 (camera space: y = -EYE); ScreenWindow
// puts the horizon near the top so most rows are grazing: the bottom row sees the plane about 72°
// from its normal, the far edge (z = 60, row 7) 89°. The checks are one unit square, 32 texels a
// side, so near the bottom a pixel spans a fraction of a check and by the far edge many. The edge
// stops short of the horizon to bound EWA's work: there an ellipse covers ~40k texels.
import { encode as encodePng } from 'fast-png';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { renderFrame } from '../../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { runTextureRequests, texturesBetween } from '../../src/texture/make-textures.ts';
import { TextureRegistry } from '../../src/texture/texture-registry.ts';
import { memoryTextureStorage } from '../../src/texture/texture-storage.ts';
import { ewa, type Jacobian, type ReferenceMap } from './ewa-reference.ts';

export const WIDTH = 64;
export const HEIGHT = 48;
const FOV = 40;
const WINDOW = { left: -2 / 3, right: 2 / 3, bottom: -0.9, top: 0.1 };
const EYE = 1;
/** The plane's patch: x from X0 to X1, z from Z0 to Z1 (s along x, t along z). */
const X0 = -200;
const X1 = 200;
const Z0 = 2;
const Z1 = 60;
const TEXELS_PER_CHECK = 32;
/** The map holds 2 × 2 checks, so it repeats every 2 units. */
const MAP = 2 * TEXELS_PER_CHECK;

const checker: ReferenceMap = {
  width: MAP, height: MAP,
  texel: (x, y) => (Math.floor(x / TEXELS_PER_CHECK) + Math.floor(y / TEXELS_PER_CHECK)) % 2,
};

/** Bands of the angle between the view ray and the plane's normal, in degrees. */
export const BANDS: readonly (readonly [number, number])[] = [[70, 80], [80, 85], [85, 88], [88, 90]];

/** What the pipeline renders: the 8-bit checker picture, MakeTexture'd at render time. */
function checkerFiles(): Map<string, Uint8Array> {
  const data = new Uint8Array(MAP * MAP);
  for (let y = 0; y < MAP; y++) for (let x = 0; x < MAP; x++) data[y * MAP + x] = 255 * checker.texel(x, y);
  return new Map([['checker.png', encodePng({ width: MAP, height: MAP, data, channels: 1, depth: 8 })]]);
}

/** The surface: the checker map repeated over the patch; `options` go to texture() as they are. */
const surface = (options: string): string => `surface grazing_checker() {
  Ci = color(float texture("checker.tx", s * ${(X1 - X0) / 2}, t * ${(Z1 - Z0) / 2}${options}));
  Oi = 1;
}`;

/** The frame: PixelFilter "box" 1 1 averages each pixel's square, the pixel's own footprint. */
const RIB = `MakeTexture "checker.png" "checker.tx" "periodic" "periodic" "box" 1 1
Format ${WIDTH} ${HEIGHT} 1
ScreenWindow ${WINDOW.left} ${WINDOW.right} ${WINDOW.bottom} ${WINDOW.top}
Projection "perspective" "fov" ${FOV}
PixelSamples 4 4
PixelFilter "box" 1 1
ShadingRate 1
WorldBegin
Surface "grazing_checker"
Patch "bilinear" "P" [${X0} ${-EYE} ${Z0}  ${X1} ${-EYE} ${Z0}  ${X0} ${-EYE} ${Z1}  ${X1} ${-EYE} ${Z1}]
WorldEnd
`;

/** A rendered picture's red channel and alpha, row-major. */
export interface Rendered {
  value: Float32Array;
  alpha: Float32Array;
}

/** Renders the plane; `options` are extra texture() arguments (e.g. `, "samples", 1`). */
export async function renderGrazing(gpu: GpuRuntime, options = ''): Promise<Rendered> {
  const scene = parseRibSync(RIB, { fileName: 'grazing.rib' });
  if (scene.errors.length > 0) throw new Error(scene.errors.map((e) => e.message).join('\n'));
  const files = checkerFiles();
  const made = runTextureRequests(texturesBetween(scene, 0, 0), memoryTextureStorage(files));
  if (made.written.length !== 1) throw new Error(`MakeTexture: ${made.warnings.map((w) => w.message).join('; ')}`);
  const provider = new RslShadingProvider({
    lookup: (name) => (name === 'grazing_checker' ? { file: 'grazing_checker.sl', text: surface(options) } : undefined),
    textures: new TextureRegistry(memoryTextureStorage(files)),
  });
  const { image, warnings } = await renderFrame(gpu, scene.frames[0]!, { shading: provider.provide });
  if (warnings.length > 0) throw new Error(warnings.join('\n'));
  const value = new Float32Array(WIDTH * HEIGHT);
  const alpha = new Float32Array(WIDTH * HEIGHT);
  for (let k = 0; k < WIDTH * HEIGHT; k++) [value[k], alpha[k]] = [image.rgba[4 * k]!, image.rgba[4 * k + 3]!];
  return { value, alpha };
}

/** Where pixel centre (px, py) (raster units) meets the plane: texel coordinates (u, v), their
 * Jacobian, and the angle from the plane's normal; undefined above the horizon or off the patch. */
export function pixelFootprint(px: number, py: number): { u: number; v: number; jacobian: Jacobian; angle: number } | undefined {
  const tan = Math.tan((FOV * Math.PI) / 360);
  const kx = (WINDOW.right - WINDOW.left) / WIDTH;
  const ky = (WINDOW.top - WINDOW.bottom) / HEIGHT;
  const xs = WINDOW.left + kx * px;
  const ys = WINDOW.top - ky * py;
  if (ys >= 0) return undefined;
  // Camera-space x = xs·tan·z, y = ys·tan·z = -EYE on the plane.
  const z = -EYE / (ys * tan);
  const x = xs * tan * z;
  if (x < X0 || x > X1 || z > Z1) return undefined;
  const perUnit = TEXELS_PER_CHECK;
  return {
    u: (x - X0) * perUnit,
    v: (z - Z0) * perUnit,
    jacobian: {
      dudx: (-kx * EYE / ys) * perUnit,
      dvdx: 0,
      dudy: ((-xs * EYE * ky) / (ys * ys)) * perUnit,
      dvdy: ((-EYE * ky) / (tan * ys * ys)) * perUnit,
    },
    angle: (Math.acos(EYE / Math.hypot(x, EYE, z)) * 180) / Math.PI,
  };
}

/** Per pixel: the EWA value at its centre and its grazing angle (NaN where no plane is seen). */
export function ewaPicture(): { value: Float64Array; angle: Float64Array } {
  const value = new Float64Array(WIDTH * HEIGHT).fill(NaN);
  const angle = new Float64Array(WIDTH * HEIGHT).fill(NaN);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const f = pixelFootprint(x + 0.5, y + 0.5);
      if (!f) continue;
      value[y * WIDTH + x] = ewa(checker, f.u, f.v, f.jacobian);
      angle[y * WIDTH + x] = f.angle;
    }
  }
  return { value, angle };
}

export interface BandError {
  band: readonly [number, number];
  pixels: number;
  /** Mean and largest |rendered − EWA|. */
  mean: number;
  max: number;
  /** Mean |value − ½| of the rendered pixels and of EWA's: the checker contrast each keeps. */
  contrast: number;
  ewaContrast: number;
}

/** Errors against EWA per band of grazing angle, over the pixels the plane covers wholly. */
export function bandErrors(rendered: Rendered, reference: { value: Float64Array; angle: Float64Array }): BandError[] {
  return BANDS.map((band) => {
    const e: BandError = { band, pixels: 0, mean: 0, max: 0, contrast: 0, ewaContrast: 0 };
    for (let k = 0; k < WIDTH * HEIGHT; k++) {
      const a = reference.angle[k]!;
      if (!(a >= band[0] && a < band[1]) || rendered.alpha[k]! < 1) continue;
      const error = Math.abs(rendered.value[k]! - reference.value[k]!);
      e.pixels++;
      e.mean += error;
      e.max = Math.max(e.max, error);
      e.contrast += Math.abs(rendered.value[k]! - 0.5);
      e.ewaContrast += Math.abs(reference.value[k]! - 0.5);
    }
    return { ...e, mean: e.mean / e.pixels, contrast: e.contrast / e.pixels, ewaContrast: e.ewaContrast / e.pixels };
  });
}
