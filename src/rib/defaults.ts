// RenderMan Interface 3.2 default options, camera and attributes.

import { BEZIER_BASIS } from './basis.ts';
import type { Attributes, Camera, Options } from './scene.ts';
import { identity } from './transforms.ts';

/** RI_INFINITY and RI_EPSILON of ri.h (finite, so scenes stay JSON-serialisable). */
export const RI_INFINITY = 1.0e38;
export const RI_EPSILON = 1.0e-10;

export function defaultOptions(): Options {
  return {
    xResolution: 640,
    yResolution: 480,
    pixelAspectRatio: 1,
    frameAspectRatio: 4 / 3,
    screenWindow: [-4 / 3, 4 / 3, -1, 1],
    cropWindow: [0, 1, 0, 1],
    pixelSamples: [2, 2],
    pixelVariance: null,
    pixelFilter: { name: 'gaussian', xWidth: 2, yWidth: 2 },
    exposure: { gain: 1, gamma: 1 },
    imager: null,
    quantize: {
      rgba: { one: 255, min: 0, max: 255, ditherAmplitude: 0.5 },
      z: { one: 0, min: 0, max: 0, ditherAmplitude: 0 },
    },
    displays: [],
    displayChannels: [],
    hider: { type: 'hidden', params: [] },
    colorSamples: null,
    relativeDetail: 1,
    errorHandler: 'print',
    user: {},
  };
}

export function defaultCamera(): Camera {
  return {
    projection: 'orthographic',
    fov: 90,
    projectionParams: [],
    worldToCamera: identity(),
    motion: null,
    near: RI_EPSILON,
    far: RI_INFINITY,
    clippingPlanes: [],
    depthOfField: null,
    shutter: [0, 0],
  };
}

export function defaultAttributes(): Attributes {
  return {
    color: [1, 1, 1],
    opacity: [1, 1, 1],
    textureCoordinates: [0, 0, 1, 0, 0, 1, 1, 1],
    surface: null,
    displacement: null,
    atmosphere: null,
    interior: null,
    exterior: null,
    deformation: null,
    areaLight: null,
    lights: [],
    shadingRate: 1,
    shadingInterpolation: 'constant',
    matte: false,
    sides: 2,
    orientation: 'outside',
    displacementBound: { sphere: 0, coordinateSystem: 'object' },
    bound: null,
    detail: null,
    detailToWorld: null,
    detailRange: [0, 0, RI_INFINITY, RI_INFINITY],
    geometricApproximation: {},
    uBasis: BEZIER_BASIS,
    vBasis: BEZIER_BASIS,
    trimCurves: null,
    user: {},
  };
}
