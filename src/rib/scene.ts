// The Scene: what a RIB stream describes once the graphics state has been applied. This is the
// contract between the RIB front end and the renderer: plain data (JSON-serialisable), matrices
// as 16 numbers in gl-matrix order (which is also RenderMan's row-vector order as written in RIB).

import type { Diagnostic, SourcePosition } from './diagnostics.ts';
import type { Declaration, StorageClass, ValueType } from './declarations.ts';

/** 4×4 matrix, 16 numbers; element 12..14 hold the translation. Use gl-matrix's mat4 on it. */
export type Matrix4 = number[];

/** A typed parameter: a primitive variable, shader parameter, option or attribute value. */
export interface Parameter extends Declaration {
  name: string;
  values: number[] | string[];
  /** True when no declaration was known and the type was guessed from the values (shader
   * parameters of shaders the front end has not seen); the shader's own declaration decides. */
  inferred: boolean;
}

export interface ShaderRef {
  name: string;
  params: Parameter[];
  /** The current transformation when the shader was declared: its "shader" space. */
  shaderToWorld: Matrix4;
  /** Where the request was made, for messages about the shader (set for Imager, Surface, Displacement,
   * Atmosphere, Interior, Exterior and Deformation; a light has its own). */
  source?: SourcePosition;
}

export interface Basis {
  /** "bezier", "b-spline", "catmull-rom", "hermite", "power", or null for an explicit matrix. */
  name: string | null;
  matrix: Matrix4;
  step: number;
}

export type Orientation = 'outside' | 'inside' | 'lh' | 'rh';

/** The attribute state attached to each primitive. Shared (not copied) between primitives
 * declared under the same state, so treat it as read-only. */
export interface Attributes {
  color: number[];
  opacity: number[];
  textureCoordinates: number[];
  surface: ShaderRef | null;
  displacement: ShaderRef | null;
  atmosphere: ShaderRef | null;
  interior: ShaderRef | null;
  exterior: ShaderRef | null;
  /** Deformation shader (RI 3.2 §5.3): recorded; the renderer does not run it yet. */
  deformation: ShaderRef | null;
  /** Set when the primitives are area lights (AreaLightSource): the light's id. */
  areaLight: number | null;
  /** Ids (indexes into Frame.lights) of the lights that illuminate these primitives. */
  lights: number[];
  shadingRate: number;
  shadingInterpolation: 'constant' | 'smooth';
  matte: boolean;
  sides: 1 | 2;
  orientation: Orientation;
  /** From Attribute "displacementbound": how far displacement can move a point. */
  displacementBound: { sphere: number; coordinateSystem: string };
  bound: number[] | null;
  /** Detail's bound [xmin xmax ymin ymax zmin zmax], in the object space current at the request. */
  detail: number[] | null;
  /** That object space: the object → world transformation at the Detail request. */
  detailToWorld: Matrix4 | null;
  /** DetailRange [minvisible lowertransition uppertransition maxvisible] (non-decreasing), in
   * pixels of the detail box's raster area times Options.relativeDetail; default [0 0 1e38 1e38]. */
  detailRange: number[];
  geometricApproximation: Record<string, number>;
  uBasis: Basis;
  vBasis: Basis;
  trimCurves: TrimCurves | null;
  /** Attribute "name" params..., by attribute name: e.g. user.identifier → [name]. */
  user: Record<string, Parameter[]>;
}

export interface TrimCurves {
  ncurves: number[];
  order: number[];
  knot: number[];
  min: number[];
  max: number[];
  n: number[];
  u: number[];
  v: number[];
  w: number[];
}

export type PrimitiveType =
  | 'Polygon' | 'GeneralPolygon' | 'PointsPolygons' | 'PointsGeneralPolygons'
  | 'Patch' | 'PatchMesh' | 'NuPatch' | 'SubdivisionMesh'
  | 'Sphere' | 'Cone' | 'Cylinder' | 'Hyperboloid' | 'Paraboloid' | 'Disk' | 'Torus'
  | 'Points' | 'Curves' | 'Blobby' | 'Geometry';

/** How many values each storage class asks for on one primitive. */
export interface StorageCounts {
  constant: number;
  uniform: number;
  varying: number;
  vertex: number;
  facevarying: number;
  facevertex: number;
}

/** The shape of a primitive: shared by every instance of an object. */
export interface Geometry {
  type: PrimitiveType;
  /** Positional arguments by their RI names: Sphere → { radius, zmin, zmax, thetamax };
   * PatchMesh → { type, nu, uwrap, nv, vwrap }; PointsPolygons → { nvertices, vertices } ... */
  args: Record<string, number | string | number[] | string[]>;
  /** Primitive variables, each with its storage class, checked against `counts`. */
  params: Parameter[];
  counts: StorageCounts;
  /** For deformation blur (a primitive inside MotionBegin/End): the other time samples. */
  motionSamples: Geometry[];
  /** With motionSamples: the block's times, this geometry's first, then one per sample. */
  motionTimes?: number[];
}

export interface TransformSample {
  time: number;
  matrix: Matrix4;
}

