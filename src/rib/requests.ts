// The RenderMan Interface 3.2 requests, described once as data: name, positional arguments with
// their types, whether a parameter list follows, and the category that decides where the
// request is valid. The parser reads arguments from this table and the scene builder checks
// scopes with it, instead of each request carrying its own hand-written argument checking.

export type ArgKind = 'int' | 'float' | 'string' | 'int[]' | 'float[]' | 'string[]' | 'basis' | 'handle';

export interface ArgSpec {
  name: string;
  kind: ArgKind;
  /** Fixed array length ("float[16]"); such arrays may also be written as loose numbers. */
  length: number | null;
  /** Trailing arguments that may be left out (DepthOfField, FrameBegin, SubdivisionMesh tags). */
  optional: boolean;
}

/** Decides valid scopes: see CATEGORY_SCOPES in scopes.ts. */
export type RequestCategory = 'option' | 'attribute' | 'transform' | 'geometry' | 'block' | 'texture' | 'anywhere';

export interface RequestDef {
  name: string;
  category: RequestCategory;
  args: ArgSpec[];
  /** A token-value parameter list follows the positional arguments. */
  params: boolean;
}

/** "radius:float knots:float[] m:float[16] tags:string[]?" → argument specs. */
function parseArgs(signature: string): ArgSpec[] {
  if (signature.trim() === '') return [];
  return signature.trim().split(/\s+/).map((word) => {
    const m = /^(\w+):(int|float|string|basis|handle)(\[(\d*)\])?(\?)?$/.exec(word);
    if (!m) throw new Error(`bad argument signature '${word}'`);
    const [, name = '', base = '', isArray, length, optional] = m;
    const kind = (isArray ? `${base}[]` : base) as ArgKind;
    return { name, kind, length: length ? Number(length) : null, optional: optional === '?' };
  });
}

