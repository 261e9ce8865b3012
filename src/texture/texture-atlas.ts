// The one definition of the texture atlas the shading kernels read (binding 5, array<u32>): every
// map a frame's shaders name, whole pyramids resident, with a table of maps and levels in front.
//   word 0: the number of maps
//   map m's header at ATLAS.header + m * ATLAS.mapWords:
//     levels (0: the map is missing), channels, swrap, twrap (WRAP_CODE), kind (KIND_CODE),
//     3 words unused; shadow maps: 16 floats current (camera) → the shadow camera's screen
//     ([-1, 1], y up), 16 floats current → the shadow camera (both column-major);
//     then per level: width, height, word offset of its texels
//   texels: f32 bits, rows top to bottom, channels interleaved.
// A map's slot is its index here; parameter blocks hold the slot of each map a shader names
// (ParamLayout.textures), -1 where the name found no map.
import { mat4 } from 'gl-matrix';
import type { TextureKind, TextureMap, WrapMode } from './texture-map.ts';

export const ATLAS = {
  header: 4,
  mapWords: 40 + 3 * 16,
  levels: 0, channels: 1, swrap: 2, twrap: 3, kind: 4,
  /** Offsets of the camera → shadow screen and camera → shadow camera matrices in a map's header. */
  shadowScreen: 8,
  shadowCamera: 24,
  /** Offset of the level table in a map's header; levelWords words each. */
  levelTable: 40,
  levelWords: 3,
  maxLevels: 16,
} as const;

export const WRAP_CODE: Record<WrapMode, number> = { periodic: 0, clamp: 1, black: 2 };
export const KIND_CODE: Record<TextureKind, number> = { texture: 0, shadow: 1, latlong: 2, cube: 3 };

/** The atlas of `maps` (slot = index; undefined for a name that found nothing). `cameraToWorld`
 * (column-major) places shadow maps' cameras relative to the frame's. */
export function packAtlas(maps: readonly (TextureMap | undefined)[], cameraToWorld: mat4 = mat4.create()): Uint32Array {
  let words = ATLAS.header + maps.length * ATLAS.mapWords;
  const offsets = maps.map((map) => (map?.levels ?? []).slice(0, ATLAS.maxLevels).map((level) => {
    const at = words;
    words += level.data.length;
    return at;
  }));
  const atlas = new Uint32Array(words);
  const floats = new Float32Array(atlas.buffer);
  atlas[0] = maps.length;
  maps.forEach((map, m) => {
    if (!map) return;
    const h = ATLAS.header + m * ATLAS.mapWords;
    const levels = map.levels.slice(0, ATLAS.maxLevels);
    atlas[h + ATLAS.levels] = levels.length;
    atlas[h + ATLAS.channels] = map.channels;
    atlas[h + ATLAS.swrap] = WRAP_CODE[map.swrap];
    atlas[h + ATLAS.twrap] = WRAP_CODE[map.twrap];
    atlas[h + ATLAS.kind] = KIND_CODE[map.kind];
    // RenderMan matrices are row-major for row vectors: the same 16 numbers as a column-major
    // matrix for column vectors, which gl-matrix takes.
    if (map.worldToScreen) floats.set(mat4.multiply(mat4.create(), map.worldToScreen as unknown as mat4, cameraToWorld), h + ATLAS.shadowScreen);
    if (map.worldToCamera) floats.set(mat4.multiply(mat4.create(), map.worldToCamera as unknown as mat4, cameraToWorld), h + ATLAS.shadowCamera);
    levels.forEach((level, l) => {
      const at = h + ATLAS.levelTable + l * ATLAS.levelWords;
      atlas[at] = level.width;
      atlas[at + 1] = level.height;
      atlas[at + 2] = offsets[m]![l]!;
      floats.set(level.data, offsets[m]![l]!);
    });
  });
  return atlas;
}
