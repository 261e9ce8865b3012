// The predefined variables of each shader kind (RenderMan Interface 3.2, section 12), with their
// types, whether they vary over the grid and whether the shader may write them.
import type { ShaderKind } from './ast.ts';
import type { TypeName } from './types.ts';

export interface GlobalVariable {
  name: string;
  type: TypeName;
  varying: boolean;
  writable: boolean;
}

const g = (name: string, type: TypeName, varying = true, writable = false): GlobalVariable => ({ name, type, varying, writable });

const SURFACE_INPUTS = [
  g('Cs', 'color'), g('Os', 'color'), g('P', 'point'), g('dPdu', 'vector'), g('dPdv', 'vector'), g('N', 'normal'),
  g('Ng', 'normal'), g('u', 'float'), g('v', 'float'), g('du', 'float'), g('dv', 'float'), g('s', 'float'), g('t', 'float'),
  g('I', 'vector'), g('E', 'point', false), g('ncomps', 'float', false), g('time', 'float', false), g('dtime', 'float', false),
  g('dPdtime', 'vector'),
];

/** Surface and displacement shaders may move P and change N (bump mapping in the surface, RI 3.2 section 12). */
const MOVABLE_SURFACE = SURFACE_INPUTS.map((v) => (v.name === 'P' || v.name === 'N' ? { ...v, writable: true } : v));

export const GLOBALS: Record<ShaderKind, GlobalVariable[]> = {
  surface: [...MOVABLE_SURFACE, g('Ci', 'color', true, true), g('Oi', 'color', true, true)],
  displacement: MOVABLE_SURFACE,
  light: [
    g('Ps', 'point'), g('P', 'point'), g('N', 'normal'), g('Ng', 'normal'), g('u', 'float'), g('v', 'float'), g('du', 'float'),
    g('dv', 'float'), g('s', 'float'), g('t', 'float'), g('dPdu', 'vector'), g('dPdv', 'vector'), g('E', 'point', false),
    g('ncomps', 'float', false), g('time', 'float', false), g('L', 'vector', true, true), g('Cl', 'color', true, true),
    // The incident ray of the point being lit, as PRMan and Aqsis give lights.
    g('I', 'vector'),
    g('Ol', 'color', true, true),
  ],
  volume: [g('P', 'point'), g('I', 'vector'), g('E', 'point', false), g('Ci', 'color', true, true), g('Oi', 'color', true, true), g('ncomps', 'float', false), g('time', 'float', false)],
  // RI 3.2 section 12.5 and table 12.5: P is the pixel centre in raster space (z = 0); Ci and Oi the
  // filtered, premultiplied colour and opacity; alpha the pixel's coverage (per pixel, so varying,
  // and writable as in the standard background imager). No lights, no surface parameters.
  imager: [
    g('P', 'point'), g('Ci', 'color', true, true), g('Oi', 'color', true, true), g('alpha', 'float', true, true), g('ncomps', 'float', false),
    g('time', 'float', false), g('dtime', 'float', false),
  ],
};

/** Inside an illuminance statement a surface also sees the light's L and Cl (and Ol). */
export const ILLUMINANCE_GLOBALS = [g('L', 'vector'), g('Cl', 'color'), g('Ol', 'color')];
