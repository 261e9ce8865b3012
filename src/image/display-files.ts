// The files a Display writes (RI 3.2 "Display"), chosen by its driver, never by its name's
// extension, as PRMan and Aqsis do: "file" and "tiff" write TIFF, "png" PNG, "exr" and "openexr"
// OpenEXR, "zfile" and "shadow" a float depth TIFF (a depth map a later frame can read),
// "framebuffer" a PNG (the command line has no window), "null" nothing. The mode picks the
// channels; depth in a mode that also has colour goes to a float TIFF beside the picture
// (NAME.z.tif). Quantize decides TIFF's sample format: one = 0 float, max > 255 16-bit, else
// 8-bit. An output variable mode ("N", "varying normal N") writes that variable's filtered image
// (RenderedFrame.variables) without alpha and without exposure, "Ci" the colour. Names are
// returned as the Display gave them; the caller places them with placeDisplayFile.
import { joinPath, isInside, normalizePath } from '../rib/archive-paths.ts';
import { parseDeclaration } from '../rib/declarations.ts';
import type { Display, DisplayChannel } from '../rib/scene.ts';
import type { OutputVariableRequest } from '../reyes/render-frame.ts';
import type { GridVariableType } from '../layout/grid-layout.ts';
import { parseDisplayMode, pictureSamples } from './display-mode.ts';
import { encodeExr, type ExrPixelType } from './exr.ts';
import type { FloatImage, VariableImage } from './image.ts';
import { encodePng } from './png.ts';
import { exposedColour, quantizeImage, type ExposureSettings, type QuantizeSettings } from './quantize.ts';
import { encodeDepthTiff, encodeTiff, type DepthCamera } from './tiff.ts';

export interface DisplayFile {
  name: string;
  bytes: Uint8Array;
  /** What the file holds, for the user ("8-bit RGBA TIFF", "float depth TIFF"). */
  contents: string;
}

export interface DisplaySettings {
  exposure: ExposureSettings;
  quantize: { rgba: QuantizeSettings; z: QuantizeSettings };
  /** The frame's camera, recorded in depth maps for MakeShadow. */
  depthCamera?: DepthCamera;
}

type Format = 'tiff' | 'png' | 'exr' | 'depth' | 'framebuffer' | 'null';

const DRIVER_FORMATS: Record<string, Format> = {
  file: 'tiff', tiff: 'tiff', png: 'png', exr: 'exr', openexr: 'exr', zfile: 'depth', shadow: 'depth', framebuffer: 'framebuffer', null: 'null',
};

/** The output variables the Displays' modes ask for besides colour, for RenderOptions.outputVariables:
 * each with its type where the mode ("color foo"), a DisplayChannel or a Declare gives one. */
export function outputVariables(displays: readonly Display[], channels: readonly DisplayChannel[] = []): OutputVariableRequest[] {
  const found = new Map<string, OutputVariableRequest>();
  for (const d of displays) {
    const mode = parseDisplayMode(d.mode);
    if (mode.kind !== 'variable' || mode.name === 'Ci' || DRIVER_FORMATS[d.type.toLowerCase()] === 'depth' || found.has(mode.name)) continue;
    const words = d.mode.trim().split(/\s+/);
    const declared = words.length > 1 ? parseDeclaration(words.slice(0, -1).join(' ')) : undefined;
    const type = (typeof declared === 'object' ? declared.type : undefined) ?? channels.find((c) => c.name === mode.name)?.type ?? d.declaredType;
    found.set(mode.name, { name: mode.name, ...(type && GRID_TYPES.has(type) ? { type: type as GridVariableType } : {}) });
  }
  return [...found.values()];
}

const GRID_TYPES: ReadonlySet<string> = new Set(['float', 'point', 'vector', 'normal', 'color']);

/** The files `display` writes for `image` (and the output `variables` rendered with it), and a
 * warning for each thing it cannot do as asked. */
export function displayFiles(
  image: FloatImage, display: Display, settings: DisplaySettings, variables: ReadonlyMap<string, VariableImage> = new Map(),
): { files: DisplayFile[]; warnings: string[] } {
  const files: DisplayFile[] = [];
  const warnings: string[] = [];
  const at = display.source ? `${display.source.file}:${display.source.line}:${display.source.column}: ` : '';
  const label = `${at}Display "${display.name}" "${display.type}" "${display.mode}"`;
  let format = DRIVER_FORMATS[display.type.toLowerCase()];
  if (!format) {
    warnings.push(`${label}: unknown display driver "${display.type}"; written as a TIFF, as the "file" driver does`);
    format = 'tiff';
  }
  if (format === 'null') return { files, warnings };
  const depth = (name: string): DisplayFile => ({ name, bytes: encodeDepthTiff(image.width, image.height, image.depth, settings.depthCamera), contents: 'float depth TIFF' });
  const mode = parseDisplayMode(display.mode);
  if (format === 'depth') {
    if (mode.kind !== 'standard' || mode.colour || mode.alpha) warnings.push(`${label}: a ${display.type} display holds depth only; mode "${display.mode}" ignored`);
    files.push(depth(display.name));
  } else if (mode.kind === 'variable') {
    const variable = mode.name === 'Ci' ? { components: 3 as const, image } : variables.get(mode.name);
    if (!variable) warnings.push(`${label}: output variable "${mode.name}" was not rendered; nothing written`);
    else {
      if (variable.noShaderWrites) warnings.push(`${label}: no surface shader of this frame has an output parameter "${mode.name}"; written as 0`);
      const raw = { ...settings, exposure: { gain: 1, gamma: 1 } };
      files.push(pictureFile(variable.image, display, format, variable.components === 1 ? [0] : [0, 1, 2], raw, warnings, label));
    }
  } else {
    const samples = pictureSamples(mode);
    const channels = samples === 4 ? [0, 1, 2, 3] : samples === 3 ? [0, 1, 2] : [3];
    if (samples > 0) files.push(pictureFile(image, display, format, channels, settings, warnings, label));
    if (mode.depth) {
      const alone = samples === 0 && format === 'tiff';
      files.push(depth(alone ? display.name : depthBeside(display.name)));
    }
  }
  if (files.some((f) => f.contents.includes('depth')) && settings.quantize.z.one !== 0) {
    warnings.push(`${label}: Quantize "z" is not applied; depth is written as 32-bit float`);
  }
  return { files, warnings };
}

