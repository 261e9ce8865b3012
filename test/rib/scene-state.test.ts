import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { findParameter, parseRibSync } from '../../src/rib/index.ts';
import type { Matrix4, Scene } from '../../src/rib/index.ts';

const parse = (src: string): Scene => parseRibSync(src, { fileName: 't.rib' });
/** Parses and insists on a clean result (but for the named not-honoured warnings), returning the single frame. */
function frameOf(src: string, warned: string[] = []) {
  const scene = parse(src);
  expect(scene.errors).toEqual([]);
  expect(scene.warnings.map((w) => w.request)).toEqual(warned);
  expect(scene.frames).toHaveLength(1);
  return scene.frames[0]!;
}
const world = (body: string, before = '', warned: string[] = []) => frameOf(`${before}\nWorldBegin\n${body}\nWorldEnd\n`, warned);
const apply = (m: Matrix4, p: [number, number, number]) => {
  const [x, y, z] = p;
  const w = m[3]! * x + m[7]! * y + m[11]! * z + m[15]!;
  return [0, 1, 2].map((i) => (m[i]! * x + m[4 + i]! * y + m[8 + i]! * z + m[12 + i]!) / w);
};
const close = (a: number[], b: number[]) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 9));

describe('options', () => {
  it('uses the RenderMan defaults', () => {
    const f = world('Sphere 1 -1 1 360');
    expect(f.options).toMatchObject({
      xResolution: 640, yResolution: 480, pixelAspectRatio: 1, pixelSamples: [2, 2],
      pixelFilter: { name: 'gaussian', xWidth: 2, yWidth: 2 }, exposure: { gain: 1, gamma: 1 },
      cropWindow: [0, 1, 0, 1], hider: { type: 'hidden' }, displays: [],
      quantize: { rgba: { one: 255, min: 0, max: 255, ditherAmplitude: 0.5 } },
    });
    close(f.options.screenWindow, [-4 / 3, 4 / 3, -1, 1]);
    expect(f.camera).toMatchObject({ projection: 'orthographic', fov: 90, shutter: [0, 0] });
  });

  it('reads the camera and image options', () => {
    const f = world('', `
      Format 800 400 1
      ScreenWindow -2 2 -1 1
      CropWindow 0.25 0.75 0 0.5
      Projection "perspective" "fov" [30]
      Clipping 0.5 100
      ClippingPlane 0 0 5 0 0 -1
      DepthOfField 2.8 0.05 10
      Shutter 0 0.5
      PixelVariance 0.01
      PixelSamples 4 3
      PixelFilter "catmull-rom" 3 3
      Exposure 1.5 2.2
      Quantize "rgba" 65535 0 65535 0.5
      Display "out.tif" "file" "rgba"
      Display "+depth.tif" "zfile" "z"
      Hider "hidden" "jitter" [1]
      RelativeDetail 0.5
      Option "limits" "bucketsize" [32 32]
      Imager "background" "background" [1 0 0]`, []);
    expect(f.options).toMatchObject({
      xResolution: 800, yResolution: 400, frameAspectRatio: 2, screenWindow: [-2, 2, -1, 1],
      cropWindow: [0.25, 0.75, 0, 0.5], pixelSamples: [4, 3], pixelVariance: 0.01,
      pixelFilter: { name: 'catmull-rom', xWidth: 3, yWidth: 3 }, exposure: { gain: 1.5, gamma: 2.2 },
      quantize: { rgba: { one: 65535, max: 65535 } }, relativeDetail: 0.5,
    });
    expect(f.options.displays.map((d) => [d.name, d.type, d.mode])).toEqual([['out.tif', 'file', 'rgba'], ['depth.tif', 'zfile', 'z']]);
    expect(f.options.hider.params[0]).toMatchObject({ name: 'jitter', type: 'integer', values: [1] });
    expect(f.options.user.limits![0]).toMatchObject({ name: 'bucketsize', type: 'integer', arrayLength: 2, values: [32, 32] });
    expect(f.options.imager).toMatchObject({ name: 'background', params: [{ name: 'background', type: 'color', values: [1, 0, 0] }] });
    expect(f.camera).toMatchObject({
      projection: 'perspective', fov: 30, near: 0.5, far: 100, clippingPlanes: [[0, 0, 5, 0, 0, -1]],
      depthOfField: { fstop: 2.8, focalLength: 0.05, focalDistance: 10 }, shutter: [0, 0.5],
    });
  });

  it('derives the screen window from the frame aspect ratio, portrait too', () => {
    expect(world('', 'Format 300 600 1').options.screenWindow).toEqual([-1, 1, -2, 2]);
    expect(world('', 'Format 100 100 1\nFrameAspectRatio 2').options.screenWindow).toEqual([-2, 2, -1, 1]);
  });

  it('a Display without "+" replaces the list', () => {
    const f = world('', 'Display "a.tif" "file" "rgb"\nDisplay "+b.tif" "file" "rgb"\nDisplay "c.tif" "framebuffer" "rgb"');
    expect(f.options.displays.map((d) => d.name)).toEqual(['c.tif']);
  });

  it('restores options at FrameEnd and numbers frames', () => {
    const scene = parse('Format 100 100 1\nFrameBegin 1\nFormat 200 200 1\nWorldBegin\nWorldEnd\nFrameEnd\nFrameBegin 2\nWorldBegin\nWorldEnd\nFrameEnd\n');
    expect(scene.errors).toEqual([]);
    expect(scene.frames.map((f) => [f.frameNumber, f.options.xResolution])).toEqual([[1, 200], [2, 100]]);
  });
});

