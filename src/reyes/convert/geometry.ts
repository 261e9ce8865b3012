// Geometry "name": the renderer's built-in objects, as PRMan and Aqsis provide them. "teapot" is the
// Utah teapot's 32 Bézier patches (geometry-teapot.ts), whatever the current Basis; "sphere" a full
// sphere of radius 1. Both are converted as the equivalent Patch and Sphere requests would be.
import type { Geometry } from '../../rib/scene.ts';
import { BEZIER_BASIS } from '../../rib/basis.ts';
import { Primvars } from '../primvars.ts';
import type { ConvertContext } from './emit.ts';
import { TEAPOT_PATCHES, TEAPOT_POINTS } from './geometry-teapot.ts';
import { convertPatch } from './patches.ts';
import { convertQuadric } from './quadrics.ts';

export const BUILT_IN_GEOMETRY: ReadonlySet<string> = new Set(['teapot', 'sphere']);

export function convertGeometry(ctx: ConvertContext, geometry: Geometry): void {
  const name = geometry.args.type as string;
  // Only constant variables have one meaning on every built-in object; the others are dropped with a word.
  const constants = geometry.params.filter((p) => p.storage === 'constant');
  const dropped = geometry.params.filter((p) => p.storage !== 'constant').map((p) => `"${p.name}"`);
  if (dropped.length) ctx.warn(`Geometry "${name}" takes only constant primitive variables; ${dropped.join(', ')} ignored`);
  if (name === 'sphere') {
    const sphere: Geometry = { type: 'Sphere', args: { radius: 1, zmin: -1, zmax: 1, thetamax: 360 }, params: constants, counts: geometry.counts, motionSamples: [] };
    convertQuadric({ ...ctx, primvars: new Primvars(constants) }, sphere);
    return;
  }
  if (name !== 'teapot') {
    ctx.warn(`Geometry "${name}" is not a built-in object of this renderer (it has ${[...BUILT_IN_GEOMETRY].map((n) => `"${n}"`).join(' and ')}); skipped`);
    return;
  }
  const attributes = { ...ctx.attributes, uBasis: BEZIER_BASIS, vBasis: BEZIER_BASIS };
  for (const patch of TEAPOT_PATCHES) {
    const P = patch.flatMap((i) => [TEAPOT_POINTS[i * 3]!, TEAPOT_POINTS[i * 3 + 1]!, TEAPOT_POINTS[i * 3 + 2]!]);
    const params = [...constants, { name: 'P', type: 'point' as const, storage: 'vertex' as const, arrayLength: null, values: P, inferred: false }];
    const piece: Geometry = { type: 'Patch', args: { type: 'bicubic' }, params, counts: { constant: 1, uniform: 1, varying: 4, vertex: 16, facevarying: 4, facevertex: 4 }, motionSamples: [] };
    convertPatch({ ...ctx, attributes, primvars: new Primvars(params) }, piece);
  }
}
