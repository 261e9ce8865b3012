// Which lights ask for "auto" shadow maps and the camera each map is rendered from. A light asks by
// giving a string parameter (shadowspot's and shadowdistant's "shadowname") the value "auto". The
// light's kind comes from its shader's name: a spotlight ("spot" in the name) is seen in perspective
// from "from" towards "to" over its cone, a distant light ("distant") orthographically along
// to − from over the scene's world box, a point light ("point") from "from" along the world axis
// its parameter's name ends in (shadowpoint's sfpx … sfnz: one cube face each). Other lights, and
// point light parameters without such an ending, are warned about and left unshadowed.
import { findParameter } from '../../rib/param-typing.ts';
import type { Light, Matrix4, Parameter } from '../../rib/scene.ts';
import { transformPoint } from '../../rib/transforms.ts';

/** The value of a light's map name that asks for an "auto" shadow map. */
export const AUTO = 'auto';

/** Attribute "light" "shadowmapsize" when the RIB gives none. */
export const DEFAULT_SHADOW_MAP_SIZE = 512;

/** Degrees added to a spotlight's full cone (and a cube face's 90°) so the filter's edge stays inside the map. */
const CONE_MARGIN_DEGREES = 5;
/** The widest perspective shadow camera (a wider cone is cut to it). */
const MAX_FOV_DEGREES = 170;

/** The standard spotlight's coneangle (radians(30)) where the RIB gives none. */
const DEFAULT_CONE_ANGLE = Math.PI / 6;

export type ShadowLightKind = 'spot' | 'distant' | 'point';

/** A cube face's world direction from a point light parameter's name (sfpx → +x, ...). */
const FACE = /([pn])([xyz])$/;

/** The camera an "auto" map is rendered from. */
export interface ShadowView {
  projection: 'perspective' | 'orthographic';
  /** Full field of view in degrees (perspective). */
  fov: number;
  screenWindow: [number, number, number, number];
  worldToCamera: Matrix4;
}

const AUTO_NAME_PREFIX = '<auto shadow map of light ';

/** The name the map of the light's `parameter` is known by in the texture registry. */
export function autoShadowName(light: Light, parameter: string): string {
  return `${AUTO_NAME_PREFIX}${light.handle} #${light.id} "${parameter}">`;
}

export function isAutoShadowName(name: string): boolean {
  return name.startsWith(AUTO_NAME_PREFIX);
}

/** The light's string parameters set to "auto". */
export function autoParameters(light: Light): string[] {
  return light.params.filter((p) => p.type === 'string' && p.values[0] === AUTO).map((p) => p.name);
}

export function shadowLightKind(light: Light): ShadowLightKind | undefined {
  if (/spot/i.test(light.shader)) return 'spot';
  if (/distant/i.test(light.shader)) return 'distant';
  if (/point/i.test(light.shader)) return 'point';
  return undefined;
}

/** Why the light's "auto" `parameter` gets no map (the renderer warns at the LightSource), or undefined. */
export function unshadowedReason(light: Light, parameter: string): string | undefined {
  const kind = shadowLightKind(light);
  const why = !kind ? 'its kind (spot, distant or point, from the shader name) is unknown'
    : kind === 'point' && !FACE.test(parameter) ? 'a point light\'s maps are cube faces, named by parameters ending in px, nx, py, ny, pz or nz'
    : undefined;
  return why && `light "${light.shader}" sets "${parameter}" to "auto" but ${why}; that map is left out`;
}

/** The light's parameters as its shader gets them: each "auto" replaced by its map's name, or by ""
 * (no map) where it gets none. */
export function autoShadowParams(light: Light): Parameter[] {
  if (autoParameters(light).length === 0) return light.params;
  return light.params.map((p) => (p.type === 'string' && p.values[0] === AUTO
    ? { ...p, values: [unshadowedReason(light, p.name) ? '' : autoShadowName(light, p.name)] } : p));
}

/** The view of the map of the light's `parameter`; `bound` is the scene's world box (distant lights). */
export function shadowView(light: Light, kind: ShadowLightKind, parameter: string, bound: readonly number[] | undefined): ShadowView {
  const from = lightPoint(light, 'from', [0, 0, 0]);
  if (kind === 'point') {
    const [, sign, axis] = FACE.exec(parameter)!;
    const direction: Vec3 = [0, 0, 0];
    direction['xyz'.indexOf(axis!)] = sign === 'p' ? 1 : -1;
    return { projection: 'perspective', fov: 90 + CONE_MARGIN_DEGREES, screenWindow: [-1, 1, -1, 1], worldToCamera: lookAlong(from, direction) };
  }
  const to = lightPoint(light, 'to', [0, 0, 1]);
  let direction = sub(to, from);
  if (Math.hypot(...direction) === 0) direction = [0, 0, 1];
  if (kind === 'spot') {
    const cone = findParameter(light.params, 'coneangle')?.values[0];
    const degrees = ((typeof cone === 'number' ? cone : DEFAULT_CONE_ANGLE) * 360) / Math.PI + CONE_MARGIN_DEGREES;
    return { projection: 'perspective', fov: Math.min(MAX_FOV_DEGREES, Math.max(1, degrees)), screenWindow: [-1, 1, -1, 1], worldToCamera: lookAlong(from, direction) };
  }
  // Distant: the box's bounding sphere, seen from outside it along the light.
  const box = bound ?? [-1, 1, -1, 1, -1, 1];
  const centre: Vec3 = [(box[0]! + box[1]!) / 2, (box[2]! + box[3]!) / 2, (box[4]! + box[5]!) / 2];
  const radius = Math.max(1e-3, Math.hypot(box[1]! - box[0]!, box[3]! - box[2]!, box[5]! - box[4]!) / 2);
  const d = normalize(direction);
  const eye: Vec3 = [centre[0] - d[0] * 2 * radius, centre[1] - d[1] * 2 * radius, centre[2] - d[2] * 2 * radius];
  return { projection: 'orthographic', fov: 90, screenWindow: [-radius, radius, -radius, radius], worldToCamera: lookAlong(eye, direction) };
}

type Vec3 = [number, number, number];

/** A point parameter of the light in world space (given in its shader space), else `fallback` there. */
function lightPoint(light: Light, name: string, fallback: Vec3): Vec3 {
  const values = findParameter(light.params, name)?.values;
  const p: Vec3 = values && values.length >= 3 && typeof values[0] === 'number' ? [values[0], values[1] as number, values[2] as number] : fallback;
  return transformPoint(light.lightToWorld, p);
}

/** World → camera (RenderMan's: x right, y up, z along `direction`) for an eye at `eye`. */
function lookAlong(eye: Vec3, direction: Vec3): Matrix4 {
  const z = normalize(direction);
  const up: Vec3 = Math.abs(z[1]) < 0.99 ? [0, 1, 0] : [1, 0, 0];
  const x = normalize(cross(up, z));
  const y = cross(z, x);
  const dot = (a: Vec3): number => -(a[0] * eye[0] + a[1] * eye[1] + a[2] * eye[2]);
  // gl-matrix column-major: rows of the rotation are x, y, z.
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, dot(x), dot(y), dot(z), 1];
}

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function normalize(a: Vec3): Vec3 {
  const length = Math.hypot(...a);
  return [a[0] / length, a[1] / length, a[2] / length];
}