describe('transformations', () => {
  it('keeps the camera transform from before WorldBegin and concatenates in RenderMan order', () => {
    const f = world('Translate 1 0 0\nScale 2 2 2\nSphere 1 -1 1 360', 'Projection "perspective"\nTranslate 0 0 5');
    close(apply(f.camera.worldToCamera, [0, 0, 0]), [0, 0, 5]);
    // Scale applies to the object first, then the translation: (1,0,0) → (2,0,0) → (3,0,0).
    close(apply(f.primitives[0]!.objectToWorld, [1, 0, 0]), [3, 0, 0]);
  });

  it('Rotate turns x toward y about z; ConcatTransform, Transform and Identity behave', () => {
    const f = world(`
      TransformBegin Rotate 90 0 0 1 Sphere 1 -1 1 360 TransformEnd
      TransformBegin ConcatTransform [1 0 0 0 0 1 0 0 0 0 1 0 5 6 7 1] Sphere 1 -1 1 360 TransformEnd
      TransformBegin Translate 9 9 9 Transform [2 0 0 0 0 2 0 0 0 0 2 0 0 0 0 1] Sphere 1 -1 1 360 TransformEnd
      Translate 1 1 1 Identity Sphere 1 -1 1 360`);
    close(apply(f.primitives[0]!.objectToWorld, [1, 0, 0]), [0, 1, 0]);
    close(apply(f.primitives[1]!.objectToWorld, [0, 0, 0]), [5, 6, 7]);
    close(apply(f.primitives[2]!.objectToWorld, [1, 1, 1]), [2, 2, 2]);
    close(f.primitives[3]!.objectToWorld, Array.from(mat4.create()));
  });

  it('Skew shears along the second direction', () => {
    const f = world('Skew 45 0 1 0 1 0 0\nSphere 1 -1 1 360');
    // y turned 45 degrees toward x: (0,1,0) → (1,1,0); x itself stays.
    close(apply(f.primitives[0]!.objectToWorld, [0, 1, 0]), [1, 1, 0]);
    close(apply(f.primitives[0]!.objectToWorld, [1, 0, 0]), [1, 0, 0]);
  });

  it('Perspective projects with the given field of view', () => {
    const f = world('', 'Perspective 90');
    close(apply(f.camera.worldToCamera, [1, 1, 2]), [0.5, 0.5, 0.5]);
  });

  it('keeps named coordinate systems and CoordSysTransform returns to them', () => {
    const f = world('TransformBegin Translate 0 3 0 CoordinateSystem "lamp" TransformEnd\nCoordSysTransform "lamp"\nSphere 1 -1 1 360', 'Translate 0 0 10\nCoordinateSystem "eye"');
    close(apply(f.coordinateSystems.lamp!, [0, 0, 0]), [0, 3, 0]);
    close(apply(f.primitives[0]!.objectToWorld, [0, 0, 0]), [0, 3, 0]);
    close(apply(f.coordinateSystems.camera!, [0, 0, 0]), [0, 0, -10]);
    // Declared before WorldBegin (camera space: the camera transform itself) → at the camera.
    close(apply(f.coordinateSystems.eye!, [0, 0, 0]), [0, 0, 0]);
  });
});

