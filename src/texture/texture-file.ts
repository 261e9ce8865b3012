// Texture files: a tiled TIFF with one directory per mip level (level 0 first, the others marked
// reduced-resolution), 32×32 tiles of 32-bit float samples, written through UTIF (utif2) as
// src/image/tiff.ts writes pictures. What the Make* request recorded goes in the tags PRMan and
// Aqsis use (PixarTextureFormat, PixarWrapModes, the shadow camera's PixarMatrixWorldToScreen and
// PixarMatrixWorldToCamera, a cube-face map's PixarFovCot) and the filter in ImageDescription (a
// cube-face map's also names its face layout and field of view), so other tools open the file and
// this reader gets everything back.
import UTIF from 'utif2';
import { PIXAR_TAG } from '../image/tiff.ts';
import { tiffSamples } from './tiff-samples.ts';
import { CUBE_FACES, WRAP_MODES, type MipLevel, type TextureKind, type TextureMap, type WrapMode } from './texture-map.ts';

export const TILE = 32;

const TAG = {
  newSubfileType: 254, imageWidth: 256, imageLength: 257, bitsPerSample: 258, compression: 259, photometric: 262,
  imageDescription: 270, samplesPerPixel: 277, planarConfiguration: 284, tileWidth: 322, tileLength: 323,
  tileOffsets: 324, tileByteCounts: 325, extraSamples: 338, sampleFormat: 339,
  pixarTextureFormat: PIXAR_TAG.textureFormat, pixarWrapModes: PIXAR_TAG.wrapModes,
  pixarWorldToScreen: PIXAR_TAG.worldToScreen, pixarWorldToCamera: PIXAR_TAG.worldToCamera, pixarFovCot: 33304,
} as const;
// PixarFovCot (cot(fov / 2) of a cube-face map's faces) as a DOUBLE: UTIF writes no FLOAT tags.
(UTIF as unknown as { _types: { basic: { rest: Record<number, number> } } })._types.basic.rest[TAG.pixarFovCot] = 12;

const FORMAT_NAME: Record<TextureKind, string> = {
  texture: 'Plain Texture', shadow: 'Shadow', latlong: 'LatLong Environment', cube: 'CubeFace Environment',
};
const REDUCED_IMAGE = 1;
const DESCRIPTION = /^reyes texture filter=(\S+) swidth=(\S+) twidth=(\S+)(?: faces=(\S+) fov=(\S+))?$/;
/** The cube-face grid as ImageDescription writes it: the top row, then the bottom one. */
const CUBE_LAYOUT = `${CUBE_FACES.filter((_, f) => (f & 1) === 0).join(',')}/${CUBE_FACES.filter((_, f) => (f & 1) === 1).join(',')}`;

export function encodeTextureFile(map: TextureMap): Uint8Array {
  const { channels } = map;
  const directories: Record<string, unknown>[] = [];
  const tileData: Uint8Array[][] = [];
  for (const [k, level] of map.levels.entries()) {
    const tiles = levelTiles(level, channels);
    tileData.push(tiles);
    const ifd: Record<number, unknown> = {
      [TAG.newSubfileType]: [k === 0 ? 0 : REDUCED_IMAGE],
      [TAG.imageWidth]: [level.width], [TAG.imageLength]: [level.height],
      [TAG.bitsPerSample]: new Array<number>(channels).fill(32), [TAG.compression]: [1],
      [TAG.photometric]: [channels >= 3 ? 2 : 1],
      [TAG.imageDescription]: [`reyes texture filter=${map.filter} swidth=${map.swidth} twidth=${map.twidth}${map.kind === 'cube' ? ` faces=${CUBE_LAYOUT} fov=${map.fov ?? 90}` : ''}`],
      [TAG.samplesPerPixel]: [channels], [TAG.planarConfiguration]: [1], [TAG.tileWidth]: [TILE], [TAG.tileLength]: [TILE],
      [TAG.tileOffsets]: tiles.map(() => 0), [TAG.tileByteCounts]: tiles.map((t) => t.length),
    };
    // Channels past the colour (or grey) ones are unspecified extra samples.
    const colour = channels >= 3 ? 3 : 1;
    if (channels > colour) ifd[TAG.extraSamples] = new Array<number>(channels - colour).fill(0);
    ifd[TAG.sampleFormat] = new Array<number>(channels).fill(3);
    ifd[TAG.pixarTextureFormat] = [FORMAT_NAME[map.kind]];
    ifd[TAG.pixarWrapModes] = [`${map.swrap},${map.twrap}`];
    if (map.worldToScreen) ifd[TAG.pixarWorldToScreen] = map.worldToScreen;
    if (map.worldToCamera) ifd[TAG.pixarWorldToCamera] = map.worldToCamera;
    if (map.kind === 'cube') ifd[TAG.pixarFovCot] = [1 / Math.tan(((map.fov ?? 90) * Math.PI) / 360)];
    directories.push(ifd);
  }
  // UTIF writes the keys in insertion order; TIFF wants them ascending, which numeric keys are.
  const utifDirectories = (): UTIF.IFD[] => directories.map((d) => Object.fromEntries(Object.entries(d).map(([t, v]) => [`t${t}`, v])) as unknown as UTIF.IFD);
  // The directories' size does not depend on the offsets' values: encode once to learn it.
  let offset = (new Uint8Array(UTIF.encode(utifDirectories())).length + 3) & ~3;
  for (const [k, tiles] of tileData.entries()) {
    directories[k]![TAG.tileOffsets] = tiles.map((t) => {
      const at = offset;
      offset += t.length;
      return at;
    });
  }
  const head = new Uint8Array(UTIF.encode(utifDirectories()));
  const bytes = new Uint8Array(offset);
  bytes.set(head);
  let at = (head.length + 3) & ~3;
  for (const tiles of tileData) for (const t of tiles) { bytes.set(t, at); at += t.length; }
  return bytes;
}

