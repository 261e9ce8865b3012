// The named spline bases of RI 3.2 and their default steps. Matrices are in RenderMan's order
// as written in a RIB Basis request.

import type { Basis } from './scene.ts';

const sixth = 1 / 6;

const NAMED: Record<string, { matrix: number[]; step: number }> = {
  bezier: { matrix: [-1, 3, -3, 1, 3, -6, 3, 0, -3, 3, 0, 0, 1, 0, 0, 0], step: 3 },
  'b-spline': {
    matrix: [-1, 3, -3, 1, 3, -6, 3, 0, -3, 0, 3, 0, 1, 4, 1, 0].map((v) => v * sixth),
    step: 1,
  },
  'catmull-rom': {
    matrix: [-1, 3, -3, 1, 2, -5, 4, -1, -1, 0, 1, 0, 0, 2, 0, 0].map((v) => v * 0.5),
    step: 1,
  },
  hermite: { matrix: [2, 1, -2, 1, -3, -2, 3, -1, 0, 1, 0, 0, 1, 0, 0, 0], step: 2 },
  power: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], step: 4 },
};

export const BASIS_NAMES: readonly string[] = Object.keys(NAMED);

/** The named basis, or null when the name is not one of RI's. */
export function namedBasis(name: string, step: number): Basis | null {
  const b = NAMED[name];
  return b ? { name, matrix: b.matrix.slice(), step } : null;
}

export function defaultStep(name: string): number | null {
  return NAMED[name]?.step ?? null;
}

export const BEZIER_BASIS: Basis = namedBasis('bezier', 3)!;
