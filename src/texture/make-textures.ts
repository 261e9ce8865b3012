// Runs the Make* requests of a scene (MakeTexture, MakeBump, MakeLatLongEnvironment,
// MakeCubeFaceEnvironment, MakeShadow) when the frames reach them: each reads its picture(s)
// through the texture search path, builds the mip pyramid with the request's filter and writes a
// texture file (texture-file.ts). A problem is one positioned warning and the request makes
// nothing; a later lookup of the missing file then warns and returns the fill value.
import { PIXEL_FILTERS, type PixelFilterName } from '../image/pixel-filters.ts';
import type { Diagnostic } from '../rib/diagnostics.ts';
import type { Scene, TextureRequest } from '../rib/scene.ts';
import { buildPyramid } from './mipmap.ts';
import { decodePicture } from './picture.ts';
import { shadowMapFromDepth } from './shadow-map.ts';
import { encodeTextureFile } from './texture-file.ts';
import { CUBE_FACES, WRAP_MODES, type MipLevel, type TextureKind, type TextureMap, type WrapMode } from './texture-map.ts';
import type { FloatRaster } from './tiff-samples.ts';
import { findTexture, type TextureStorage } from './texture-storage.ts';

export interface MadeTextures {
  /** Where each file went, in request order. */
  written: string[];
  warnings: Diagnostic[];
}

/** The requests that run before `scene.frames[last]` renders and after `scene.frames[first - 1]`
 * did, in RIB order (`last` = scene.frames.length: those after the last frame). */
export function texturesBetween(scene: Scene, first: number, last: number): TextureRequest[] {
  const all = [...scene.textureRequests, ...scene.frames.flatMap((f) => f.textureRequests)];
  return all.filter((r) => r.frameIndex >= first && r.frameIndex <= last).sort((a, b) => a.source.line - b.source.line || a.source.column - b.source.column);
}

export function runTextureRequests(requests: readonly TextureRequest[], storage: TextureStorage): MadeTextures {
  const made: MadeTextures = { written: [], warnings: [] };
  for (const request of requests) {
    const warn = (message: string): void => {
      made.warnings.push({ ...request.source, severity: 'warning', request: request.request, message });
    };
    const target = String(request.args['texture'] ?? '');
    try {
      const map = makeMap(request, storage, warn);
      if (map) made.written.push(storage.write(target, encodeTextureFile(map)));
    } catch (error) {
      warn(`cannot make "${target}": ${(error as Error).message}`);
    }
  }
  return made;
}

/** The picture `args[arg]` names, or undefined after a warning. */
function readPicture(request: TextureRequest, arg: string, storage: TextureStorage, warn: (message: string) => void): { raster: FloatRaster; bytes: Uint8Array } | undefined {
  const target = String(request.args['texture']);
  const label = arg === 'picture' ? 'picture' : `${arg} face`;
  const found = findTexture(storage, String(request.args[arg]), request.searchPath);
  if ('problem' in found) {
    warn(`${label} ${found.problem}; "${target}" is not made`);
    return undefined;
  }
  try {
    return { raster: decodePicture(found.bytes), bytes: found.bytes };
  } catch (error) {
    warn(`cannot read "${found.path}"${arg === 'picture' ? '' : ` (${label})`}: ${(error as Error).message}; "${target}" is not made`);
    return undefined;
  }
}

function makeMap(request: TextureRequest, storage: TextureStorage, warn: (message: string) => void): TextureMap | undefined {
  const { args } = request;
  if (request.request === 'MakeCubeFaceEnvironment') return makeCubeMap(request, storage, warn);
  const picture = readPicture(request, 'picture', storage, warn);
  if (!picture) return undefined;
  const { raster } = picture;
  for (const p of request.params) warn(`"${p.name}" is not a parameter of ${request.request}; ignored`);
  if (request.request === 'MakeShadow') return shadowMapFromDepth(raster, picture.bytes, warn);
  if (request.request === 'MakeBump') warn('MakeBump makes a plain texture map of the picture (RSL has no bump map lookup)');
  const kind: TextureKind = request.request === 'MakeLatLongEnvironment' ? 'latlong' : 'texture';
  // Lat-long maps wrap around in longitude and stop at the poles.
  const swrap = kind === 'latlong' ? 'periodic' : wrapMode(args['swrap'], warn);
  const twrap = kind === 'latlong' ? 'clamp' : wrapMode(args['twrap'], warn);
  const filter = filterName(args['filter'], warn);
  const swidth = Number(args['swidth']);
  const twidth = Number(args['twidth']);
  const { width, height, channels, data } = raster;
  const levels = buildPyramid({ width, height, data }, channels, { filter, swidth, twidth, swrap, twrap });
  return { kind, channels, levels, swrap, twrap, filter, swidth, twidth };
}