export interface Primitive {
  geometry: Geometry;
  objectToWorld: Matrix4;
  /** Moving transformation (MotionBegin/End): one matrix per time, first equals objectToWorld. */
  motion: TransformSample[] | null;
  attributes: Attributes;
  /** The ObjectInstance handle when the primitive came from an instance. */
  instanceOf: string | null;
  source: SourcePosition;
}

export interface Light {
  /** Index in Frame.lights. */
  id: number;
  /** The sequence number or name the RIB used (Illuminate refers to it). */
  handle: string;
  shader: string;
  params: Parameter[];
  lightToWorld: Matrix4;
  area: boolean;
  source: SourcePosition;
  /** Attribute "light" "shadowmapsize" in force at the LightSource: the resolution of its "auto"
   * shadow maps (src/reyes/shadows); absent: the default. */
  shadowMapSize?: number;
}

/** The sizes Attribute "light" "shadowmapsize" accepts. */
export const SHADOW_MAP_SIZES = [16, 8192] as const;

export interface Display {
  name: string;
  type: string;
  mode: string;
  params: Parameter[];
  /** The type a Declare in force gave the mode's variable name (a mode "foo" after Declare "foo" "color"). */
  declaredType?: ValueType;
  /** Where the request is; absent for a display the command line made (-o). */
  source?: SourcePosition;
}

/** DisplayChannel: an output variable declared for Displays to name ("color foo"), with its
 * parameters ("filter", "quantize", ...) as given. */
export interface DisplayChannel {
  name: string;
  type: ValueType;
  params: Parameter[];
  source: SourcePosition;
}

export interface Quantizer {
  one: number;
  min: number;
  max: number;
  ditherAmplitude: number;
}

export interface Camera {
  /** "perspective", "orthographic", or another name the RIB gave. */
  projection: string;
  /** Full field of view in degrees (perspective). */
  fov: number;
  projectionParams: Parameter[];
  worldToCamera: Matrix4;
  /** Camera motion blur: transforms given in a MotionBegin block before WorldBegin. */
  motion: TransformSample[] | null;
  near: number;
  far: number;
  /** ClippingPlane requests in order, each [x, y, z, nx, ny, nz] in camera space: a point on the
   * plane and its normal (not normalised). Geometry on the side the normal points to is clipped. */
  clippingPlanes: number[][];
  depthOfField: { fstop: number; focalLength: number; focalDistance: number } | null;
  shutter: [number, number];
}

export interface Options {
  xResolution: number;
  yResolution: number;
  pixelAspectRatio: number;
  frameAspectRatio: number;
  /** [left, right, bottom, top]; derived from the frame aspect ratio unless given. */
  screenWindow: [number, number, number, number];
  cropWindow: [number, number, number, number];
  pixelSamples: [number, number];
  pixelVariance: number | null;
  pixelFilter: { name: string; xWidth: number; yWidth: number };
  exposure: { gain: number; gamma: number };
  imager: ShaderRef | null;
  quantize: { rgba: Quantizer; z: Quantizer };
  displays: Display[];
  displayChannels: DisplayChannel[];
  hider: { type: string; params: Parameter[] };
  colorSamples: { nRGB: number[]; RGBn: number[] } | null;
  relativeDetail: number;
  errorHandler: string;
  /** Option "name" params..., by option name. */
  user: Record<string, Parameter[]>;
}

export interface TextureRequest {
  request: 'MakeTexture' | 'MakeBump' | 'MakeLatLongEnvironment' | 'MakeCubeFaceEnvironment' | 'MakeShadow';
  args: Record<string, number | string>;
  params: Parameter[];
  source: SourcePosition;
  /** Runs before scene.frames[frameIndex] renders (the frames read before it). */
  frameIndex: number;
  /** Option "searchpath" "texture" in force at the request ("&" expanded), if set. */
  searchPath?: string;
}

/** One world block with the options and camera in force at its WorldBegin. */
export interface Frame {
  /** The FrameBegin number, or null for a world outside any frame block. */
  frameNumber: number | null;
  options: Options;
  camera: Camera;
  lights: Light[];
  primitives: Primitive[];
  /** Named coordinate systems (CoordinateSystem), plus "world" and "camera": space → world. */
  coordinateSystems: Record<string, Matrix4>;
  textureRequests: TextureRequest[];
  /** Solid (CSG) blocks in the order they begin. */
  solids: Solid[];
  /** DelayedReadArchive calls not read because their bound lies off screen (screen-bound.ts). */
  culledArchives: number;
}

/** A SolidBegin block. */
export interface Solid {
  /** "primitive", "union", "intersection" or "difference". */
  operation: string;
  /** Indexes of the primitives inside it, nested blocks included. */
  primitives: number[];
  /** The index the next primitive had when the block began (where it stands among its siblings). */
  start: number;
  /** Index in Frame.solids of the block it is nested in, or null at the top. */
  parent: number | null;
  source: SourcePosition;
}

export interface StructureComment {
  text: string;
  pos: SourcePosition;
}

export interface Scene {
  frames: Frame[];
  /** RIB version from the "version" request, if any. */
  version: number | null;
  /** ## comments (RIB structuring conventions), in order. */
  structureComments: StructureComment[];
  /** Texture requests made outside any world block. */
  textureRequests: TextureRequest[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

export type { StorageClass, ValueType };
