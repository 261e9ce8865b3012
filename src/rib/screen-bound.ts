// Whether a bounding box can show in the picture, decided at parse time from the frame's camera
// (fixed at WorldBegin): lets a DelayedReadArchive whose bound is off screen go unread. Pure
// arithmetic on the Scene's own data, so the front end needs nothing from the renderer. It errs
// on the side of "visible": only a box certainly outside the rendered pixels is reported off screen.

import type { Camera, Matrix4, Options } from './scene.ts';
import { transformPoint } from './transforms.ts';

type Vec3 = [number, number, number];

/** The 8 corners of [xmin xmax ymin ymax zmin zmax]; bit k of the index picks min or max on axis k. */
function corners(bound: readonly number[]): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < 8; i++) out.push([bound[i & 1 ? 1 : 0]!, bound[i & 2 ? 3 : 2]!, bound[i & 4 ? 5 : 4]!]);
  return out;
}

/** Corner index pairs of the box's 12 edges (they differ in one bit). */
const EDGES: [number, number][] = [];
for (let i = 0; i < 8; i++) for (const bit of [1, 2, 4]) if (!(i & bit)) EDGES.push([i, i | bit]);

/** The part of the box in front of z = near: its corners there and where its edges cross the plane. */
function inFront(points: Vec3[], near: number): Vec3[] {
  const kept = points.filter((p) => p[2] >= near);
  for (const [a, b] of EDGES) {
    const p = points[a]!, q = points[b]!;
    if ((p[2] < near) === (q[2] < near)) continue;
    const t = (near - p[2]) / (q[2] - p[2]);
    kept.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), near]);
  }
  return kept;
}

/**
 * False when the box `bound` (object space), placed in camera space by `objectToCamera`, lies
 * wholly outside the rendered pixels: beyond the near or far clipping plane, on the clipped side
 * of a ClippingPlane, or outside the CropWindow's pixels widened by the pixel filter's reach.
 * Projections other than perspective and orthographic are not judged (true).
 */
export function boundMayBeVisible(bound: readonly number[], objectToCamera: Matrix4, camera: Camera, options: Options): boolean {
  if (bound.length !== 6 || bound.some((v) => !Number.isFinite(v))) return true;
  const perspective = camera.projection === 'perspective';
  if (!perspective && camera.projection !== 'orthographic') return true;
  const points = corners(bound).map((c) => transformPoint(objectToCamera, c));
  if (points.some((p) => p.some((v) => !Number.isFinite(v)))) return true;
  if (points.every((p) => p[2] > camera.far)) return false;
  for (const [px, py, pz, nx, ny, nz] of camera.clippingPlanes) {
    if (points.every((p) => nx! * (p[0] - px!) + ny! * (p[1] - py!) + nz! * (p[2] - pz!) > 0)) return false;
  }
  const near = perspective ? Math.max(camera.near, 1e-6) : camera.near;
  const front = inFront(points, near);
  if (front.length === 0) return false;
  // Screen space: perspective divides by z with the fov spanning [-1, 1]; orthographic keeps x, y.
  const scale = perspective ? 1 / Math.tan((camera.fov * Math.PI) / 360) : 1;
  let sx0 = Infinity, sx1 = -Infinity, sy0 = Infinity, sy1 = -Infinity;
  for (const [x, y, z] of front) {
    const sx = perspective ? (scale * x) / z : x;
    const sy = perspective ? (scale * y) / z : y;
    sx0 = Math.min(sx0, sx); sx1 = Math.max(sx1, sx);
    sy0 = Math.min(sy0, sy); sy1 = Math.max(sy1, sy);
  }
  // Raster space (y down), against the crop window's pixels plus the filter's half width and one
  // pixel of slack for sample jitter and rounding.
  const [left, right, bottom, top] = options.screenWindow;
  const { xResolution: xres, yResolution: yres } = options;
  const toRasterX = (sx: number) => ((sx - left) / (right - left)) * xres;
  const toRasterY = (sy: number) => ((top - sy) / (top - bottom)) * yres;
  // A ScreenWindow may be given flipped (left > right): order the ends again.
  const rx0 = Math.min(toRasterX(sx0), toRasterX(sx1)), rx1 = Math.max(toRasterX(sx0), toRasterX(sx1));
  const ry0 = Math.min(toRasterY(sy0), toRasterY(sy1)), ry1 = Math.max(toRasterY(sy0), toRasterY(sy1));
  const [cx0, cx1, cy0, cy1] = options.cropWindow;
  const mx = options.pixelFilter.xWidth / 2 + 1, my = options.pixelFilter.yWidth / 2 + 1;
  return rx1 >= cx0 * xres - mx && rx0 <= cx1 * xres + mx && ry1 >= cy0 * yres - my && ry0 <= cy1 * yres + my;
}
