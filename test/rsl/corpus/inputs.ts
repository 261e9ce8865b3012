// The inputs the corpus shades: small grids with smooth, non-linear geometry (so derivatives are not
// trivially constant), non-identity space matrices (so a wrong space or matrix order shows), and the
// light sets the lighting snippets run under.
import { mat4 } from 'gl-matrix';
import type { SpaceName } from '../../../src/layout/grid-layout.ts';
import type { GridValues } from '../../../src/rsl/interpreter/interpreter.ts';
import type { ShaderRef } from '../../../src/rsl/compile.ts';

export interface GridInput {
  nu: number;
  nv: number;
  grid: GridValues;
}

function normalize(a: number[]): number[] {
  const l = Math.hypot(...a);
  return a.map((x) => x / l);
}

function cross(a: number[], b: number[]): number[] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}

/** An nu × nv patch of a gently curved surface in front of the camera (z around 3). */
function patch(nu: number, nv: number): GridInput {
  const grid: GridValues = {};
  const put = (name: string, value: number[]): void => {
    (grid[name] ??= []).push(value);
  };
  const du = nu > 1 ? 1 / (nu - 1) : 1;
  const dv = nv > 1 ? 1 / (nv - 1) : 1;
  for (let j = 0; j < nv; j++) {
    for (let i = 0; i < nu; i++) {
      const u = nu > 1 ? i * du : 0.4;
      const v = nv > 1 ? j * dv : 0.4;
      const P = [2 * u - 1 + 0.2 * v * v, 1.5 * v - 0.75 + 0.1 * u * u, 3 + 0.5 * u * v];
      const dPdu = [2, 0.2 * u, 0.5 * v];
      const dPdv = [0.4 * v, 1.5, 0.5 * u];
      // Facing the camera (negative z), as a front-facing surface in RenderMan's left-handed camera space.
      const N = normalize(cross(dPdv, dPdu));
      put('P', P);
      put('N', N);
      put('Ng', N);
      put('I', P);
      put('dPdu', dPdu);
      put('dPdv', dPdv);
      put('u', [u]);
      put('v', [v]);
      put('du', [du]);
      put('dv', [dv]);
      put('s', [0.3 + 0.5 * u]);
      put('t', [0.2 + 0.6 * v]);
      put('Cs', [0.2 + 0.6 * u, 0.3 + 0.4 * v, 0.7 - 0.3 * u * v]);
      put('Os', [0.8 + 0.2 * u, 0.9, 1 - 0.1 * v]);
    }
  }
  return { nu, nv, grid };
}

export const GRIDS = {
  /** 4 × 3: nu ≠ nv, so a transposed derivative or index shows. */
  curved: patch(4, 3),
  /** 1 × 4: one vertex wide, so Du() is 0 by definition. */
  strip: patch(1, 4),
} as const;

export type GridName = keyof typeof GRIDS;

const m = (f: (out: mat4) => void): number[] => {
  const out = mat4.create();
  f(out);
  return Array.from(out);
};

/** Space → camera matrices: rigid, scaled, and one projective (screen), each different. */
export const TO_CURRENT: Partial<Record<SpaceName, number[]>> = {
  world: m((o) => {
    mat4.fromTranslation(o, [0.5, -0.2, 1]);
    mat4.rotateY(o, o, 0.3);
  }),
  object: m((o) => {
    mat4.fromTranslation(o, [1, 2, 3]);
    mat4.rotateZ(o, o, -0.4);
    mat4.scale(o, o, [2, 1, 0.5]);
  }),
  shader: m((o) => {
    mat4.fromTranslation(o, [-1, 1, 0.5]);
    mat4.rotateX(o, o, 0.2);
  }),
  screen: m((o) => {
    mat4.fromScaling(o, [1.5, 1.5, 1]);
    o[3] = 0.05;
    o[11] = 0.1;
  }),
  raster: m((o) => mat4.fromScaling(o, [0.01, -0.01, 1])),
  NDC: m((o) => {
    mat4.fromTranslation(o, [-0.5, 0.5, 0]);
    mat4.scale(o, o, [2, -2, 1]);
  }),
};

const CATEGORY_LIGHT = `light catlight(string __category = "key"; float intensity = 2; point from = point "world" (1, 2, -3)) {
  illuminate(from) { Cl = intensity * color(0.5, 0.8, 1) / (L . L); }
}`;
const SUN_LIGHT = `light sunlight(vector dir = vector(0.3, -0.5, 1); string __category = "fill,rim") {
  solar(dir, 0.1) { Cl = color(0.9, 0.7, 0.4); Ol = color(0.5); }
}`;
const CONE_LIGHT = `light conelight(point from = point(0, 0, -1); vector axis = vector(0, 0, 1); float angle = 0.4) {
  illuminate(from, axis, angle) { Cl = color(1, 0.5, 0.25) * (1 + 0.1 * length(L)); }
}`;

// Message passing: a light with output parameters it assigns (lightsource() reads them after the
// light ran) and a string and a colour parameter; a light that reads the surface's parameter msgKd
// with surface() and has a fractional __nondiffuse.
const MESSAGE_LIGHT = `light msglight(float intensity = 1.5; color tint = color(0.2, 0.4, 0.6); float tag = 7; string name = "keyname";
    output varying float __nonspecular = 0) {
  illuminate(point(0, 0, -1)) { Cl = intensity * tint / (1 + 0.05 * (L . L)); __nonspecular = 1; }
}`;
const SURFACE_READING_LIGHT = `light msglight2(float intensity = 0.8; float __nondiffuse = 0.25; string __category = "msgb"; output varying float tag = 0) {
  float kd = 0;
  if (surface("msgKd", kd) == 0) kd = -1;
  solar(vector(0.2, -0.4, 1), 0) { Cl = color(intensity) * (1 + kd); tag = 3 + kd; }
}`;

/** Option values every corpus pipeline is compiled with (option() snippets). */
export const CORPUS_OPTIONS: Record<string, number[] | string> = { Format: [640, 480, 1], CropWindow: [0, 1, 0.25, 0.75], 'user:quality': [2], 'user:mode': 'fast' };

/** The lights bound to a corpus pipeline (light0, light1, ... in this order) and parameter values that put them where they reach the patch. */
export const LIGHT_SETS: Record<string, { lights: ShaderRef[]; overrides: Record<string, number[]> }> = {
  none: { lights: [], overrides: {} },
  standard: {
    lights: ['ambientlight', 'distantlight', 'pointlight', 'spotlight'],
    overrides: {
      'light0.intensity': [0.3], 'light2.intensity': [6], 'light2.from': [0.5, 1, -1],
      'light3.from': [0, 0, -1], 'light3.to': [0, 0, 3], 'light3.intensity': [8], 'light3.coneangle': [0.6],
    },
  },
  custom: { lights: [{ source: CATEGORY_LIGHT }, { source: SUN_LIGHT }, { source: CONE_LIGHT }, 'ambientlight'], overrides: { 'light3.intensity': [0.2] } },
  messages: { lights: [{ source: MESSAGE_LIGHT }, { source: SURFACE_READING_LIGHT }, 'ambientlight'], overrides: { 'light2.intensity': [0.1] } },
};

/** packParameters overrides giving every instance's "shader" space and the primitive's "object" space
 * TO_CURRENT's matrices (the kernels read those two from the parameter block, not FrameUniforms). */
export const SPACE_OVERRIDES: Record<string, number[]> = { __objectToCurrent: TO_CURRENT.object!, __shaderToCurrent: TO_CURRENT.shader! };