/** A level cut into TILE × TILE tiles (row by row, edge tiles padded with zeros), big-endian floats. */
function levelTiles(level: MipLevel, channels: number): Uint8Array[] {
  const tiles: Uint8Array[] = [];
  for (let ty = 0; ty < level.height; ty += TILE) {
    for (let tx = 0; tx < level.width; tx += TILE) {
      const tile = new Uint8Array(TILE * TILE * channels * 4);
      const view = new DataView(tile.buffer);
      for (let y = 0; y < TILE && ty + y < level.height; y++) {
        for (let x = 0; x < TILE && tx + x < level.width; x++) {
          for (let c = 0; c < channels; c++) {
            view.setFloat32(((y * TILE + x) * channels + c) * 4, level.data[((ty + y) * level.width + tx + x) * channels + c]!, false);
          }
        }
      }
      tiles.push(tile);
    }
  }
  return tiles;
}

/** Reads a texture file (ours, or another tool's tiled TIFF with a level per directory). A TIFF
 * without the Pixar tags is a plain texture with black wrap (RI's default for MakeTexture). */
export function decodeTextureFile(bytes: Uint8Array): TextureMap {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const ifds = UTIF.decode(buffer).filter((ifd) => (ifd as unknown as Record<string, unknown>)['t256'] !== undefined);
  if (ifds.length === 0) throw new Error('not a TIFF image');
  const first = ifds[0] as unknown as Record<string, unknown[] | undefined>;
  const ascii = (tag: number): string | undefined => (first[`t${tag}`]?.[0] as string | undefined)?.replace(/\0+$/, '');
  const kind = (Object.entries(FORMAT_NAME).find(([, name]) => name === ascii(TAG.pixarTextureFormat))?.[0] ?? 'texture') as TextureKind;
  const wraps = (ascii(TAG.pixarWrapModes) ?? 'black,black').split(',');
  const wrap = (text: string | undefined): WrapMode => (WRAP_MODES.includes(text as WrapMode) ? (text as WrapMode) : 'black');
  const description = DESCRIPTION.exec(ascii(TAG.imageDescription) ?? '');
  let levels = ifds.map((ifd) => tiffSamples(new Uint8Array(buffer), ifd));
  // A cube-face map's levels are 3 × 2 grids of square faces; another tool's coarsest levels that
  // are not (Aqsis halves the whole grid down to 1×1) are left out.
  if (kind === 'cube') levels = levels.filter((l, k) => k === 0 || (l.width % 3 === 0 && l.width / 3 === l.height / 2));
  if (kind === 'cube' && (levels[0]!.width % 3 !== 0 || levels[0]!.width / 3 !== levels[0]!.height / 2)) {
    throw new Error(`a cube-face map is a 3 × 2 grid of square faces, not ${levels[0]!.width}×${levels[0]!.height}`);
  }
  const channels = levels[0]!.channels;
  const map: TextureMap = {
    kind, channels, levels: levels.map(({ width, height, data }) => ({ width, height, data })),
    swrap: wrap(wraps[0]), twrap: wrap(wraps[1] ?? wraps[0]),
    filter: description?.[1] ?? 'box', swidth: Number(description?.[2] ?? 1), twidth: Number(description?.[3] ?? 1),
  };
  const matrix = (tag: number): number[] | undefined => {
    const values = first[`t${tag}`] as number[] | undefined;
    return values?.length === 16 ? [...values] : undefined;
  };
  const worldToScreen = matrix(TAG.pixarWorldToScreen);
  const worldToCamera = matrix(TAG.pixarWorldToCamera);
  if (worldToScreen) map.worldToScreen = worldToScreen;
  if (worldToCamera) map.worldToCamera = worldToCamera;
  if (kind === 'cube') {
    // Ours name the field of view; otherwise PixarFovCot, where it is a usable cotangent.
    const cot = Number((first[`t${TAG.pixarFovCot}`] as number[] | undefined)?.[0]);
    map.fov = description?.[5] ? Number(description[5]) : cot > 0 ? (360 / Math.PI) * Math.atan(1 / cot) : 90;
  }
  return map;
}
