// A frame's primitives as GPU records, and the shading pipelines (kernels with their parameter
// blocks) they use. Runs on the CPU once per frame; everything after it runs on the GPU.
import { mat3, mat4 } from 'gl-matrix';
import { RI_INFINITY } from '../../rib/defaults.ts';
import type { SourcePosition } from '../../rib/diagnostics.ts';
import type { Attributes, Frame, Geometry } from '../../rib/scene.ts';
import type { FrameCamera } from '../camera.ts';
import { BindingLimitError } from '../errors.ts';
import { layoutUserVariables, type GridLayout } from '../../layout/grid-layout.ts';
import { motionKeys, packMotionKeys } from '../motion/motion-keys.ts';
import { deforms, recordShapes, samePieces, shapeAt, type RecordShape } from '../motion/deformation.ts';
import { Primvars } from '../primvars.ts';
import { PrimitiveFlag } from '../../layout/primitive-record.ts';
import { PrimitiveRecords } from '../primitive-record.ts';
import type { ShadingInstance, ShadingKernel, ShadingKernelProvider, ShadingRequest } from '../shading/shading-kernel.ts';
import type { KernelSpaces } from '../shading/spaces.ts';
import type { ConvertContext } from './emit.ts';
import { convertGeometry } from './geometry.ts';
import { convertSubdivisionMesh } from './subdivision.ts';
import { convertNuPatch } from './nurbs.ts';
import { detailImportance, FULL_IMPORTANCE, rasterArea, type Importance } from './level-of-detail.ts';
import { convertPatch, convertPatchMesh, joinBezierEdges } from './patches.ts';
import { convertBlobby } from './blobby.ts';
import { convertCurves } from './curves.ts';
import { convertPoints } from './points.ts';
import { frameSolids } from './solids.ts';
import { convertPolygons } from './polygons.ts';
import { convertQuadric } from './quadrics.ts';

export interface ShadingPipeline {
  kernel: ShadingKernel;
  /** Concatenated parameter blocks of the primitives it shades. */
  params: Float32Array;
  /** True when every primitive it shades has Os = 1 and the kernel keeps Oi = Os. */
  opaque: boolean;
}

export interface ConvertedFrame {
  records: PrimitiveRecords;
  pipelines: ShadingPipeline[];
  /** The CSG table compositing evaluates (src/layout/solid-table.ts). */
  solids: Uint32Array;
  /** What the frame's motion asks of the kernels (motionConstants). */
  motion: FrameMotion;
}

/** reyes-surface.wgsl's specialisation constant for the primitive kinds a frame's records hold
 * (PrimitiveRecords.kinds): every kernel that evaluates surfaces leaves the other kinds out, which
 * cuts what lavapipe compiles (the dicer took 16 s cold with all nine kinds in it). */
export function shapeConstants(kinds: number): Record<string, number> {
  return { SHAPE_KINDS: kinds };
}

/** Which kinds of motion a frame holds: kernels are specialised to leave out what it lacks. */
export interface FrameMotion {
  /** Some record moves within the shutter (it has motion keys). */
  moves: boolean;
  /** Some record carries a shape per motion key (deformation blur). */
  deforms: boolean;
  /** Some record has more than two motion keys. */
  manyKeys: boolean;
}

/** reyes-motion.wgsl's specialisation constants for a frame's motion. Evaluating key shapes inlines
 * every primitive kind's surface into a kernel; left out, lavapipe compiles the sampling kernels in
 * seconds instead of minutes. */
export function motionConstants(motion: FrameMotion): Record<string, number> {
  return { MOTION_MOVES: motion.moves ? 1 : 0, MOTION_DEFORMS: motion.deforms ? 1 : 0, MOTION_MANY_KEYS: motion.manyKeys ? 1 : 0 };
}

const QUADRICS = new Set(['Sphere', 'Cone', 'Cylinder', 'Hyperboloid', 'Paraboloid', 'Disk', 'Torus']);
const POLYGONS = new Set(['Polygon', 'GeneralPolygon', 'PointsPolygons', 'PointsGeneralPolygons']);