describe('attributes', () => {
  it('snapshots colour, opacity, shaders, sides, orientation and shading state per primitive', () => {
    const f = world(`
      AttributeBegin
        Color [1 0 0] Opacity [0.5 0.5 0.5]
        Surface "plastic" "Kd" 0.7 "uniform color tint" [0 1 0]
        Displacement "bumpy" "Km" [0.1]
        Atmosphere "fog" Interior "water" Exterior "air"
        Sides 1 Orientation "inside" ShadingRate 4 ShadingInterpolation "smooth" Matte 1
        Attribute "displacementbound" "sphere" [0.25] "coordinatesystem" ["shader"]
        Attribute "identifier" "name" ["red ball"]
        Bound [-1 1 -1 1 -1 1] Detail [-1 1 -1 1 -1 1] DetailRange 0 0 10 20
        GeometricApproximation "flatness" 0.5 TextureCoordinates 0 0 2 0 0 2 2 2
        Sphere 1 -1 1 360
      AttributeEnd
      ReverseOrientation
      Sphere 1 -1 1 360`, '', ['Interior', 'Exterior']);
    const [a, b] = f.primitives.map((p) => p.attributes);
    expect(a).toMatchObject({
      color: [1, 0, 0], opacity: [0.5, 0.5, 0.5], sides: 1, orientation: 'inside', shadingRate: 4,
      shadingInterpolation: 'smooth', matte: true, displacementBound: { sphere: 0.25, coordinateSystem: 'shader' },
      bound: [-1, 1, -1, 1, -1, 1], detailRange: [0, 0, 10, 20], geometricApproximation: { flatness: 0.5 },
      textureCoordinates: [0, 0, 2, 0, 0, 2, 2, 2],
    });
    expect(a!.surface!.name).toBe('plastic');
    expect(a!.surface!.params).toEqual([
      { name: 'Kd', storage: 'uniform', type: 'float', arrayLength: null, values: [0.7], inferred: false },
      { name: 'tint', storage: 'uniform', type: 'color', arrayLength: null, values: [0, 1, 0], inferred: false },
    ]);
    expect([a!.displacement!.name, a!.atmosphere!.name, a!.interior!.name, a!.exterior!.name]).toEqual(['bumpy', 'fog', 'water', 'air']);
    expect(findParameter(a!.user.identifier!, 'name')!.values).toEqual(['red ball']);
    // After AttributeEnd: defaults again, and ReverseOrientation flips outside → inside.
    expect(b).toMatchObject({ color: [1, 1, 1], sides: 2, orientation: 'inside', surface: null, matte: false });
  });

  it('shares one attribute object between primitives until something changes', () => {
    const f = world('Sphere 1 -1 1 360\nSphere 2 -2 2 360\nColor [0 0 1]\nSphere 1 -1 1 360');
    expect(f.primitives[0]!.attributes).toBe(f.primitives[1]!.attributes);
    expect(f.primitives[2]!.attributes).not.toBe(f.primitives[1]!.attributes);
  });

  it('guesses the type of undeclared shader parameters and marks them inferred', () => {
    const f = world('Surface "wood2" "txtscale" [0.1] "grain" "oak" "offsets" [1 2 3]\nSphere 1 -1 1 360');
    expect(f.primitives[0]!.attributes.surface!.params.map((p) => [p.name, p.type, p.arrayLength, p.inferred])).toEqual([
      ['txtscale', 'float', null, true], ['grain', 'string', null, true], ['offsets', 'float', 3, true],
    ]);
  });

  it('Basis takes named bases with steps and explicit matrices', () => {
    const f = world('Basis "b-spline" 1 [1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1] 4\nSphere 1 -1 1 360');
    const { uBasis, vBasis } = f.primitives[0]!.attributes;
    expect(uBasis.name).toBe('b-spline');
    expect(uBasis.step).toBe(1);
    expect(uBasis.matrix[5]).toBeCloseTo(-1);
    expect(vBasis).toEqual({ name: null, matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], step: 4 });
  });
});