const TABLE: Array<[name: string, category: RequestCategory, signature: string, params?: 'params']> = [
  // Options (camera and image): valid outside the world block.
  ['Format', 'option', 'xresolution:int yresolution:int pixelaspectratio:float'],
  ['FrameAspectRatio', 'option', 'frameaspectratio:float'],
  ['ScreenWindow', 'option', 'left:float right:float bottom:float top:float'],
  ['CropWindow', 'option', 'xmin:float xmax:float ymin:float ymax:float'],
  ['Projection', 'option', 'name:string', 'params'],
  ['Clipping', 'option', 'near:float far:float'],
  ['ClippingPlane', 'option', 'x:float y:float z:float nx:float ny:float nz:float'],
  ['DepthOfField', 'option', 'fstop:float? focallength:float? focaldistance:float?'],
  ['Shutter', 'option', 'opentime:float closetime:float'],
  ['PixelVariance', 'option', 'variation:float'],
  ['PixelSamples', 'option', 'xsamples:float ysamples:float'],
  ['PixelFilter', 'option', 'filter:string xwidth:float ywidth:float'],
  ['Exposure', 'option', 'gain:float gamma:float'],
  ['Imager', 'option', 'name:string', 'params'],
  ['Quantize', 'option', 'type:string one:int min:int max:int ditheramplitude:float'],
  ['Display', 'option', 'name:string type:string mode:string', 'params'],
  ['DisplayChannel', 'option', 'channel:string', 'params'],
  ['Hider', 'option', 'type:string', 'params'],
  ['ColorSamples', 'option', 'nRGB:float[] RGBn:float[]'],
  ['RelativeDetail', 'option', 'relativedetail:float'],
  ['Option', 'option', 'name:string', 'params'],
  // Attributes.
  ['Color', 'attribute', 'color:float[]'],
  ['Opacity', 'attribute', 'color:float[]'],
  ['TextureCoordinates', 'attribute', 's1:float t1:float s2:float t2:float s3:float t3:float s4:float t4:float'],
  ['LightSource', 'attribute', 'name:string handle:handle', 'params'],
  ['AreaLightSource', 'attribute', 'name:string handle:handle', 'params'],
  ['Illuminate', 'attribute', 'light:handle onoff:int'],
  ['Surface', 'attribute', 'name:string', 'params'],
  ['Displacement', 'attribute', 'name:string', 'params'],
  ['Atmosphere', 'attribute', 'name:string', 'params'],
  ['Interior', 'attribute', 'name:string', 'params'],
  ['Exterior', 'attribute', 'name:string', 'params'],
  ['Deformation', 'attribute', 'name:string', 'params'],
  ['ShadingRate', 'attribute', 'size:float'],
  ['ShadingInterpolation', 'attribute', 'type:string'],
  ['Matte', 'attribute', 'onoff:int'],
  ['Bound', 'attribute', 'bound:float[6]'],
  ['Detail', 'attribute', 'bound:float[6]'],
  ['DetailRange', 'attribute', 'minvisible:float lowertransition:float uppertransition:float maxvisible:float'],
  ['GeometricApproximation', 'attribute', 'type:string value:float'],
  ['Orientation', 'attribute', 'orientation:string'],
  ['ReverseOrientation', 'attribute', ''],
  ['Sides', 'attribute', 'sides:int'],
  ['Attribute', 'attribute', 'name:string', 'params'],
  ['Basis', 'attribute', 'ubasis:basis ustep:int vbasis:basis vstep:int'],
  ['TrimCurve', 'attribute', 'ncurves:int[] order:int[] knot:float[] min:float[] max:float[] n:int[] u:float[] v:float[] w:float[]'],
  // Transformations.
  ['Identity', 'transform', ''],
  ['Transform', 'transform', 'transform:float[16]'],
  ['ConcatTransform', 'transform', 'transform:float[16]'],
  ['Perspective', 'transform', 'fov:float'],
  ['Translate', 'transform', 'dx:float dy:float dz:float'],
  ['Rotate', 'transform', 'angle:float dx:float dy:float dz:float'],
  ['Scale', 'transform', 'sx:float sy:float sz:float'],
  ['Skew', 'transform', 'angle:float dx1:float dy1:float dz1:float dx2:float dy2:float dz2:float'],
  ['CoordinateSystem', 'transform', 'space:string'],
  ['CoordSysTransform', 'transform', 'space:string'],
    // Blocks: nesting is checked by the scene builder.
  ['FrameBegin', 'block', 'frame:int?'],
  ['FrameEnd', 'block', ''],
  ['WorldBegin', 'block', ''],
  ['WorldEnd', 'block', ''],
  ['AttributeBegin', 'block', ''],
  ['AttributeEnd', 'block', ''],
  ['TransformBegin', 'block', ''],
  ['TransformEnd', 'block', ''],
  ['SolidBegin', 'block', 'operation:string'],
  ['SolidEnd', 'block', ''],
  ['ObjectBegin', 'block', 'handle:handle'],
  ['ObjectEnd', 'block', ''],
  ['MotionBegin', 'block', 'times:float[]'],
  ['MotionEnd', 'block', ''],
  // Geometric primitives.
  ['Polygon', 'geometry', '', 'params'],
  ['GeneralPolygon', 'geometry', 'nvertices:int[]', 'params'],
  ['PointsPolygons', 'geometry', 'nvertices:int[] vertices:int[]', 'params'],
  ['PointsGeneralPolygons', 'geometry', 'nloops:int[] nvertices:int[] vertices:int[]', 'params'],
  ['Patch', 'geometry', 'type:string', 'params'],
  ['PatchMesh', 'geometry', 'type:string nu:int uwrap:string nv:int vwrap:string', 'params'],
  ['NuPatch', 'geometry', 'nu:int uorder:int uknot:float[] umin:float umax:float nv:int vorder:int vknot:float[] vmin:float vmax:float', 'params'],
  ['SubdivisionMesh', 'geometry', 'scheme:string nvertices:int[] vertices:int[] tags:string[]? nargs:int[]? intargs:int[]? floatargs:float[]?', 'params'],
  ['Sphere', 'geometry', 'radius:float zmin:float zmax:float thetamax:float', 'params'],
  ['Cone', 'geometry', 'height:float radius:float thetamax:float', 'params'],
  ['Cylinder', 'geometry', 'radius:float zmin:float zmax:float thetamax:float', 'params'],
  ['Hyperboloid', 'geometry', 'x1:float y1:float z1:float x2:float y2:float z2:float thetamax:float', 'params'],
  ['Paraboloid', 'geometry', 'rmax:float zmin:float zmax:float thetamax:float', 'params'],
  ['Disk', 'geometry', 'height:float radius:float thetamax:float', 'params'],
  ['Torus', 'geometry', 'majorradius:float minorradius:float phimin:float phimax:float thetamax:float', 'params'],
  ['Points', 'geometry', '', 'params'],
  ['Curves', 'geometry', 'type:string nvertices:int[] wrap:string', 'params'],
  ['Blobby', 'geometry', 'nleaf:int code:int[] floats:float[] strings:string[]', 'params'],
  ['Procedural', 'geometry', 'generator:string args:string[] bound:float[6]'],
  ['Geometry', 'geometry', 'type:string', 'params'],
  ['ObjectInstance', 'geometry', 'handle:handle'],
  // Texture making: recorded for the renderer to run before the frame.
  ['MakeTexture', 'texture', 'picture:string texture:string swrap:string twrap:string filter:string swidth:float twidth:float', 'params'],
  ['MakeBump', 'texture', 'picture:string texture:string swrap:string twrap:string filter:string swidth:float twidth:float', 'params'],
  ['MakeLatLongEnvironment', 'texture', 'picture:string texture:string filter:string swidth:float twidth:float', 'params'],
  ['MakeCubeFaceEnvironment', 'texture', 'px:string nx:string py:string ny:string pz:string nz:string texture:string fov:float filter:string swidth:float twidth:float', 'params'],
  ['MakeShadow', 'texture', 'picture:string texture:string', 'params'],
  // Valid anywhere.
  ['Declare', 'anywhere', 'name:string declaration:string'],
  ['ErrorHandler', 'anywhere', 'handler:string'],
  ['ReadArchive', 'anywhere', 'filename:string', 'params'],
  ['ArchiveRecord', 'anywhere', 'type:string text:string'],
  ['version', 'anywhere', 'version:float'],
];

export const REQUESTS: ReadonlyMap<string, RequestDef> = new Map(
  TABLE.map(([name, category, signature, params]) => [name, { name, category, args: parseArgs(signature), params: params === 'params' }]),
);