export function convertFrame(
  frame: Frame,
  camera: Pick<FrameCamera, 'cameraToRaster' | 'perspective'>,
  spaces: KernelSpaces,
  layout: GridLayout,
  provider: ShadingKernelProvider,
  warn: (message: string) => void,
): ConvertedFrame {
  const user = layoutUserVariables(layout);
  const records = new PrimitiveRecords(user.reduce((n, v) => n + 4 * (v.type === 'float' ? 1 : 3), 0));
  const pipelines: { kernel: ShadingKernel; blocks: Float32Array[]; floats: number; opaque: boolean }[] = [];
  const pipelineByKey = new Map<string, number>();
  // A provider may hand the same instance to primitives that share a state: one block for them all.
  const paramBaseOf = new Map<ShadingInstance, number>();
  const solids = frameSolids(frame, warn);
  const motion: FrameMotion = { moves: false, deforms: false, manyKeys: false };
  frame.primitives.forEach((primitive, index) => {
    const { geometry, attributes } = primitive;
    // 1 + the primitive's CSG leaf, 0 outside solids, -1 in an empty solid (nothing of it shows).
    const solid = solids.leafOf[index]!;
    if (solid < 0) return;
    const supported = QUADRICS.has(geometry.type) || POLYGONS.has(geometry.type) || geometry.type === 'Patch' || geometry.type === 'PatchMesh' ||
      geometry.type === 'Points' || geometry.type === 'Curves' || geometry.type === 'Blobby' || geometry.type === 'Geometry' || geometry.type === 'SubdivisionMesh' || geometry.type === 'NuPatch';
    if (!supported) {
      warn(`${geometry.type} is not rendered yet; skipped`);
      return;
    }
    const lod = importance(frame, camera, primitive.objectToWorld, spaces.world, warn, attributes);
    if (!lod) return;
    const request = shadingRequest(frame, index, spaces, layout, warn);
    const { objectToCamera } = request;
    const instance = provider(request);
    let pipeline = pipelineByKey.get(instance.kernel.key);
    if (pipeline === undefined) {
      pipeline = pipelines.length;
      pipelineByKey.set(instance.kernel.key, pipeline);
      pipelines.push({ kernel: instance.kernel, blocks: [], floats: 0, opaque: instance.kernel.keepsOpaque });
    }
    const entry = pipelines[pipeline]!;
    let paramBase = paramBaseOf.get(instance);
    if (paramBase === undefined) {
      paramBase = entry.floats;
      paramBaseOf.set(instance, paramBase);
      entry.blocks.push(instance.params);
      entry.floats += Math.ceil(instance.params.length / 4) * 4;
    }
    if (!leavesOpaque(attributes, geometry, solid > 0)) entry.opaque = false;

    const det = mat4.determinant(objectToCamera);
    const flip = attributes.orientation === 'rh' || (attributes.orientation === 'outside' && det < 0) ||
      (attributes.orientation === 'inside' && det >= 0);
    const flags = (flip ? PrimitiveFlag.flipNormal : 0) | (attributes.sides === 2 || solid > 0 ? PrimitiveFlag.twoSided : 0) |
      (attributes.matte ? PrimitiveFlag.matte : 0) | (attributes.shadingInterpolation === 'smooth' ? PrimitiveFlag.smooth : 0);
    const normalMatrix = mat3.normalFromMat4(mat3.create(), objectToCamera) ?? mat3.create();
    const bound = attributes.displacementBound.sphere * (attributes.displacementBound.coordinateSystem === 'camera' ? 1 : Math.cbrt(Math.abs(det)));
    const ctx: ConvertContext = {
      records,
      source: index,
      position: primitive.source,
      common: { flags, paramBase, pipeline, shadingRate: Math.max(attributes.shadingRate, 0.01), displacementBound: bound, objectToCamera, lod, ...(solid > 0 ? { solid } : {}) },
      normalMatrix,
      primvars: new Primvars(geometry.params),
      attributes,
      user,
      warn,
    };
    const deformation = deformationSamples(ctx, geometry, camera, primitive.source);
    const keys = motionKeys(frame, primitive.objectToWorld, primitive.motion, objectToCamera, deformation?.times);
    if (keys) {
      motion.moves = true;
      motion.manyKeys ||= keys.length > 2;
    }
    if (keys && deformation) {
      motion.deforms = true;
      const first = records.count;
      ctx.motionOf = (record) => packMotionKeys(keys, keys.map((key) => shapeAt(deformation.samples, deformation.times, record - first, key.time)));
    } else if (keys) ctx.common.motion = packMotionKeys(keys);
    convertShape(ctx, geometry, camera);
  });
  joinBezierEdges(records);
  return {
    records,
    solids: solids.table,
    motion,
    pipelines: pipelines.map((p) => {
      const params = new Float32Array(Math.max(4, p.floats));
      let at = 0;
      for (const block of p.blocks) {
        params.set(block, at);
        at += Math.ceil(block.length / 4) * 4;
      }
      return { kernel: p.kernel, params, opaque: p.opaque };
    }),
  };
}

/** Whether a primitive leaves its pipeline on the opaque path (sample and composite fused), given a
 * kernel that keeps Oi as Os: a matte is completely opaque whatever its opacity (reyes-composite.wgsl),
 * and a solid's samples are composited in depth order, back faces too, for the set operations. */
export function leavesOpaque(attributes: Attributes, geometry: Geometry, inSolid: boolean): boolean {
  if (inSolid) return false;
  return attributes.matte || !(attributes.opacity.some((o) => o < 1) || geometry.params.some((p) => p.name === 'Os'));
}

/** What the shading provider is asked for primitive `index` of `frame` (also for a prepared frame's
 * targeted edits, which repack one primitive's parameter block without converting the frame). */
