// Numbers a primitive cannot be placed with: NaN or ±Infinity as the GPU's 32-bit floats hold
// them, in its transform, its positional arguments or its positions (1e999 or 1e39 in a RIB, or
// Scales whose product overflows). Such a primitive would turn every bound and split it touches
// into NaN; the scene builder drops it with a warning.
import type { Geometry, Matrix4 } from './scene.ts';

const POSITIONS = new Set(['P', 'Pw', 'Pz']);

function allFinite(values: readonly (number | string)[]): boolean {
  for (const v of values) if (typeof v === 'number' && !Number.isFinite(Math.fround(v))) return false;
  return true;
}

/** What of a primitive is not finite ("the transform", "P", "radius"), or undefined when all is. */
export function nonFiniteInput(geometry: Geometry, matrices: readonly Matrix4[]): string | undefined {
  if (!matrices.every(allFinite)) return 'the transform';
  for (const [name, value] of Object.entries(geometry.args)) {
    if (!allFinite(Array.isArray(value) ? value : [value])) return `"${name}"`;
  }
  for (const p of geometry.params) if (POSITIONS.has(p.name) && !allFinite(p.values)) return `"${p.name}"`;
  for (const sample of geometry.motionSamples) {
    const what = nonFiniteInput(sample, []);
    if (what !== undefined) return what;
  }
  return undefined;
}