/** MakeCubeFaceEnvironment (RI 3.2): six square pictures of one size, taken from the origin along
 * +x, -x, +y, -y, +z, -z with a field of view of `fov` degrees. Each face gets its own pyramid
 * (edges clamped, so no face bleeds into another at the coarse levels) and each level is the 3 × 2
 * grid of CUBE_FACES. Pictures with different channel counts are widened to the most channels
 * (missing ones 0; a grey face's grey is repeated into RGB). */
function makeCubeMap(request: TextureRequest, storage: TextureStorage, warn: (message: string) => void): TextureMap | undefined {
  const { args } = request;
  const target = String(args['texture']);
  const faces: FloatRaster[] = [];
  for (const face of CUBE_FACES) {
    const picture = readPicture(request, face, storage, warn);
    if (!picture) return undefined;
    faces.push(picture.raster);
  }
  const size = faces[0]!.width;
  const odd = faces.findIndex((f) => f.width !== size || f.height !== size);
  if (odd >= 0) {
    warn(`the ${CUBE_FACES[odd]} face is ${faces[odd]!.width}×${faces[odd]!.height}; every face must be square and the size of the px face (${size}×${faces[0]!.height}); "${target}" is not made`);
    return undefined;
  }
  for (const p of request.params) warn(`"${p.name}" is not a parameter of ${request.request}; ignored`);
  let fov = Number(args['fov']);
  if (!(fov > 0 && fov < 180)) {
    warn(`fov ${String(args['fov'])} is not between 0 and 180 degrees; using 90`);
    fov = 90;
  }
  const filter = filterName(args['filter'], warn);
  const swidth = Number(args['swidth']);
  const twidth = Number(args['twidth']);
  const channels = Math.max(...faces.map((f) => f.channels));
  const pyramids = faces.map((f) => buildPyramid({ width: size, height: size, data: widen(f, channels) }, channels, { filter, swidth, twidth, swrap: 'clamp', twrap: 'clamp' }));
  const levels = pyramids[0]!.map((_, l) => cubeLevel(pyramids.map((p) => p[l]!), channels));
  return { kind: 'cube', channels, levels, swrap: 'clamp', twrap: 'clamp', filter, swidth, twidth, fov };
}

/** A face's texels with `channels` channels: grey repeated into RGB, others 0. */
function widen(face: FloatRaster, channels: number): Float32Array {
  if (face.channels === channels) return face.data;
  const out = new Float32Array(face.width * face.height * channels);
  for (let k = 0; k < face.width * face.height; k++) {
    for (let c = 0; c < channels; c++) {
      const from = face.channels < 3 && c < 3 ? 0 : c;
      out[k * channels + c] = from < face.channels ? face.data[k * face.channels + from]! : 0;
    }
  }
  return out;
}

/** One level of the six faces' pyramids as the 3 × 2 grid (CUBE_FACES). */
function cubeLevel(faces: MipLevel[], channels: number): MipLevel {
  const n = faces[0]!.width;
  const width = 3 * n;
  const data = new Float32Array(width * 2 * n * channels);
  faces.forEach((face, f) => {
    const x0 = (f >> 1) * n;
    const y0 = (f & 1) * n;
    for (let y = 0; y < n; y++) data.set(face.data.subarray(y * n * channels, (y + 1) * n * channels), ((y0 + y) * width + x0) * channels);
  });
  return { width, height: 2 * n, data };
}

function wrapMode(value: unknown, warn: (message: string) => void): WrapMode {
  const text = String(value);
  if ((WRAP_MODES as readonly string[]).includes(text)) return text as WrapMode;
  warn(`wrap mode "${text}" is not one of ${WRAP_MODES.join(', ')}; using black`);
  return 'black';
}

function filterName(value: unknown, warn: (message: string) => void): PixelFilterName {
  const text = String(value).toLowerCase();
  if ((PIXEL_FILTERS as readonly string[]).includes(text)) return text as PixelFilterName;
  warn(`filter "${String(value)}" is not one of ${PIXEL_FILTERS.join(', ')}; using box`);
  return 'box';
}
