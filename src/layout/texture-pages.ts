// The texture maps the shading kernels read, paged: one storage buffer (binding 5, array<u32>)
// holding a table of maps, levels and page entries, then the tile pool; and a feedback buffer
// (binding 6, array<atomic<u32>>) where lookups of tiles that are not resident ask for them.
//
// Atlas (binding 5):
//   header: ATLAS_HEADER words (ATLAS.mapCount ... ATLAS.pagesStart)
//   map m's header at ATLAS.header + m * ATLAS.mapWords:
//     levels (0: the map is missing), channels, swrap, twrap (WRAP_CODE), kind (KIND_CODE), tile
//     side as a shift (tiles are 2^shift texels square), cube-face maps: cot(fov / 2) as f32 bits,
//     1 word unused; shadow maps: 16 floats
//     current (camera) → the shadow camera's screen ([-1, 1], y up), 16 floats current → the
//     shadow camera (both column-major); then per level: width, height, tiles per row, word
//     offset of its first page entry
//   page entries: per map, level, tile row, tile: the pool slot holding the tile, PAGE_ABSENT when
//     none does
//   pool: slots of TILE.words words: a tile's texels as f32 bits, rows top to bottom, channels
//     interleaved (texels past the level's edge are 0).
// Feedback (binding 6): FEEDBACK.requests holds one bit per page entry (entry k: the atlas word
// pagesStart + k) a lookup asked for and found absent; FEEDBACK.requests + bitmapWords one bit per
// entry a lookup read (the host's least-recently-used order); after both, one bit per grid of the
// dispatch: set by the host for grids the pass must skip, by the kernel for grids it shaded
// without a miss.

/** Word offsets in the atlas. */
export const ATLAS = {
  /** The number of maps. */
  mapCount: 0,
  /** Word offset of the tile pool. */
  poolBase: 1,
  /** 1 when some tiles are not resident: lookups record requests and uses in the feedback. */
  paged: 2,
  /** Words of each feedback bitmap over the page entries. */
  bitmapWords: 3,
  /** Word offset of the first page entry. */
  pagesStart: 4,
  header: 8,
  mapWords: 40 + 4 * 16,
  levels: 0, channels: 1, swrap: 2, twrap: 3, kind: 4, tileShift: 5, cubeFovCot: 6,
  /** Offsets of the camera → shadow screen and camera → shadow camera matrices in a map's header. */
  shadowScreen: 8,
  shadowCamera: 24,
  /** Offset of the level table in a map's header; levelWords words each. */
  levelTable: 40,
  levelWords: 4,
  /** Fields of a level's entry. */
  levelWidth: 0, levelHeight: 1, levelTilesX: 2, levelPages: 3,
  maxLevels: 16,
} as const;

/** A page entry of a tile that is not in the pool. */
export const PAGE_ABSENT = 0xffffffff;

export const TILE = {
  /** Words of one pool slot (16 KiB): a tile of side 2^shift holds side² × channels of them. */
  words: 4096,
} as const;

/** Word offsets in the feedback buffer. */
export const FEEDBACK = {
  /** Grids of the pass that missed a tile (atomic count). */
  missedGrids: 0,
  /** Lookups (texture, environment, shadow calls per vertex) of the grids the pass finished. */
  lookups: 1,
  /** The bitmap of requested page entries; the used bitmap and the grid bits follow. */
  requests: 4,
} as const;

/** The tile side (as a shift) of a map with `channels` channels: the largest square of texels
 * whose channels fit one pool slot. */
export function tileShift(channels: number): number {
  let shift = 0;
  while ((4 << (2 * shift)) * channels <= TILE.words) shift++;
  return shift;
}
