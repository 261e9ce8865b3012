// The RSL standard library as data: one row per signature, "ret name(arg, ...)", with how it
// is implemented. Type letters expand: T = float|color|point|vector|normal, Q = point|vector|normal,
// C = color|point|vector|normal. "..." means any number of further arguments of the last type.
// An implementation is a WGSL template ($0, $1 are the arguments, $T the WGSL type of the result,
// $R its IR type name for typed helpers)
// or '@name', a construct the lowering handles itself (lighting, derivatives, message passing).
import type { RslType, TypeName } from './types.ts';

export interface BuiltinSignature {
  name: string;
  result: RslType;
  params: { type: RslType; output: boolean }[];
  variadic: boolean;
  impl: string;
  /** Varying whenever called from varying code, whatever the arguments (e.g. noise of uniform args is uniform; random() is not). */
  alwaysVarying: boolean;
}

const TABLE: [string, string][] = [
  // Mathematical
  ['float radians(float)', 'radians($0)'],
  ['float degrees(float)', 'degrees($0)'],
  ['float sin(float)', 'sin($0)'],
  ['float asin(float)', 'rsl_asin($0)'],
  ['float cos(float)', 'cos($0)'],
  ['float acos(float)', 'rsl_acos($0)'],
  ['float tan(float)', 'tan($0)'],
  ['float atan(float)', 'atan($0)'],
  ['float atan(float,float)', 'atan2($0, $1)'],
  ['T pow(T,float)', 'rsl_pow_$R($0, $T($1))'],
  ['T exp(T)', 'exp($0)'],
  ['T sqrt(T)', 'sqrt($0)'],
  ['T inversesqrt(T)', 'inverseSqrt($0)'],
  ['T log(T)', 'log($0)'],
  ['float log(float,float)', '(log($0) / log($1))'],
  ['T mod(T,float)', 'rsl_mod_$R($0, $T($1))'],
  ['T mod(T,T)', 'rsl_mod_$R($0, $1)'],
  ['T abs(T)', 'abs($0)'],
  ['T sign(T)', 'sign($0)'],
  ['T min(T,T,...)', '@minmax'],
  ['T max(T,T,...)', '@minmax'],
  ['T clamp(T,T,T)', 'clamp($0, $1, $2)'],
  ['T mix(T,T,float)', 'mix($0, $1, $2)'],
  ['T mix(T,T,T)', 'mix($0, $1, $2)'],
  ['T floor(T)', 'floor($0)'],
  ['T ceil(T)', 'ceil($0)'],
  ['T round(T)', 'round($0)'],
  ['float step(float,float)', 'step($0, $1)'],
  ['float smoothstep(float,float,float)', 'smoothstep($0, $1, $2)'],
  // The three-value form first: with equal cost the first row wins, and a parameter list starts with a string.
  ['float filterstep(float,float,float,...)', '@filterstep'],
  ['float filterstep(float,float,...)', '@filterstep'],
  ['T spline(float,T,T,T,T,...)', '@spline'],
  ['T spline(string,float,T,T,T,T,...)', '@spline'],
  ['T spline(float,T[])', '@spline'],
  ['T spline(string,float,T[])', '@spline'],
  // The length of an array (a constant: every array has a compile-time length).
  ['float arraylength(T[])', '@arraylength'],
  ['float arraylength(matrix[])', '@arraylength'],
  ['float arraylength(string[])', '@arraylength'],
  ['T Du(T)', '@Du'],
  ['T Dv(T)', '@Dv'],
  ['T Deriv(T,float)', '@Deriv'],
  ['float random()', '@random'],
  ['color random()', '@random'],
  ['point random()', '@random'],
  // Noise (section 15.1): 1-, 2- and 3-D forms are slices of the 3-D noise; (point, float) is 4-D.
  ['float noise(float)', 'rsl_noise1(vec3f($0, 0.0, 0.0))'],
  ['float noise(float,float)', 'rsl_noise1(vec3f($0, $1, 0.0))'],
  ['float noise(Q)', 'rsl_noise1($0)'],
  ['float noise(Q,float)', 'rsl_noise4_1($0, $1)'],
  ['C noise(float)', 'rsl_noise3(vec3f($0, 0.0, 0.0))'],
  ['C noise(float,float)', 'rsl_noise3(vec3f($0, $1, 0.0))'],
  ['C noise(Q)', 'rsl_noise3($0)'],
  ['C noise(Q,float)', 'rsl_noise4_3($0, $1)'],
  ['float pnoise(float,float)', 'rsl_pnoise1(vec3f($0, 0.0, 0.0), vec3f($1, 0.0, 0.0))'],
  ['float pnoise(float,float,float,float)', 'rsl_pnoise1(vec3f($0, $1, 0.0), vec3f($2, $3, 0.0))'],
  ['float pnoise(Q,Q)', 'rsl_pnoise1($0, $1)'],
  ['float pnoise(Q,float,Q,float)', 'rsl_pnoise4_1($0, $1, $2, $3)'],
  ['C pnoise(float,float)', 'rsl_pnoise3(vec3f($0, 0.0, 0.0), vec3f($1, 0.0, 0.0))'],
  ['C pnoise(float,float,float,float)', 'rsl_pnoise3(vec3f($0, $1, 0.0), vec3f($2, $3, 0.0))'],
  ['C pnoise(Q,Q)', 'rsl_pnoise3($0, $1)'],
  ['C pnoise(Q,float,Q,float)', 'rsl_pnoise4_3($0, $1, $2, $3)'],
  ['float cellnoise(float)', 'rsl_cellnoise1(vec3f($0, 0.0, 0.0))'],
  ['float cellnoise(float,float)', 'rsl_cellnoise1(vec3f($0, $1, 0.0))'],
  ['float cellnoise(Q)', 'rsl_cellnoise1($0)'],
  ['float cellnoise(Q,float)', 'rsl_cellnoise4_1($0, $1)'],
  ['C cellnoise(float)', 'rsl_cellnoise3(vec3f($0, 0.0, 0.0))'],
  ['C cellnoise(float,float)', 'rsl_cellnoise3(vec3f($0, $1, 0.0))'],
  ['C cellnoise(Q)', 'rsl_cellnoise3($0)'],
  ['C cellnoise(Q,float)', 'rsl_cellnoise4_3($0, $1)'],
  // Geometric
  ['float xcomp(Q)', '$0.x'],
  ['float ycomp(Q)', '$0.y'],
  ['float zcomp(Q)', '$0.z'],
  ['void setxcomp(output Q,float)', '@setcomp0'],
  ['void setycomp(output Q,float)', '@setcomp1'],
  ['void setzcomp(output Q,float)', '@setcomp2'],
  ['float length(Q)', 'length($0)'],
  ['Q normalize(Q)', 'rsl_normalize($0)'],
  ['float distance(point,point)', 'distance($0, $1)'],
  ['float ptlined(point,point,point)', 'rsl_ptlined($0, $1, $2)'],
  ['point rotate(point,float,point,point)', 'rsl_rotate($0, $1, $2, $3)'],
  ['float area(point)', '@area'],
  ['vector faceforward(vector,vector)', '@faceforward'],
  ['vector faceforward(vector,vector,vector)', 'rsl_faceforward($0, $1, $2)'],
  ['vector reflect(vector,vector)', 'reflect($0, $1)'],
  ['vector refract(vector,vector,float)', 'refract($0, $1, $2)'],
  ['void fresnel(vector,normal,float,output float,output float)', '@fresnel'],
  ['void fresnel(vector,normal,float,output float,output float,output vector,output vector)', '@fresnel'],
  ['point transform(string,point)', '@transform'],
  ['point transform(string,string,point)', '@transform'],
  ['point transform(matrix,point)', '@transform'],
  ['point transform(string,matrix,point)', '@transform'],
  ['vector vtransform(string,vector)', '@transform'],
  ['vector vtransform(string,string,vector)', '@transform'],
  ['vector vtransform(matrix,vector)', '@transform'],
  ['vector vtransform(string,matrix,vector)', '@transform'],
  ['normal ntransform(string,normal)', '@transform'],
  ['normal ntransform(string,string,normal)', '@transform'],
  ['normal ntransform(matrix,normal)', '@transform'],
  ['normal ntransform(string,matrix,normal)', '@transform'],
  ['float depth(point)', 'rsl_depth($0)'],
  ['normal calculatenormal(point)', '@calculatenormal'],
  // Colour
  ['float comp(color,float)', '$0[u32($1)]'],
  ['void setcomp(output color,float,float)', '@setcomp'],
  ['color ctransform(string,color)', '@ctransform'],
  ['color ctransform(string,string,color)', '@ctransform'],
  // Matrix
  ['float comp(matrix,float,float)', '$0[u32($1)][u32($2)]'],
  ['void setcomp(output matrix,float,float,float)', '@setcomp'],
  ['float determinant(matrix)', 'determinant($0)'],
  ['matrix translate(matrix,vector)', '($0 * rsl_translate($1))'],
  ['matrix rotate(matrix,float,vector)', '($0 * rsl_rotation($1, $2))'],
  ['matrix scale(matrix,point)', '($0 * rsl_scale($1))'],
  // String (only what is known at compile time runs; strings are integer tokens on the GPU)
  ['string concat(string,string,...)', '@concat'],
  ['void printf(string,...)', '@printf'],
  ['string format(string,...)', '@format'],
  ['float match(string,string)', '@match'],
  // Shading and lighting
  ['color ambient()', '@ambient'],
  ['color diffuse(normal)', '@diffuse'],
  ['color specular(normal,vector,float)', '@specular'],
  ['color specularbrdf(vector,normal,vector,float)', 'rsl_specularbrdf($0, $1, $2, $3)'],
  ['color phong(normal,vector,float)', '@phong'],
  // Ray tracing: this renderer traces no rays, so these answer what a renderer without ray tracing
  // does (the lowering warns once per shader): nothing hit, nothing in the way, nothing occluded.
  ['color trace(point,vector,...)', '@raytrace'],
  ['float trace(point,vector,...)', '@raytrace'],
  ['color transmission(point,point,...)', '@raytrace'],
  ['float transmission(point,point,...)', '@raytrace'],
  ['float visibility(point,point)', '@raytrace'],
  ['float occlusion(point,normal,float,...)', '@raytrace'],
  ['color indirectdiffuse(point,normal,float,...)', '@raytrace'],
  ['float rayinfo(string,output float)', '@rayinfo'],
  ['float rayinfo(string,output C)', '@rayinfo'],
  ['float rayinfo(string,output string)', '@rayinfo'],
  // Texture mapping: the first argument may select a channel, texture("map"[1], ...)
  ['float texture(string,...)', '@texture'],
  ['color texture(string,...)', '@texture'],
  ['float environment(string,...)', '@texture'],
  ['color environment(string,...)', '@texture'],
  ['float shadow(string,...)', '@shadow'],
  ['color shadow(string,...)', '@shadow'],
  ['float textureinfo(string,string,output float)', '@info'],
  ['float textureinfo(string,string,output point)', '@info'],
  ['float textureinfo(string,string,output matrix)', '@info'],
  ['float textureinfo(string,string,output string)', '@info'],
  // Message passing and information
  ['float atmosphere(string,output float)', '@message'],
  ['float atmosphere(string,output C)', '@message'],
  ['float atmosphere(string,output string)', '@message'],
  ['float displacement(string,output float)', '@message'],
  ['float displacement(string,output C)', '@message'],
  ['float displacement(string,output string)', '@message'],
  ['float lightsource(string,output float)', '@message'],
  ['float lightsource(string,output C)', '@message'],
  ['float lightsource(string,output string)', '@message'],
  ['float surface(string,output float)', '@message'],
  ['float surface(string,output C)', '@message'],
  ['float surface(string,output string)', '@message'],
  ['float incident(string,output float)', '@message'],
  ['float incident(string,output C)', '@message'],
  ['float opposite(string,output float)', '@message'],
  ['float opposite(string,output C)', '@message'],
  ['float attribute(string,output float)', '@info'],
  ['float attribute(string,output C)', '@info'],
  ['float attribute(string,output string)', '@info'],
  ['float attribute(string,output matrix)', '@info'],
  ['float option(string,output float)', '@info'],
  ['float option(string,output C)', '@info'],
  ['float option(string,output string)', '@info'],
  ['float rendererinfo(string,output float)', '@info'],
  ['float rendererinfo(string,output string)', '@info'],
  ['string shadername()', '@shadername'],
  ['string shadername(string)', '@shadername'],
];

