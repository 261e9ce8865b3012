// The scene as the page has it, written back out as RIB: the options and the orbit camera's
// worldToCamera, the lights with their edited parameters, and every primitive in its own attribute
// block with its edited colour, opacity and shaders and the lights that reach it (Illuminate).
// Transformations are written whole (Transform), since the frame keeps only the final matrices;
// inside the world block Transform sets object → world, as the scene builder reads it. What the
// frame holds but RIB written this way cannot carry (deformation blur, CSG, area lights) is listed in the
// file's head and returned, so the page can say so.
import { type Attributes, type Frame, type Matrix4, type Parameter, REQUESTS, type SceneShaderRef as ShaderRef, type TransformSample } from '../index.ts';

export interface RibExport {
  text: string;
  /** What the file leaves out, one line each. */
  notExported: string[];
}

function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function value(v: number | string | number[] | string[]): string {
  if (Array.isArray(v)) return `[${(v as (number | string)[]).map((x) => value(x)).join(' ')}]`;
  return typeof v === 'string' ? quote(v) : String(v);
}

/** A parameter with its inline declaration ("uniform color Cs"), or its bare name when the front end
 * only guessed its type, so reading the file back guesses the same way. */
function param(p: Parameter): string {
  const token = p.inferred ? p.name : `${p.storage} ${p.type}${p.arrayLength === null ? '' : `[${p.arrayLength}]`} ${p.name}`;
  return `${quote(token)} ${value(p.values)}`;
}

function params(list: readonly Parameter[]): string {
  return list.map((p) => ` ${param(p)}`).join('');
}

/** A request whose positional arguments the frame keeps by their RI names (geometry, texture making). */
function positional(request: string, args: Record<string, number | string | number[] | string[]>): string {
  const specs = REQUESTS.get(request)?.args ?? [];
  const present = specs.filter((s) => args[s.name] !== undefined);
  return [request, ...present.map((s) => value(args[s.name]!))].join(' ');
}

function transform(m: Matrix4): string {
  return `Transform ${value(m)}`;
}

/** A transformation, moving (one Transform per time in a motion block) or not. */
function placement(m: Matrix4, motion: TransformSample[] | null): string[] {
  if (!motion) return [transform(m)];
  return [`MotionBegin ${value(motion.map((s) => s.time))}`, ...motion.map((s) => `  ${transform(s.matrix)}`), 'MotionEnd'];
}

/** A shader request in its own shader space: the transformation is only in force for the request. */
function shader(request: string, ref: ShaderRef): string[] {
  return ['TransformBegin', transform(ref.shaderToWorld), `${request} ${quote(ref.name)}${params(ref.params)}`, 'TransformEnd'];
}

function attributes(a: Attributes, lightHandles: string[]): string[] {
  const lines = [
    `Color ${value(a.color)}`,
    `Opacity ${value(a.opacity)}`,
    `TextureCoordinates ${a.textureCoordinates.join(' ')}`,
    `ShadingRate ${a.shadingRate}`,
    `ShadingInterpolation ${quote(a.shadingInterpolation)}`,
    `Matte ${a.matte ? 1 : 0}`,
    `Sides ${a.sides}`,
    `Basis ${a.uBasis.name === null ? value(a.uBasis.matrix) : quote(a.uBasis.name)} ${a.uBasis.step} ${a.vBasis.name === null ? value(a.vBasis.matrix) : quote(a.vBasis.name)} ${a.vBasis.step}`,
    ...Object.entries(a.geometricApproximation).map(([name, v]) => `GeometricApproximation ${quote(name)} ${v}`),
    // Attribute requests, "displacementbound" among them, are kept here as given.
    ...Object.entries(a.user).map(([name, list]) => `Attribute ${quote(name)}${params(list)}`),
    ...lightHandles.map((handle, id) => `Illuminate ${handle} ${a.lights.includes(id) ? 1 : 0}`),
  ];
  const slots: [string, ShaderRef | null][] = [['Surface', a.surface], ['Displacement', a.displacement], ['Atmosphere', a.atmosphere], ['Interior', a.interior], ['Exterior', a.exterior]];
  for (const [request, ref] of slots) if (ref) lines.push(...shader(request, ref));
  if (a.detail && a.detailToWorld) lines.push('TransformBegin', transform(a.detailToWorld), `Detail ${value(a.detail)}`, 'TransformEnd');
  lines.push(`DetailRange ${a.detailRange.join(' ')}`);
  if (a.trimCurves) {
    const t = a.trimCurves;
    lines.push(`TrimCurve ${[t.ncurves, t.order, t.knot, t.min, t.max, t.n, t.u, t.v, t.w].map((x) => value(x)).join(' ')}`);
  }
  return lines;
}