/** Where a file a Display names goes: a relative name inside the output folder `outputDir`
 * (absolute, '/'-separated); `escapes` when the name is absolute or climbs out with '..', which a
 * scene from anywhere must not be allowed to do (the caller refuses it unless the user allows). */
export function placeDisplayFile(name: string, outputDir: string): { path: string; escapes: boolean } {
  const root = normalizePath(outputDir);
  const absolute = /^([\\/]|[A-Za-z]:)/.test(name);
  const path = joinPath(root, name);
  return { path, escapes: absolute || !isInside(root, path) || path === root };
}

/** Where depth goes when the picture takes the Display's name: NAME with its extension replaced by ".z.tif". */
export function depthBeside(name: string): string {
  return `${withoutExtension(name)}.z.tif`;
}

function withoutExtension(name: string): string {
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  const dot = name.lastIndexOf('.');
  return dot > slash + 1 ? name.slice(0, dot) : name;
}

/** `pick`: the channels of each RGBA pixel the file holds ([0, 1, 2, 3], [0, 1, 2], or one). */
function pictureFile(
  image: FloatImage, display: Display, format: Exclude<Format, 'depth' | 'null'>, pick: number[],
  settings: DisplaySettings, warnings: string[], label: string,
): DisplayFile {
  const samples = pick.length as 1 | 3 | 4;
  const channels = samples === 4 ? 'RGBA' : samples === 3 ? 'RGB' : pick[0] === 3 ? 'alpha' : 'grey';
  if (format === 'png' || format === 'framebuffer') {
    // Straight colour only where alpha is stored beside it; without alpha, colour over black.
    const quantized = quantizeImage(image, settings.exposure, settings.quantize.rgba, samples === 4 ? 'straight' : 'associated');
    const name = format === 'framebuffer' ? `${withoutExtension(display.name)}.png` : display.name;
    return { name, bytes: encodePng(quantized, pick), contents: `${quantized.bitDepth}-bit ${channels} PNG` };
  }
  if (format === 'exr') {
    const pixelType = exrPixelType(display, warnings, label);
    if (samples !== 4) warnings.push(`${label}: the EXR writer stores R, G, B and A; all four written for mode "${display.mode}"`);
    return { name: display.name, bytes: encodeExr(image.width, image.height, exposedRgba(image, settings.exposure), pixelType), contents: `${pixelType} RGBA EXR` };
  }
  const q = settings.quantize.rgba;
  const rgba = q.one === 0 ? exposedRgba(image, settings.exposure) : quantizeImage(image, settings.exposure, q, 'associated').rgba;
  const data = samples === 4 ? rgba : pickChannels(rgba, pick);
  const bits = data instanceof Float32Array ? 'float' : `${data.BYTES_PER_ELEMENT * 8}-bit`;
  return { name: display.name, bytes: encodeTiff({ width: image.width, height: image.height, samples, data }), contents: `${bits} ${channels} TIFF` };
}

/** The channels `pick` of each RGBA pixel of `rgba`, in a new array of the same type. */
function pickChannels<T extends Uint8Array | Uint16Array | Float32Array>(rgba: T, pick: readonly number[]): T {
  const samples = pick.length;
  const count = rgba.length / 4;
  const out = new (rgba.constructor as new (length: number) => T)(count * samples);
  for (let k = 0; k < samples; k++) {
    const c = pick[k]!;
    for (let i = 0; i < count; i++) out[i * samples + k] = rgba[i * 4 + c]!;
  }
  return out;
}

/** Exposure on the colour channels, alpha as it is; colour stays associated. */
function exposedRgba(image: FloatImage, exposure: ExposureSettings): Float32Array {
  const out = new Float32Array(image.rgba.length);
  for (let i = 0; i < out.length; i += 4) {
    const alpha = image.rgba[i + 3]!;
    for (let c = 0; c < 3; c++) out[i + c] = exposedColour(image.rgba[i + c]!, alpha, exposure, 'associated');
    out[i + 3] = alpha;
  }
  return out;
}

/** PRMan's "exrpixeltype" display parameter: "half" (the default) or "float". */
function exrPixelType(display: Display, warnings: string[], label: string): ExrPixelType {
  const param = display.params.find((p) => p.name === 'exrpixeltype');
  const value = param?.values[0];
  if (value === undefined || value === 'half') return 'half';
  if (value === 'float') return 'float';
  warnings.push(`${label}: "exrpixeltype" must be "half" or "float", not "${value}"; half written`);
  return 'half';
}
