// Frame selected (F) and frame all (A): the camera-space move that brings an object, or the whole
// scene, to the middle of the view and, for a perspective camera, near or far enough to fill about
// 70% of it. F goes by the pixels the object covers in the last full render (its primitive ids)
// and their depth; A by the bounding boxes of every primitive, so that what is out of view is
// framed too. An orthographic view is only centred: moving such a camera does not change the size
// of things.
import { type Frame, type FrameCamera, type Matrix4, objectBound, transformPoint } from '../index.ts';

/** How much of the view's width or height (whichever is tighter) the framed pixels fill. */
export const FRAME_FILL = 0.7;

/** What the picked pixels show, in camera space: the box around their points (each pixel's centre
 * at its own depth, so near and far parts of the selection are placed correctly) and the mean depth
 * of the points that bound it. */
export interface CameraExtent {
  min: [number, number];
  max: [number, number];
  depth: number;
}

/** The camera-space extent of the pixels (of the render's crop region, `width` wide) whose id `pick`
 * accepts and that have a finite depth; undefined if there are none. */
export function cameraExtent(camera: FrameCamera, width: number, ids: Int32Array, depth: Float32Array, pick: (id: number) => boolean): CameraExtent | undefined {
  const min: [number, number] = [Infinity, Infinity];
  const max: [number, number] = [-Infinity, -Infinity];
  const bounding: number[] = [0, 0, 0, 0];
  ids.forEach((id, k) => {
    const z = depth[k]!;
    if (!pick(id) || !Number.isFinite(z)) return;
    const p = unproject(camera, camera.crop.x0 + (k % width) + 0.5, camera.crop.y0 + Math.floor(k / width) + 0.5, z);
    for (let axis = 0; axis < 2; axis++) {
      if (p[axis]! < min[axis]!) [min[axis], bounding[axis * 2]] = [p[axis]!, z];
      if (p[axis]! > max[axis]!) [max[axis], bounding[axis * 2 + 1]] = [p[axis]!, z];
    }
  });
  if (!Number.isFinite(min[0])) return undefined;
  return { min, max, depth: bounding.reduce((a, b) => a + b, 0) / 4 };
}

/** The camera-space point at raster position (x, y) and camera depth z: cameraToRaster solved for
 * x and y at that depth (the matrix itself is singular for a perspective camera: w = z). */
function unproject(camera: FrameCamera, x: number, y: number, z: number): [number, number, number] {
  const m = camera.cameraToRaster;
  const w = m[11]! * z + m[15]!;
  const bx = x * w - m[8]! * z - m[12]!;
  const by = y * w - m[9]! * z - m[13]!;
  const det = m[0]! * m[5]! - m[4]! * m[1]!;
  return [(bx * m[5]! - m[4]! * by) / det, (m[0]! * by - m[1]! * bx) / det, z];
}

/** The translation, in camera space, that frames `extent`. */
export function framingMove(camera: FrameCamera, extent: CameraExtent): [number, number, number] {
  const { crop } = camera;
  const z = extent.depth;
  const centre = [(extent.min[0] + extent.max[0]) / 2, (extent.min[1] + extent.max[1]) / 2, z];
  let target = z;
  if (camera.perspective) {
    // The view's size at depth 1; the extent's share of it shrinks with distance, so solve for that.
    const v0 = unproject(camera, crop.x0, crop.y0, 1);
    const v1 = unproject(camera, crop.x1, crop.y1, 1);
    const scale = Math.max((extent.max[0] - extent.min[0]) / Math.abs(v1[0]! - v0[0]!), (extent.max[1] - extent.min[1]) / Math.abs(v1[1]! - v0[1]!));
    target = scale / FRAME_FILL;
  }
  const middle = unproject(camera, (crop.x0 + crop.x1) / 2, (crop.y0 + crop.y1) / 2, target);
  return [middle[0]! - centre[0]!, middle[1]! - centre[1]!, middle[2]! - centre[2]!];
}

/** The camera-space extent of every primitive of `frame` (its bounding box's corners), for frame all. */
export function sceneExtent(frame: Frame, worldToCamera: Matrix4): CameraExtent | undefined {
  const min: [number, number] = [Infinity, Infinity];
  const max: [number, number] = [-Infinity, -Infinity];
  const bounding: number[] = [0, 0, 0, 0];
  for (const primitive of frame.primitives) {
    const box = objectBound(primitive.geometry);
    if (!box || !box.every(Number.isFinite)) continue;
    for (let corner = 0; corner < 8; corner++) {
      const world = transformPoint(primitive.objectToWorld, [box[corner & 1 ? 1 : 0]!, box[corner & 2 ? 3 : 2]!, box[corner & 4 ? 5 : 4]!]);
      const p = transformPoint(worldToCamera, world);
      for (let axis = 0; axis < 2; axis++) {
        if (p[axis]! < min[axis]!) [min[axis], bounding[axis * 2]] = [p[axis]!, p[2]];
        if (p[axis]! > max[axis]!) [max[axis], bounding[axis * 2 + 1]] = [p[axis]!, p[2]];
      }
    }
  }
  if (!Number.isFinite(min[0])) return undefined;
  return { min, max, depth: bounding.reduce((a, b) => a + b, 0) / 4 };
}