describe('lights', () => {
  it('records lights with shader, parameters, transform, and turns them on and off per Illuminate', () => {
    const f = world(`
      LightSource "ambientlight" 1 "intensity" 0.3
      TransformBegin Translate 0 5 0 LightSource "pointlight" "key" "from" [0 0 0] "lightcolor" [1 .5 .5] TransformEnd
      Sphere 1 -1 1 360
      AttributeBegin Illuminate "key" 0 Sphere 1 -1 1 360 AttributeEnd
      AttributeBegin AreaLightSource "arealight" 3 Disk 0 1 360 AttributeEnd
      Sphere 1 -1 1 360`);
    expect(f.lights.map((l) => [l.id, l.handle, l.shader, l.area])).toEqual([[0, '1', 'ambientlight', false], [1, 'key', 'pointlight', false], [2, '3', 'arealight', true]]);
    expect(f.lights[0]!.params[0]).toMatchObject({ name: 'intensity', type: 'float', values: [0.3] });
    close(apply(f.lights[1]!.lightToWorld, [0, 0, 0]), [0, 5, 0]);
    expect(f.primitives.map((p) => p.attributes.lights)).toEqual([[0, 1], [0], [0, 1, 2], [0, 1]]);
    expect(f.primitives[2]!.attributes.areaLight).toBe(2);
  });

  it('places lights declared before WorldBegin relative to the camera', () => {
    const f = world('Sphere 1 -1 1 360', 'Translate 0 0 4\nLightSource "distantlight" 1');
    close(apply(f.lights[0]!.lightToWorld, [0, 0, 0]), [0, 0, 0]);
    expect(f.primitives[0]!.attributes.lights).toEqual([0]);
  });
});

describe('declarations', () => {
  it('types parameters by Declare and by inline declarations, with arrays', () => {
    const f = world(`
      Declare "temperature" "varying float"
      Patch "bilinear" "P" [0 0 0 1 0 0 0 1 0 1 1 0] "temperature" [1 2 3 4] "float[2] uv" [0 0] "vertex color Cd" [1 0 0 0 1 0 0 0 1 1 1 1]`);
    const params = f.primitives[0]!.geometry.params;
    expect(params.map((p) => [p.name, p.storage, p.type, p.arrayLength, p.values.length])).toEqual([
      ['P', 'vertex', 'point', null, 12], ['temperature', 'varying', 'float', null, 4],
      ['uv', 'uniform', 'float', 2, 2], ['Cd', 'vertex', 'color', null, 12],
    ]);
  });

  it('ColorSamples changes the number of values in a colour', () => {
    const f = world('Color [0.5 0.5]\nSphere 1 -1 1 360 "Cs" [1 0 1 0 1 0 1 0]', 'ColorSamples [1 0 0 0 1 0] [1 0 0 1 0 0]');
    expect(f.primitives[0]!.attributes.color).toEqual([0.5, 0.5]);
  });
});

describe('blocks, instances, motion', () => {
  it('object instances share their geometry and take the transform of each instance', () => {
    const f = world(`
      ObjectBegin "tree" Translate 0 1 0 Sphere 1 -1 1 360 Cylinder 0.1 0 1 360 ObjectEnd
      Translate 10 0 0 ObjectInstance "tree"
      Translate 10 0 0 Color [0 1 0] ObjectInstance "tree"`);
    expect(f.primitives.map((p) => [p.geometry.type, p.instanceOf])).toEqual([['Sphere', 'tree'], ['Cylinder', 'tree'], ['Sphere', 'tree'], ['Cylinder', 'tree']]);
    expect(f.primitives[2]!.geometry).toBe(f.primitives[0]!.geometry);
    close(apply(f.primitives[0]!.objectToWorld, [0, 0, 0]), [10, 1, 0]);
    close(apply(f.primitives[2]!.objectToWorld, [0, 0, 0]), [20, 1, 0]);
    expect(f.primitives[3]!.attributes.color).toEqual([0, 1, 0]);
  });

  it('a motion block of transforms gives a moving transform', () => {
    const f = world('MotionBegin [0 1]\nTranslate 0 0 0\nTranslate 1 0 0\nMotionEnd\nScale 2 2 2\nSphere 1 -1 1 360', 'Shutter 0 1', []);
    const p = f.primitives[0]!;
    expect(p.motion!.map((s) => s.time)).toEqual([0, 1]);
    close(apply(p.motion![1]!.matrix, [1, 0, 0]), [3, 0, 0]);
    expect(p.objectToWorld).toEqual(p.motion![0]!.matrix);
  });

  it('a motion block of one primitive gives deformation samples', () => {
    const f = world('MotionBegin [0 0.5]\nSphere 1 -1 1 360\nSphere 2 -2 2 360\nMotionEnd', '', []);
    expect(f.primitives).toHaveLength(1);
    expect(f.primitives[0]!.geometry.args.radius).toBe(1);
    expect(f.primitives[0]!.geometry.motionSamples.map((g) => g.args.radius)).toEqual([2]);
    expect(f.primitives[0]!.geometry.motionTimes).toEqual([0, 0.5]);
  });

  it('camera motion before WorldBegin is kept on the camera', () => {
    const f = world('', 'MotionBegin [0 1] Translate 0 0 5 Translate 0 0 6 MotionEnd', []);
    expect(f.camera.motion).toHaveLength(2);
    close(apply(f.camera.motion![1]!.matrix, [0, 0, 0]), [0, 0, 6]);
  });

  it('solid blocks list their primitives and the block they are nested in', () => {
    const f = world('SolidBegin "difference" SolidBegin "primitive" Sphere 1 -1 1 360 SolidEnd SolidBegin "primitive" Cylinder 0.5 -2 2 360 SolidEnd SolidEnd', '', []);
    expect(f.solids.map((s) => [s.operation, s.primitives, s.parent])).toEqual([['difference', [0, 1], null], ['primitive', [0], 0], ['primitive', [1], 0]]);
  });

  it('records texture-making requests, version and structure comments', () => {
    const scene = parse('##RenderMan RIB-Structure 1.1\nversion 3.04\nMakeTexture "a.tif" "a.tex" "periodic" "clamp" "gaussian" 2 2\nMakeShadow "z.zfile" "z.shd"\nWorldBegin\nWorldEnd\n');
    expect(scene.errors).toEqual([]);
    expect(scene.version).toBe(3.04);
    expect(scene.structureComments.map((c) => c.text)).toEqual(['RenderMan RIB-Structure 1.1']);
    expect(scene.textureRequests.map((t) => [t.request, t.args.texture])).toEqual([['MakeTexture', 'a.tex'], ['MakeShadow', 'z.shd']]);
  });
});

