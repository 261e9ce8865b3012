// How much of the memory budget the texture tile pool may hold: `Option "limits" "texturememory"
// [KiB]` (the name and unit PRMan uses for its texture cache), else a quarter of the frame's
// budget. The pool never holds more than the frame's maps' tiles.
import type { Options } from '../rib/scene.ts';

/** The share of the budget the pool takes when the RIB does not say. */
export const DEFAULT_TEXTURE_SHARE = 0.25;

/** Bytes of tiles the pool may hold under `budgetBytes`. */
export function texturePoolBytes(options: Options, budgetBytes: number): number {
  const kib = options.user['limits']?.find((p) => p.name === 'texturememory')?.values[0];
  return typeof kib === 'number' && kib > 0 ? kib * 1024 : DEFAULT_TEXTURE_SHARE * budgetBytes;
}
