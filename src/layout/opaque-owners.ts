// The opaque sampling path's owner buffer (reyes-sample.wgsl opaqueDepth, opaqueColour; allocated by
// stages/sample.ts): an owner word per subpixel of the sample region, then OWNER_TAIL.words words of
// counters and the tie list. Where two micropolygons reach a subpixel's nearest depth, the depth
// pass appends an entry: the subpixel, the later arrival, and the owner word it replaced (the first
// arrival's, unless its store has not landed yet).
import type { ConstantGroup } from './wgsl-constants.ts';

/** Tie entries a region's list holds; a region with more is resolved by walking its micropolygons. */
export const TIE_ENTRIES = 1024;

/** u32 words of one tie entry. */
export const TIE_ENTRY = {
  /** The subpixel's index within the region. */
  subpixel: 0,
  /** The owner word (complemented micropolygon id) of the micropolygon that met the depth. */
  tier: 1,
  /** The owner word it replaced. */
  replaced: 2,
  words: 3,
} as const;

/** Word offsets in the tail after the region's owner words. */
export const OWNER_TAIL = {
  /** Subpixels opaqueColour could not resolve from the candidates and the tie list. */
  unresolved: 0,
  /** Tie entries appended (past TIE_ENTRIES, the list is incomplete). */
  ties: 1,
  /** The box of every tied or unresolved subpixel, which a walk of the region need not leave: four
   * words raised by atomicMax, the complements of its low x and y, then its high x and y plus one
   * (cleared words hold an empty box). */
  walkBox: 2,
  /** The first of TIE_ENTRIES entries. */
  entries: 6,
  words: 6 + TIE_ENTRIES * TIE_ENTRY.words,
} as const;

/** Bytes of the owner buffer of a region of `subpixels` subpixels. */
export function ownerBufferBytes(subpixels: number): number {
  return (subpixels + OWNER_TAIL.words) * 4;
}

/** WGSL: TIE_ENTRIES, TIE_ENTRY_SUBPIXEL, ..., OWNER_TAIL_UNRESOLVED, OWNER_TAIL_TIES, OWNER_TAIL_WALK_BOX, ... */
export const OPAQUE_OWNER_CONSTANTS: readonly ConstantGroup[] = [
  { prefix: '', values: { TIE_ENTRIES } },
  { prefix: 'TIE_ENTRY_', values: TIE_ENTRY },
  { prefix: 'OWNER_TAIL_', values: OWNER_TAIL },
];