/** The array length of a parameter written "T[]": an array of any length. */
export const ANY_LENGTH = -1;

/** The spline bases (RI 3.2 RiBasis and section 15.1): knots between segments, and the WGSL weights helper. */
export const SPLINE_BASES: Record<string, { step: number; wgsl: string }> = {
  'catmull-rom': { step: 1, wgsl: 'catmull_rom' },
  bezier: { step: 3, wgsl: 'bezier' },
  bspline: { step: 1, wgsl: 'bspline' },
  'b-spline': { step: 1, wgsl: 'bspline' },
  hermite: { step: 2, wgsl: 'hermite' },
  power: { step: 4, wgsl: 'power' },
  linear: { step: 1, wgsl: 'linear' },
};

const EXPANSIONS: Record<string, TypeName[]> = {
  T: ['float', 'color', 'point', 'vector', 'normal'],
  Q: ['point', 'vector', 'normal'],
  C: ['color', 'point', 'vector', 'normal'],
};

const ALWAYS_VARYING = new Set(['random', 'Du', 'Dv', 'Deriv', 'area', 'calculatenormal']);

function parseRow(signature: string, impl: string): BuiltinSignature[] {
  const match = /^(\w+) (\w+)\((.*)\)$/.exec(signature);
  if (!match) throw new Error(`bad builtin signature ${signature}`);
  const [, result, name, list] = match as unknown as [string, string, string, string];
  const items = list === '' ? [] : list.split(',');
  const variadic = items[items.length - 1] === '...';
  if (variadic) items.pop();
  const letters = [...new Set([result, ...items.map((item) => item.replace('output ', '').replace('[]', ''))].filter((t) => t in EXPANSIONS))];
  // Every combination of the type letters used in this row.
  let bindings: Record<string, TypeName>[] = [{}];
  for (const letter of letters) bindings = bindings.flatMap((b) => EXPANSIONS[letter]!.map((choice) => ({ ...b, [letter]: choice })));
  return bindings.map((binding) => {
    const resolve = (t: string): RslType => {
      const element = t.replace('[]', '');
      return { name: (binding[element] ?? element) as TypeName, ...(t.endsWith('[]') ? { arrayLength: ANY_LENGTH } : {}) };
    };
    return {
      name,
      result: resolve(result),
      params: items.map((item) => ({ output: item.startsWith('output '), type: resolve(item.replace('output ', '')) })),
      variadic,
      impl,
      alwaysVarying: ALWAYS_VARYING.has(name),
    };
  });
}

export const BUILTINS: ReadonlyMap<string, BuiltinSignature[]> = (() => {
  const map = new Map<string, BuiltinSignature[]>();
  for (const [signature, impl] of TABLE) {
    for (const entry of parseRow(signature, impl)) {
      const list = map.get(entry.name) ?? [];
      list.push(entry);
      map.set(entry.name, list);
    }
  }
  return map;
})();

/** Functions that read neighbouring grid vertices and so need a barrier. */
export const DERIVATIVE_FUNCTIONS = new Set(['Du', 'Dv', 'Deriv', 'area', 'calculatenormal']);
