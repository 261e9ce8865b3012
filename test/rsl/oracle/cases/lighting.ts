// Shading and lighting functions (RI 3.2 section 15.5) under two lights with known values: an ambient
// light (no illuminate or solar: it only feeds ambient()) and a distant light shining along +z, so
// that L, the direction from the surface to the light, is -z. Expected values from the spec's
// definitions: diffuse = sum Cl (normalize(L) . N) over lights within 90 degrees of N; specular = sum Cl
// specularbrdf(normalize(L), N, V, roughness), H = normalize(L + V); phong = sum Cl
// max(0, R . normalize(L))^size with R = reflect(-V, N). The spec leaves specularbrdf to the renderer
// (its example is max(0, N . H)^(1/roughness)); the expected values take PRMan's, BMRT's and Aqsis's,
// max(0, N . H)^(8/roughness), measured against Aqsis 1.8.4 (test/reyes/conformance-specular.test.ts).
import type { ShaderRef } from '../../../../src/rsl/compile.ts';
import type { OracleCase } from '../oracle-case.ts';
import { nm, oc, vc } from '../oracle-case.ts';
import { add, dot, mul, sub, unit } from '../reference.ts';

const AMBIENT = [0.1, 0.2, 0.3];
const SUN = [1, 0.5, 0.25];
const L = [0, 0, -1];

export const LIGHTS: ShaderRef[] = [
  { source: `light oracle_ambient() { Cl = color(${AMBIENT.join(', ')}); }`, file: 'oracle-ambient.sl' },
  { source: `light oracle_sun() { solar(vector(0, 0, 1), 0) { Cl = color(${SUN.join(', ')}); } }`, file: 'oracle-sun.sl' },
];

const specularbrdf = (l: number[], n: number[], v: number[], roughness: number): number => Math.pow(Math.max(0, dot(n, unit(add(l, v)))), 8 / roughness);
const reflect = (i: number[], n: number[]): number[] => sub(i, mul(n, 2 * dot(i, n)));
const sun = (k: number): number[] => SUN.map((c) => c * k);

const N1 = unit([0, 0.6, -0.8]);
const N2 = unit([0.3, -0.2, -1]);
const V1 = unit([0.2, 0.1, -1]);
const AWAY = [0, 0, 1];

export const LIGHTING_CASES: OracleCase[] = [
  oc('color', 'ambient()', {}, AMBIENT),
  oc('color', 'diffuse(n)', { n: nm(N1[0]!, N1[1]!, N1[2]!) }, sun(dot(L, N1))),
  oc('color', 'diffuse(n)', { n: nm(N2[0]!, N2[1]!, N2[2]!) }, sun(dot(L, N2))),
  oc('color', 'diffuse(n)', { n: nm(AWAY[0]!, AWAY[1]!, AWAY[2]!) }, [0, 0, 0]),
  oc('color', 'diffuse(n)', { n: nm(0, 0, -2) }, sun(1)),
  oc('color', 'specular(n, v, r)', { n: nm(N1[0]!, N1[1]!, N1[2]!), v: vc(V1[0]!, V1[1]!, V1[2]!), r: 0.1 }, sun(specularbrdf(L, N1, V1, 0.1))),
  oc('color', 'specular(n, v, r)', { n: nm(N2[0]!, N2[1]!, N2[2]!), v: vc(V1[0]!, V1[1]!, V1[2]!), r: 0.3 }, sun(specularbrdf(L, N2, V1, 0.3))),
  oc('color', 'specular(n, v, r)', { n: nm(AWAY[0]!, AWAY[1]!, AWAY[2]!), v: vc(V1[0]!, V1[1]!, V1[2]!), r: 0.3 }, [0, 0, 0]),
  oc('color', 'specularbrdf(l, n, v, r)', { l: vc(0, 0, -1), n: nm(N2[0]!, N2[1]!, N2[2]!), v: vc(V1[0]!, V1[1]!, V1[2]!), r: 0.2 }, [1, 1, 1].map(() => specularbrdf(L, N2, V1, 0.2))),
  oc('color', 'specularbrdf(l, n, v, r)', { l: vc(0, 0.6, -0.8), n: nm(0, 0, -1), v: vc(0, -0.6, -0.8), r: 0.5 }, [1, 1, 1]),
  oc('color', 'phong(n, v, e)', { n: nm(N1[0]!, N1[1]!, N1[2]!), v: vc(V1[0]!, V1[1]!, V1[2]!), e: 20 }, sun(Math.pow(Math.max(0, dot(reflect(mul(V1, -1), N1), L)), 20))),
  oc('color', 'phong(n, v, e)', { n: nm(N2[0]!, N2[1]!, N2[2]!), v: vc(V1[0]!, V1[1]!, V1[2]!), e: 5 }, sun(Math.pow(Math.max(0, dot(reflect(mul(V1, -1), N2), L)), 5))),
  { ...oc('color', 'acc', { n: nm(N1[0]!, N1[1]!, N1[2]!) }, sun(dot(L, N1))), setup: 'color acc = 0; illuminance(P, n, PI / 2) { acc += Cl * (normalize(L) . n); }' },
  { ...oc('color', 'acc', { n: nm(N1[0]!, N1[1]!, N1[2]!) }, L), setup: 'color acc = 0; illuminance(P, n, PI / 2) { vector l = normalize(L); acc += color(xcomp(l), ycomp(l), zcomp(l)); }' },
];
