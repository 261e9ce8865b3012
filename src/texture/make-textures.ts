// Runs the Make* requests of a scene (MakeTexture, MakeBump, MakeLatLongEnvironment, MakeShadow;
// MakeCubeFaceEnvironment is refused with a warning) when the frames reach them: each reads its
// picture through the texture search path, builds the mip pyramid with the request's filter and
// writes a texture file (texture-file.ts). A problem is one positioned warning and the request
// makes nothing; a later lookup of the missing file then warns and returns the fill value.
import { PIXEL_FILTERS, type PixelFilterName } from '../image/pixel-filters.ts';
import type { Diagnostic } from '../rib/diagnostics.ts';
import type { Scene, TextureRequest } from '../rib/scene.ts';
import { buildPyramid } from './mipmap.ts';
import { decodePicture } from './picture.ts';
import { shadowMapFromDepth } from './shadow-map.ts';
import { encodeTextureFile } from './texture-file.ts';
import { WRAP_MODES, type TextureKind, type TextureMap, type WrapMode } from './texture-map.ts';
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

function makeMap(request: TextureRequest, storage: TextureStorage, warn: (message: string) => void): TextureMap | undefined {
  const { args } = request;
  if (request.request === 'MakeCubeFaceEnvironment') {
    warn(`cube-face environment maps are not supported; "${String(args['texture'])}" is not made`);
    return undefined;
  }
  const picture = String(args['picture']);
  const found = findTexture(storage, picture, request.searchPath);
  if ('problem' in found) {
    warn(`picture ${found.problem}; "${String(args['texture'])}" is not made`);
    return undefined;
  }
  let raster;
  try {
    raster = decodePicture(found.bytes);
  } catch (error) {
    warn(`cannot read "${found.path}": ${(error as Error).message}; "${String(args['texture'])}" is not made`);
    return undefined;
  }
  for (const p of request.params) warn(`"${p.name}" is not a parameter of ${request.request}; ignored`);
  if (request.request === 'MakeShadow') return shadowMapFromDepth(raster, found.bytes, warn);
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