describe('every geometric primitive', () => {
  it('reads each primitive type with its arguments', () => {
    const f = world(`
      Polygon "P" [0 0 0 1 0 0 1 1 0]
      GeneralPolygon [4 3] "P" [0 0 0 4 0 0 4 4 0 0 4 0 1 1 0 2 1 0 1 2 0]
      PointsPolygons [3 3] [0 1 2 2 1 3] "P" [0 0 0 1 0 0 0 1 0 1 1 0]
      PointsGeneralPolygons [1 1] [3 3] [0 1 2 2 1 3] "P" [0 0 0 1 0 0 0 1 0 1 1 0]
      Patch "bilinear" "P" [0 0 0 1 0 0 0 1 0 1 1 0]
      PatchMesh "bilinear" 2 "nonperiodic" 2 "nonperiodic" "P" [0 0 0 1 0 0 0 1 0 1 1 0]
      NuPatch 2 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 "Pw" [0 0 0 1 1 0 0 1 0 1 0 1 1 1 0 1]
      SubdivisionMesh "catmull-clark" [4] [0 1 3 2] ["interpolateboundary"] [0 0] [] [] "P" [0 0 0 1 0 0 0 1 0 1 1 0]
      Sphere 1 -1 1 360 Cone 2 1 360 Cylinder 1 -1 1 360 Hyperboloid 1 0 0 0 1 1 360
      Paraboloid 1 0 1 360 Disk 0 1 360 Torus 1 0.25 0 360 360
      Points "P" [0 0 0 1 1 1] "constantwidth" [0.1]
      Curves "cubic" [4] "nonperiodic" "P" [0 0 0 1 0 0 2 0 0 3 0 0] "width" [0.1 0.2]
      Blobby 1 [1001 0] [1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1] [] "Cs" [1 0 0]
      Geometry "teapot"`);
    expect(f.primitives.map((p) => p.geometry.type)).toEqual([
      'Polygon', 'GeneralPolygon', 'PointsPolygons', 'PointsGeneralPolygons', 'Patch', 'PatchMesh', 'NuPatch',
      'SubdivisionMesh', 'Sphere', 'Cone', 'Cylinder', 'Hyperboloid', 'Paraboloid', 'Disk', 'Torus', 'Points', 'Curves', 'Blobby', 'Geometry',
    ]);
    expect(f.primitives[7]!.geometry.args).toMatchObject({ scheme: 'catmull-clark', nvertices: [4], vertices: [0, 1, 3, 2], tags: ['interpolateboundary'] });
    expect(f.primitives[14]!.geometry.args).toEqual({ majorradius: 1, minorradius: 0.25, phimin: 0, phimax: 360, thetamax: 360 });
  });

  it('reads a SubdivisionMesh without tags and a TrimCurve', () => {
    const f = world('TrimCurve [1] [2] [0 0 1 1] [0] [1] [2] [0 1] [0 1] [1 1]\nSubdivisionMesh "catmull-clark" [3] [0 1 2] "P" [0 0 0 1 0 0 0 1 0]');
    expect(f.primitives[0]!.attributes.trimCurves).toMatchObject({ ncurves: [1], order: [2], n: [2] });
  });
});