function options(frame: Frame): string[] {
  const o = frame.options;
  const c = frame.camera;
  const q = (kind: string, z: { one: number; min: number; max: number; ditherAmplitude: number }): string => `Quantize ${quote(kind)} ${z.one} ${z.min} ${z.max} ${z.ditherAmplitude}`;
  const projectionParams = c.projection === 'perspective'
    ? ` "fov" [${c.fov}]${params(c.projectionParams.filter((p) => p.name !== 'fov'))}`
    : params(c.projectionParams);
  return [
    `Format ${o.xResolution} ${o.yResolution} ${o.pixelAspectRatio}`,
    `FrameAspectRatio ${o.frameAspectRatio}`,
    `ScreenWindow ${o.screenWindow.join(' ')}`,
    `CropWindow ${o.cropWindow.join(' ')}`,
    `PixelSamples ${o.pixelSamples.join(' ')}`,
    ...(o.pixelVariance === null ? [] : [`PixelVariance ${o.pixelVariance}`]),
    `PixelFilter ${quote(o.pixelFilter.name)} ${o.pixelFilter.xWidth} ${o.pixelFilter.yWidth}`,
    `Exposure ${o.exposure.gain} ${o.exposure.gamma}`,
    q('rgba', o.quantize.rgba), q('z', o.quantize.z),
    `Hider ${quote(o.hider.type)}${params(o.hider.params)}`,
    ...(o.colorSamples ? [`ColorSamples ${value(o.colorSamples.nRGB)} ${value(o.colorSamples.RGBn)}`] : []),
    `RelativeDetail ${o.relativeDetail}`,
    ...Object.entries(o.user).map(([name, list]) => `Option ${quote(name)}${params(list)}`),
    ...o.displayChannels.map((ch) => `DisplayChannel ${quote(`${ch.type} ${ch.name}`)}${params(ch.params)}`),
    // A mode that names a variable Declare typed (an inline "varying point P" carries its own type).
    ...o.displays.flatMap((d) => (d.declaredType && !/\s/.test(d.mode.trim()) ? [`Declare ${quote(d.mode)} ${quote(d.declaredType)}`] : [])),
    ...o.displays.map((d, k) => `Display ${quote(k === 0 ? d.name : `+${d.name}`)} ${quote(d.type)} ${quote(d.mode)}${params(d.params)}`),
    ...(o.imager ? [`Imager ${quote(o.imager.name)}${params(o.imager.params)}`] : []),
    `Clipping ${c.near} ${c.far}`,
    ...(c.depthOfField ? [`DepthOfField ${c.depthOfField.fstop} ${c.depthOfField.focalLength} ${c.depthOfField.focalDistance}`] : []),
    `Shutter ${c.shutter.join(' ')}`,
    // Clipping planes are kept in camera space: the space current before the camera transformation.
    ...c.clippingPlanes.map((p) => `ClippingPlane ${p.join(' ')}`),
    `Projection ${quote(c.projection)}${projectionParams}`,
    ...placement(c.worldToCamera, c.motion),
  ];
}

function notExported(frame: Frame): string[] {
  const notes: string[] = [];
  const deforming = frame.primitives.filter((p) => p.geometry.motionSamples.length > 0).length;
  if (deforming) notes.push(`deformation blur of ${deforming} primitive(s): each is written at its first time sample`);
  if (frame.solids.length) notes.push(`${frame.solids.length} CSG solid block(s): their primitives are written on their own`);
  const area = frame.lights.filter((l) => l.area).length;
  if (area) notes.push(`${area} area light(s): written as ordinary light sources, without their geometry`);
  if (frame.primitives.some((p) => p.attributes.deformation)) notes.push('Deformation shaders (not honoured by the renderer either)');
  return notes;
}

/** The frame as RIB text (`title` goes in the header comment). */
export function exportRib(frame: Frame, title: string): RibExport {
  const notes = notExported(frame);
  // Numbered handles, so Illuminate names each light unambiguously whatever handles the scene used.
  const handles = frame.lights.map((_, id) => String(id + 1));
  const lines = [
    '##RenderMan RIB',
    `# ${title.replace(/\n/g, ' ')}: exported from the WebGPU Reyes page with its edits.`,
    ...notes.map((n) => `# Not exported: ${n}.`),
    ...frame.textureRequests.map((t) => `${positional(t.request, t.args)}${params(t.params)}`),
    ...options(frame),
    'WorldBegin',
    ...Object.entries(frame.coordinateSystems).filter(([name]) => name !== 'world' && name !== 'camera')
      .flatMap(([name, m]) => ['TransformBegin', transform(m), `CoordinateSystem ${quote(name)}`, 'TransformEnd']),
    // A light's "auto" shadow map size stays in its own attribute block (each primitive's Illuminate
    // turns the lights on).
    ...frame.lights.flatMap((l, id) => [
      ...(l.shadowMapSize !== undefined ? ['AttributeBegin', `Attribute "light" "shadowmapsize" [${l.shadowMapSize}]`] : ['TransformBegin']),
      transform(l.lightToWorld), `LightSource ${quote(l.shader)} ${handles[id]}${params(l.params)}`,
      l.shadowMapSize !== undefined ? 'AttributeEnd' : 'TransformEnd',
    ]),
    ...frame.primitives.flatMap((p) => [
      'AttributeBegin',
      ...attributes(p.attributes, handles).map((line) => `  ${line}`),
      ...placement(p.objectToWorld, p.motion).map((line) => `  ${line}`),
      `  Orientation ${quote(p.attributes.orientation)}`,
      `  ${positional(p.geometry.type, p.geometry.args)}${params(p.geometry.params)}`,
      'AttributeEnd',
    ]),
    'WorldEnd',
    '',
  ];
  return { text: lines.join('\n'), notExported: notes };
}
