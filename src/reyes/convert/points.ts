// Points as camera-facing disks: each point becomes one disk record of radius width / 2, placed by its
// own matrix at the point's camera-space position with the disk's +z (its geometric normal) towards
// the eye, so that it faces the camera whatever the object's orientation. Its variables (Cs, Os, user
// variables) are the point's values at all four corners: a point is flat over its disk.
// One record per point (RECORD.floats words) is what a point costs on the GPU.
import { mat4, vec3 } from 'gl-matrix';
import type { CornerRef } from '../primvars.ts';
import { PrimitiveFlag } from '../../layout/primitive-record.ts';
import { lengthScale, viewDirection, widths } from './camera-facing.ts';
import { emitPiece, type ConvertContext } from './emit.ts';

/** A matrix whose z axis is `-toward` (unit) and whose origin is `origin`: a right-handed frame, so
 * the disk's normal +z (dPdu × dPdv) lands on -toward, facing back along the view ray. */
export function facingFrame(origin: ArrayLike<number>, toward: vec3): mat4 {
  const z = vec3.negate(vec3.create(), toward);
  const up = Math.abs(z[1]) < 0.9 ? vec3.fromValues(0, 1, 0) : vec3.fromValues(1, 0, 0);
  const x = vec3.normalize(vec3.create(), vec3.cross(vec3.create(), up, z));
  const y = vec3.cross(vec3.create(), z, x);
  return mat4.fromValues(x[0], x[1], x[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, origin[0]!, origin[1]!, origin[2]!, 1);
}

export function convertPoints(ctx: ConvertContext, perspective: boolean): void {
  const positions = ctx.primvars.positions();
  if (!positions) return ctx.warn('Points without P is skipped');
  const given = widths(ctx.primvars);
  const scale = lengthScale(ctx.common.objectToCamera);
  // Facing the camera is not a matter of orientation: the frame already points the normal at the eye.
  const facing: ConvertContext = { ...ctx, common: { ...ctx.common, flags: ctx.common.flags & ~PrimitiveFlag.flipNormal } };
  const objectToCamera = ctx.common.objectToCamera as mat4;
  const p = vec3.create();
  let skipped = 0;
  for (let i = 0; i * 3 + 2 < positions.length; i++) {
    const width = 'constant' in given ? given.constant : given.values[given.param.storage === 'constant' || given.param.storage === 'uniform' ? 0 : i] ?? 1;
    const radius = (width * scale) / 2;
    if (!(radius > 0)) {
      skipped++;
      continue;
    }
    vec3.transformMat4(p, vec3.set(p, positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!), objectToCamera);
    const refs: CornerRef[] = [0, 1, 2, 3].map((k) => ({ uniform: 0, varying: i, vertex: i, facevarying: i, u: k & 1, v: k >> 1 }));
    emitPiece(facing, 'disk', [0, radius, 2 * Math.PI], refs, undefined, facingFrame(p, viewDirection(p, perspective)));
  }
  if (skipped) ctx.warn(`Points: ${skipped} point${skipped === 1 ? '' : 's'} of width 0 or less drawn as nothing`);
}
