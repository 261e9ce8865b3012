// Orbit, pan and dolly relative to a base view, first the RIB camera. Camera space is RenderMan's
// (x right, y up, z into the picture). The pivot is the point straight ahead at the scene's depth;
// framing an object (F, A) makes the framed view the base and its centre the pivot, so orbiting
// then turns about what was framed. Moves are kept as numbers and the matrix is rebuilt from the
// base each time, and reset returns to the RIB camera exactly.
import { mat4, vec3 } from 'gl-matrix';
import type { Frame } from '../index.ts';

export interface OrbitState {
  yaw: number;
  pitch: number;
  panX: number;
  panY: number;
  /** Distance moved towards the pivot. */
  dolly: number;
}

export class OrbitCamera {
  state: OrbitState = { yaw: 0, pitch: 0, panX: 0, panY: 0, dolly: 0 };
  /** Depth, in the base view, of the point orbits turn about. */
  pivotDepth: number;
  private readonly ribPivotDepth: number;
  /** The view the state's moves start from: the RIB camera, or the last framed view. */
  private base: mat4;

  constructor(private readonly ribWorldToCamera: mat4, pivotDepth: number, private readonly fovDegrees: number) {
    this.ribPivotDepth = pivotDepth > 1e-3 ? pivotDepth : 5;
    this.pivotDepth = this.ribPivotDepth;
    this.base = mat4.clone(ribWorldToCamera);
  }

  static forFrame(frame: Frame): OrbitCamera {
    const view = mat4.clone(frame.camera.worldToCamera as unknown as mat4);
    return new OrbitCamera(view, sceneDepth(frame, view), frame.camera.projection === 'perspective' ? frame.camera.fov : 40);
  }

  reset(): void {
    this.state = { yaw: 0, pitch: 0, panX: 0, panY: 0, dolly: 0 };
    this.base = mat4.clone(this.ribWorldToCamera);
    this.pivotDepth = this.ribPivotDepth;
  }

  /** Makes the current view the base of later moves, turning about the point `depth` straight
   * ahead (F and A: the centre of what was framed). */
  pivotAt(depth: number): void {
    this.base = this.worldToCamera();
    this.state = { yaw: 0, pitch: 0, panX: 0, panY: 0, dolly: 0 };
    if (depth > 1e-3) this.pivotDepth = depth;
  }

  /** Drag by (dx, dy) pixels of a view `height` pixels tall. */
  orbit(dx: number, dy: number, height: number): void {
    const perPixel = Math.PI / Math.max(height, 1);
    this.state.yaw += dx * perPixel;
    this.state.pitch = Math.max(-1.55, Math.min(1.55, this.state.pitch + dy * perPixel));
  }

  pan(dx: number, dy: number, height: number): void {
    // One pixel moves the pivot plane by one pixel's worth of world at the pivot's distance.
    const depth = this.pivotDepth - this.state.dolly;
    const worldPerPixel = (2 * depth * Math.tan((this.fovDegrees * Math.PI) / 360)) / Math.max(height, 1);
    this.state.panX -= dx * worldPerPixel;
    this.state.panY += dy * worldPerPixel;
  }

  /** Positive steps move towards the pivot; never through it. */
  zoom(steps: number): void {
    const remaining = this.pivotDepth - this.state.dolly;
    this.state.dolly += remaining * (1 - Math.pow(0.9, steps));
  }

  /** Moves everything in view by (x, y, z) in camera space (frame selected / frame all). */
  translate(x: number, y: number, z: number): void {
    this.state.panX -= x;
    this.state.panY -= y;
    this.state.dolly -= z;
  }

  worldToCamera(): mat4 {
    const { yaw, pitch, panX, panY, dolly } = this.state;
    const d = this.pivotDepth;
    const m = mat4.create();
    mat4.translate(m, m, [-panX, -panY, -dolly]);
    mat4.translate(m, m, [0, 0, d]);
    mat4.rotateX(m, m, pitch);
    mat4.rotateY(m, m, yaw);
    mat4.translate(m, m, [0, 0, -d]);
    return mat4.multiply(m, m, this.base);
  }
}

/** Camera-space depth of the primitives' origins (their median), the natural orbit pivot. */
function sceneDepth(frame: Frame, worldToCamera: mat4): number {
  const depths = frame.primitives.map((p) => {
    const origin = vec3.transformMat4(vec3.create(), vec3.transformMat4(vec3.create(), [0, 0, 0], p.objectToWorld as unknown as mat4), worldToCamera);
    return origin[2]!;
  }).filter((z) => z > 0).sort((a, b) => a - b);
  return depths[Math.floor(depths.length / 2)] ?? 5;
}