export function shadingRequest(frame: Frame, index: number, spaces: KernelSpaces, layout: GridLayout, warn: (message: string) => void): ShadingRequest {
  const { geometry, attributes, objectToWorld } = frame.primitives[index]!;
  const objectToCamera = mat4.multiply(mat4.create(), spaces.world, objectToWorld as unknown as mat4);
  const lights = attributes.lights.map((id) => frame.lights[id]).filter((l) => l !== undefined);
  const primitiveVariables = layoutUserVariables(layout).filter((v) => geometry.params.some((p) => p.name === v.name && p.type === v.type)).map((v) => v.name);
  return { attributes, lights, layout, options: frame.options, objectToCamera, spaces, warn, primitiveVariables };
}

type ConvertCamera = Pick<FrameCamera, 'cameraToRaster' | 'perspective'>;

function convertShape(ctx: ConvertContext, geometry: Geometry, camera: ConvertCamera): void {
  if (QUADRICS.has(geometry.type)) convertQuadric(ctx, geometry);
  else if (POLYGONS.has(geometry.type)) convertPolygons(ctx, geometry);
  else if (geometry.type === 'Patch') convertPatch(ctx, geometry);
  else if (geometry.type === 'Points') convertPoints(ctx, camera.perspective);
  else if (geometry.type === 'Curves') convertCurves(ctx, geometry, camera.perspective);
  else if (geometry.type === 'Blobby') convertBlobby(ctx, geometry);
  else if (geometry.type === 'Geometry') convertGeometry(ctx, geometry);
  else if (geometry.type === 'SubdivisionMesh') convertSubdivisionMesh(ctx, geometry);
  else if (geometry.type === 'NuPatch') convertNuPatch(ctx, geometry);
  else convertPatchMesh(ctx, geometry);
}

/**
 * A primitive given in a motion block (deformation blur): each time sample's pieces, converted as
 * the first is (motion/deformation.ts); undefined when it does not deform, or (with a warning) when
 * its samples convert to different pieces and it renders at its first time sample.
 */
function deformationSamples(ctx: ConvertContext, geometry: Geometry, camera: ConvertCamera, source: SourcePosition): { times: number[]; samples: RecordShape[][] } | undefined {
  const times = geometry.motionTimes;
  // Blobby was warned about when parsed (it is polygonised per sample, so topologies differ).
  if (!times || geometry.motionSamples.length === 0 || geometry.type === 'Blobby') return undefined;
  const samples = [geometry, ...geometry.motionSamples].map((shape) => {
    const capture = new PrimitiveRecords(ctx.records.userFloats);
    convertShape({ ...ctx, records: capture, primvars: new Primvars(shape.params), warn: () => {} }, shape, camera);
    return recordShapes(capture);
  });
  if (!samples.every((shapes) => samePieces(samples[0]!, shapes))) {
    ctx.warn(`${source.file}:${source.line}:${source.column}: the time samples of this ${geometry.type} make different pieces, so it renders at its first time sample without deformation blur`);
    return undefined;
  }
  return deforms(samples) ? { times, samples } : undefined;
}

/** The share of its samples a primitive draws at its level of detail (level-of-detail.ts); undefined
 * when its DetailRange leaves it out. */
function importance(
  frame: Frame, camera: Pick<FrameCamera, 'cameraToRaster' | 'perspective'>, objectToWorld: readonly number[], worldToCamera: mat4,
  warn: (message: string) => void, attributes: Attributes,
): Importance | undefined {
  const range = attributes.detailRange;
  if (range[0]! <= 0 && range[1]! <= 0 && range[2]! >= RI_INFINITY && range[3]! >= RI_INFINITY) return FULL_IMPORTANCE;
  if (!attributes.detail) {
    warn(`DetailRange [${range.join(' ')}] without a Detail bound: drawn at every detail`);
    return FULL_IMPORTANCE;
  }
  const detailToWorld = (attributes.detailToWorld ?? objectToWorld) as unknown as mat4;
  const detailToCamera = mat4.multiply(mat4.create(), worldToCamera, detailToWorld);
  const area = rasterArea(attributes.detail, detailToCamera, camera.cameraToRaster, camera.perspective);
  return detailImportance(area * frame.options.relativeDetail, range);
}

/** Throws a BindingLimitError when a buffer the stages bind whole would pass `maxBindingBytes`: a
 * pipeline's parameter blocks. (The records and their auxiliary values are taken in batches past it:
 * frame/record-batches.ts.) */
export function checkFrameBindings(converted: ConvertedFrame, maxBindingBytes: number): void {
  const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  const check = (what: string, bytes: number): void => {
    if (bytes > maxBindingBytes) {
      throw new BindingLimitError(`${what} take ${mib(bytes)}, more than one storage binding of this device holds (${mib(maxBindingBytes)}); render fewer primitives at a time`);
    }
  };
  for (const p of converted.pipelines) check(`the shader parameters of "${p.kernel.label}"`, p.params.byteLength);
}
