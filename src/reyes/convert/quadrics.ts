// The seven quadrics as records: their arguments (angles in radians) go to the GPU, which
// evaluates P(u, v) over u, v in [0, 1] (reyes-surface.wgsl).
import type { Geometry } from '../../rib/scene.ts';
import type { PrimitiveKindName } from '../../layout/primitive-record.ts';
import { emitPiece, surfaceCorners, type ConvertContext } from './emit.ts';

const radians = (degrees: number): number => (degrees * Math.PI) / 180;

export function convertQuadric(ctx: ConvertContext, geometry: Geometry): void {
  const a = geometry.args as Record<string, number>;
  let kind: PrimitiveKindName;
  let g: number[];
  switch (geometry.type) {
    case 'Sphere': {
      const r = a.radius!;
      const clampAngle = (z: number): number => Math.asin(Math.max(-1, Math.min(1, z / r)));
      kind = 'sphere';
      g = [r, clampAngle(Math.min(a.zmin!, a.zmax!)), clampAngle(Math.max(a.zmin!, a.zmax!)), radians(a.thetamax!)];
      break;
    }
    case 'Cone': kind = 'cone'; g = [a.height!, a.radius!, radians(a.thetamax!)]; break;
    case 'Cylinder': kind = 'cylinder'; g = [a.radius!, a.zmin!, a.zmax!, radians(a.thetamax!)]; break;
    case 'Hyperboloid': kind = 'hyperboloid'; g = [a.x1!, a.y1!, a.z1!, a.x2!, a.y2!, a.z2!, radians(a.thetamax!)]; break;
    case 'Paraboloid': kind = 'paraboloid'; g = [a.rmax!, a.zmin!, a.zmax!, radians(a.thetamax!)]; break;
    case 'Disk': kind = 'disk'; g = [a.height!, a.radius!, radians(a.thetamax!)]; break;
    case 'Torus':
      kind = 'torus';
      g = [a.majorradius!, a.minorradius!, radians(a.phimin!), radians(a.phimax!), radians(a.thetamax!)];
      break;
    default:
      throw new Error(`not a quadric: ${geometry.type}`);
  }
  emitPiece(ctx, kind, g, surfaceCorners());
}
