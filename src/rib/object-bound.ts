// Bounding boxes of a frame's primitives on the host, from their RIB arguments: what frame all in
// the page and the cameras of "auto" shadow maps (src/reyes/shadows) need before any GPU work.
import type { Frame, Geometry } from './scene.ts';
import { transformPoint } from './transforms.ts';

/** A primitive's bounding box in object space, [xmin, xmax, ymin, ymax, zmin, zmax]: from its
 * quadric arguments, else its points (P, or Pw divided by w); undefined for shapes with neither
 * (Blobby, Pz height fields, Geometry), which frame all then leaves to the others. */
export function objectBound(geometry: Geometry): number[] | undefined {
  const a = geometry.args as Record<string, number>;
  switch (geometry.type) {
    case 'Sphere': case 'Cylinder': {
      const r = Math.abs(a.radius!);
      return [-r, r, -r, r, Math.min(a.zmin!, a.zmax!), Math.max(a.zmin!, a.zmax!)];
    }
    case 'Cone': return [-a.radius!, a.radius!, -a.radius!, a.radius!, Math.min(0, a.height!), Math.max(0, a.height!)];
    case 'Disk': return [-a.radius!, a.radius!, -a.radius!, a.radius!, a.height!, a.height!];
    case 'Paraboloid': return [-a.rmax!, a.rmax!, -a.rmax!, a.rmax!, Math.min(a.zmin!, a.zmax!), Math.max(a.zmin!, a.zmax!)];
    case 'Torus': {
      const r = Math.abs(a.majorradius!) + Math.abs(a.minorradius!);
      return [-r, r, -r, r, -Math.abs(a.minorradius!), Math.abs(a.minorradius!)];
    }
    case 'Hyperboloid': {
      const r = Math.max(Math.hypot(a.x1!, a.y1!), Math.hypot(a.x2!, a.y2!));
      return [-r, r, -r, r, Math.min(a.z1!, a.z2!), Math.max(a.z1!, a.z2!)];
    }
  }
  const P = geometry.params.find((p) => p.name === 'P')?.values as number[] | undefined;
  const Pw = geometry.params.find((p) => p.name === 'Pw')?.values as number[] | undefined;
  const stride = P ? 3 : 4;
  const values = P ?? Pw;
  if (!values?.length) return undefined;
  const box = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];
  for (let i = 0; i + stride <= values.length; i += stride) {
    const w = stride === 4 ? values[i + 3]! : 1;
    for (let axis = 0; axis < 3; axis++) {
      const v = values[i + axis]! / w;
      box[axis * 2] = Math.min(box[axis * 2]!, v);
      box[axis * 2 + 1] = Math.max(box[axis * 2 + 1]!, v);
    }
  }
  return box;
}

/** The world-space box [xmin, xmax, ymin, ymax, zmin, zmax] around every primitive objectBound
 * bounds (their boxes' corners moved to world space); undefined when there is none. */
export function worldBound(frame: Frame): number[] | undefined {
  const box = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];
  for (const primitive of frame.primitives) {
    const b = objectBound(primitive.geometry);
    if (!b || !b.every(Number.isFinite)) continue;
    for (let corner = 0; corner < 8; corner++) {
      const p = transformPoint(primitive.objectToWorld, [b[corner & 1 ? 1 : 0]!, b[corner & 2 ? 3 : 2]!, b[corner & 4 ? 5 : 4]!]);
      for (let axis = 0; axis < 3; axis++) {
        box[axis * 2] = Math.min(box[axis * 2]!, p[axis]!);
        box[axis * 2 + 1] = Math.max(box[axis * 2 + 1]!, p[axis]!);
      }
    }
  }
  return Number.isFinite(box[0]) ? box : undefined;
}
