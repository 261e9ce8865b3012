// The camera of a frame: projection (perspective with fov, or orthographic), ScreenWindow, Format,
// CropWindow, near/far clipping and ClippingPlane planes, as the matrices and rectangles the stages
// need. Camera space is RenderMan's: x right, y up, z into the picture (left-handed); raster space
// has y down.
import { mat4 } from 'gl-matrix';
import type { Frame, Options } from '../rib/scene.ts';
import { thinLens, type ThinLens } from './motion/thin-lens.ts';

/** Eye splits when the RIB gives no `Option "limits" "eyesplits"` (PRMan's and Aqsis's default). */
export const DEFAULT_EYE_SPLITS = 6;

export interface PixelRect {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  y1: number;
}

export interface FrameCamera {
  perspective: boolean;
  /** Full image size in pixels (before cropping). */
  xResolution: number;
  yResolution: number;
  /** The pixels to render (CropWindow), in full-image pixel coordinates. */
  crop: PixelRect;
  near: number;
  far: number;
  /** camera → screen (homogeneous: w = z for perspective). */
  cameraToScreen: mat4;
  /** camera → raster (pixels of the full image, y down); divide by w. */
  cameraToRaster: mat4;
  /** camera → NDC (0..1 across the screen window, y down); divide by w. */
  cameraToNdc: mat4;
  worldToCamera: mat4;
  /** The ClippingPlane planes in camera space as (n, d), n of unit length: a point P is clipped where
   * n·P + d > 0. RI 3.2, RiClippingPlane: "all geometry on the positive side of the plane (that is,
   * in the direction that the normal points) will be clipped from the scene". */
  clipPlanes: [number, number, number, number][];
  /** How many times bound/split may split a piece straddling the eye plane before culling what
   * still straddles (`Option "limits" "eyesplits"`). */
  eyeSplits: number;
  /** DepthOfField's thin lens; null for a pinhole. */
  lens: ThinLens | null;
}

export interface CameraOverrides {
  /** --res: replaces Format's resolution; the screen window follows the new aspect when the RIB gave none of its own. */
  resolution?: [number, number];
}

export function frameCamera(frame: Frame, overrides: CameraOverrides = {}, warn: (message: string) => void = () => {}): FrameCamera {
  const { options, camera } = frame;
  const [xResolution, yResolution] = overrides.resolution ?? [options.xResolution, options.yResolution];
  let [left, right, bottom, top] = options.screenWindow;
  if (overrides.resolution && isDerivedScreenWindow(options.screenWindow, options.frameAspectRatio)) {
    [left, right, bottom, top] = derivedScreenWindow((xResolution * options.pixelAspectRatio) / yResolution);
  }
  const perspective = camera.projection === 'perspective';
  const cameraToScreen = mat4.create();
  if (perspective) {
    const c = 1 / Math.tan((camera.fov * Math.PI) / 360);
    // Column-major: x' = c x, y' = c y, z' = z, w' = z.
    mat4.set(cameraToScreen, c, 0, 0, 0, 0, c, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0);
  }
  const screenToNdc = mat4.create();
  mat4.set(screenToNdc,
    1 / (right - left), 0, 0, 0,
    0, -1 / (top - bottom), 0, 0,
    0, 0, 1, 0,
    -left / (right - left), top / (top - bottom), 0, 1);
  const cameraToNdc = mat4.multiply(mat4.create(), screenToNdc, cameraToScreen);
  const ndcToRaster = mat4.fromScaling(mat4.create(), [xResolution, yResolution, 1]);
  const cameraToRaster = mat4.multiply(mat4.create(), ndcToRaster, cameraToNdc);
  const [cx0, cx1, cy0, cy1] = options.cropWindow;
  const crop: PixelRect = {
    x0: clampInt(Math.ceil(xResolution * cx0), 0, xResolution),
    x1: clampInt(Math.ceil(xResolution * cx1), 0, xResolution),
    y0: clampInt(Math.ceil(yResolution * cy0), 0, yResolution),
    y1: clampInt(Math.ceil(yResolution * cy1), 0, yResolution),
  };
  return {
    perspective,
    xResolution,
    yResolution,
    crop,
    near: Math.max(camera.near, 1e-6),
    far: Math.min(camera.far, 3.0e38),
    cameraToScreen,
    cameraToRaster,
    cameraToNdc,
    worldToCamera: mat4.clone(camera.worldToCamera as unknown as mat4),
    clipPlanes: camera.clippingPlanes.map(cameraClipPlane),
    eyeSplits: eyeSplitLimit(options, warn),
    lens: thinLens(camera.depthOfField, perspective, warn),
  };
}

/** `Option "limits" "eyesplits" [n]`: a non-negative integer, else the default (with a warning). */
function eyeSplitLimit(options: Options, warn: (message: string) => void): number {
  const param = options.user['limits']?.find((p) => p.name === 'eyesplits');
  if (!param) return DEFAULT_EYE_SPLITS;
  const n = param.values[0];
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    warn(`Option "limits" "eyesplits" must be a non-negative integer; using ${DEFAULT_EYE_SPLITS}`);
    return DEFAULT_EYE_SPLITS;
  }
  return n;
}

/** A ClippingPlane's [x, y, z, nx, ny, nz] (camera space) as (n̂, −n̂·p). */
function cameraClipPlane(plane: readonly number[]): [number, number, number, number] {
  const [x, y, z, nx, ny, nz] = plane as [number, number, number, number, number, number];
  const length = Math.hypot(nx, ny, nz);
  const n = [nx / length, ny / length, nz / length] as const;
  return [n[0], n[1], n[2], -(n[0] * x + n[1] * y + n[2] * z)];
}

function derivedScreenWindow(aspect: number): [number, number, number, number] {
  return aspect >= 1 ? [-aspect, aspect, -1, 1] : [-1, 1, -1 / aspect, 1 / aspect];
}

function isDerivedScreenWindow(window: readonly number[], aspect: number): boolean {
  const derived = derivedScreenWindow(aspect);
  return derived.every((v, k) => Math.abs(v - window[k]!) < 1e-6);
}

function clampInt(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

export function rectWidth(r: PixelRect): number {
  return r.x1 - r.x0;
}

export function rectHeight(r: PixelRect): number {
  return r.y1 - r.y0;
}
