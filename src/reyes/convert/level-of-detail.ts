// Level of detail (RI 3.2, Detail / DetailRange / RelativeDetail). The current detail is the raster
// area of the Detail bound (the pixel rectangle around its eight projected corners, as Aqsis
// computes it) times RelativeDetail. DetailRange [minvisible lowertransition uppertransition
// maxvisible] then says how much of a representation is drawn: nothing outside [minvisible,
// maxvisible], all of it in [lowertransition, uppertransition], a linear share in the transitions.
//
// The cross-fade is a stochastic dissolve: every sample point draws one importance value from a hash
// of its subpixel (reyes-sample.wgsl), and a representation keeps the samples whose importance lies
// in its interval [lo, hi): fading in over [minvisible, lowertransition] takes the top of [0, 1),
// fading out over [uppertransition, maxvisible] the bottom. Two representations whose ranges meet
// (one's uppertransition and maxvisible are the other's minvisible and lowertransition) then split
// every pixel's samples between them with shares that add to one.
import { mat4, vec4 } from 'gl-matrix';
import { RI_INFINITY } from '../../rib/defaults.ts';

/** The share [lo, hi) of [0, 1) a representation draws, or undefined when it is not drawn. */
export type Importance = [number, number];

export const FULL_IMPORTANCE: Importance = [0, 1];

/** Raster area in pixels of the rectangle around the projected corners of `bound` ([xmin xmax ymin ymax
 * zmin zmax] in the space `boundToCamera` maps to camera space); Infinity when a corner is not in
 * front of the eye (the object surrounds the camera: as much detail as there can be). */
export function rasterArea(bound: readonly number[], boundToCamera: mat4, cameraToRaster: mat4, perspective: boolean): number {
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const corner = vec4.create();
  for (let k = 0; k < 8; k++) {
    vec4.set(corner, bound[k & 1]!, bound[2 + ((k >> 1) & 1)]!, bound[4 + (k >> 2)]!, 1);
    vec4.transformMat4(corner, corner, boundToCamera);
    if (perspective && !(corner[2]! > 0)) return Infinity;
    vec4.transformMat4(corner, corner, cameraToRaster);
    const x = corner[0]! / corner[3]!;
    const y = corner[1]! / corner[3]!;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  return (x1 - x0) * (y1 - y0);
}

/** The importance interval a DetailRange gives at `detail`; undefined: not drawn. The spec draws
 * nothing below minvisible or above maxvisible (both ends drawn); a range reaching RI_INFINITY holds
 * the infinite detail of a bound around the camera. */
export function detailImportance(detail: number, range: readonly number[]): Importance | undefined {
  const [minVisible, lower, upper, maxVisible] = range as [number, number, number, number];
  if (maxVisible >= RI_INFINITY && detail > maxVisible) detail = maxVisible;
  // Fading in: the share not drawn, 1 at minvisible down to 0 at lowertransition.
  const lo = lower === minVisible ? (detail < minVisible ? 1 : 0) : clamp01((lower - detail) / (lower - minVisible));
  // Fading out: the share drawn, 1 at uppertransition down to 0 at maxvisible.
  const hi = upper === maxVisible ? (detail <= maxVisible ? 1 : 0) : clamp01((maxVisible - detail) / (maxVisible - upper));
  return lo < hi ? [lo, hi] : undefined;
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}
