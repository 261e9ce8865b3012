// Depth of field with the thin-lens model of RI 3.2 (RiDepthOfField): the lens has radius
// focallength / (2 fstop), and a point at depth z seen through lens position L (camera units)
// lands where the ray from L through the point's image on the plane of focus does. For
// perspective that moves the point by L·(z / focaldistance − 1) in camera x and y, keeping z, so a
// point at depth z blurs into a disk of angular diameter 2·radius·|1/focaldistance − 1/z| (the
// thin-lens circle of confusion divided by the image distance).
import { RI_INFINITY } from '../../rib/defaults.ts';

export interface ThinLens {
  /** Lens radius in camera-space units. */
  radius: number;
  /** Distance of the plane in focus. */
  focalDistance: number;
}

/** The frame's lens, or null for a pinhole (no DepthOfField, DepthOfField with no arguments, an
 * infinite fstop, or an orthographic camera, for which the model is not defined: `warn` says so). */
export function thinLens(
  depthOfField: { fstop: number; focalLength: number; focalDistance: number } | null, perspective: boolean, warn: (message: string) => void,
): ThinLens | null {
  if (!depthOfField) return null;
  const { fstop, focalLength, focalDistance } = depthOfField;
  if (fstop >= RI_INFINITY) return null;
  const radius = focalLength / (2 * fstop);
  if (!(radius > 0) || !Number.isFinite(radius)) return null;
  if (!(focalDistance > 0)) {
    warn(`DepthOfField focal distance ${focalDistance} is not positive; rendered without depth of field`);
    return null;
  }
  if (!perspective) {
    warn('DepthOfField with an orthographic projection: the thin-lens model needs a perspective camera; rendered in focus');
    return null;
  }
  return { radius, focalDistance };
}
