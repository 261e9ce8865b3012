// The graphics-state machine: applies requests in order to the option, attribute and
// transformation state and records lights, primitives and frames into a Scene. A request that
// is invalid here (wrong scope, unbalanced block, bad values) is reported and skipped.
// ReadArchive is not read here: apply() returns what to read and the reader (reader.ts) feeds
// the archive's requests back in, so this module stays synchronous and free of I/O.

import { namedBasis } from './basis.ts';
import { STANDARD_DECLARATIONS, parseDeclaration } from './declarations.ts';
import type { Declaration } from './declarations.ts';
import { defaultAttributes, defaultCamera, defaultOptions } from './defaults.ts';
import type { DiagnosticSink, SourcePosition } from './diagnostics.ts';
import type { ArgValue, RawParam, RibRequest } from './parser.ts';
import { storageCounts } from './primitive-counts.ts';
import { NotHonouredReporter } from './not-honoured.ts';
import { findParameter, typeParameter } from './param-typing.ts';
import type { ParamUse, TypingContext } from './param-typing.ts';
import type {
  Attributes, Basis, Camera, Frame, Geometry, Light, Matrix4, Options, Parameter, Primitive,
  PrimitiveType, Scene, ShaderRef, Solid, StructureComment, TextureRequest, TransformSample,
} from './scene.ts';
import { SHADOW_MAP_SIZES } from './scene.ts';
import { scopeViolation } from './scopes.ts';
import { boundMayBeVisible } from './screen-bound.ts';
import { imageTooLarge } from './image-limits.ts';
import { nonFiniteInput } from './non-finite.ts';
import { expandPrevious } from './search-paths.ts';
import { concat, identity, invert, perspective, rotation, scaling, skew, transformNormal, transformPoint, translation } from './transforms.ts';

/** What the reader must fetch for a ReadArchive or DelayedReadArchive request. */
export interface ArchiveNeed {
  fileName: string;
  request: string;
  pos: SourcePosition;
  /** DelayedReadArchive: read inside an implicit AttributeBegin/End. */
  isolated: boolean;
}

type BlockKind = 'frame' | 'world' | 'attribute' | 'transform' | 'solid' | 'object';

interface Block {
  kind: BlockKind;
  request: string;
  pos: SourcePosition;
  attributes: Attributes;
  ctm: Matrix4;
  motion: TransformSample[] | null;
  /** FrameBegin saves the options and camera, restored at FrameEnd. */
  saved?: { options: Options; camera: Camera; declarations: Map<string, Declaration> };
}

interface ObjectItem {
  geometry: Geometry;
  /** Transform from the primitive to the space current at ObjectBegin. */
  relative: Matrix4;
}

interface MotionBlock {
  times: number[];
  pos: SourcePosition;
  requests: RibRequest[];
}

interface PendingLight {
  light: Light;
  /** Lights declared before WorldBegin are placed relative to the camera. */
  lightToCamera: Matrix4 | null;
}

/** The largest `Option "limits" "shaderloopiterations"`: the cap is there so that no shader hangs a
 * GPU without a watchdog, and 10^8 iterations of one vertex already run for a good part of a second. */
export const MAX_SHADER_LOOP_ITERATIONS = 100_000_000;

/** The request name of the implicit blocks no RIB request may close. */
const FRAGMENT = 'fragment';
const IMPLICIT_BLOCKS = new Set(['Procedural', FRAGMENT]);

const TRANSFORM_REQUESTS = new Set(['Identity', 'Transform', 'ConcatTransform', 'Perspective', 'Translate', 'Rotate', 'Scale', 'Skew']);
const BLOCK_ENDS: Record<string, BlockKind> = {
  FrameEnd: 'frame', WorldEnd: 'world', AttributeEnd: 'attribute', TransformEnd: 'transform',
  SolidEnd: 'solid', ObjectEnd: 'object',
};
const SHADER_SLOTS = {
  Surface: 'surface', Displacement: 'displacement', Atmosphere: 'atmosphere', Interior: 'interior', Exterior: 'exterior',
  Deformation: 'deformation',
} as const;

/** Raised inside apply() for a request that must be skipped; caught there and reported. */
class RequestError {
  constructor(readonly message: string, readonly pos?: SourcePosition) {}
}

function argsByName(req: RibRequest): Record<string, ArgValue> {
  const out: Record<string, ArgValue> = {};
  req.def.args.forEach((spec, i) => {
    const v = req.args[i];
    if (v !== undefined) out[spec.name] = v;
  });
  return out;
}

export class SceneBuilder {
  private options: Options = defaultOptions();
  private camera: Camera = defaultCamera();
  private attributes: Attributes = defaultAttributes();
  private ctm: Matrix4 = identity();
  private motion: TransformSample[] | null = null;
  private declarations = new Map<string, Declaration>(STANDARD_DECLARATIONS);
  private screenWindowGiven = false;
  private frameAspectGiven = false;

  private readonly blocks: Block[] = [];
  private fragment = false;
  private frame: Frame | null = null;
  private frameNumber: number | null = null;
  private lights: PendingLight[] = [];
  private lightHandles = new Map<string, number>();
  private cameraSpaces = new Map<string, Matrix4>();
  private worldSpaces = new Map<string, Matrix4>();
  private objects = new Map<string, ObjectItem[]>();
  private currentObject: { handle: string; items: ObjectItem[]; base: Matrix4 } | null = null;
  private motionBlock: MotionBlock | null = null;
  /** The open solid blocks, innermost last. */
  private solids: Solid[] = [];

  private readonly scene: Scene;
  private readonly notHonoured: NotHonouredReporter;
  /** Geometry built for a request replayed from a cached archive, shared while the typing state
   * it depends on is the same (as ObjectInstance shares an object's geometry). */
  private readonly sharedGeometry = new WeakMap<RibRequest, { key: readonly unknown[]; geometry: Geometry }>();

  constructor(
    private readonly diagnostics: DiagnosticSink,
    private readonly settings: { skipOffScreenArchives: boolean } = { skipOffScreenArchives: true },
  ) {
    this.notHonoured = new NotHonouredReporter(diagnostics);
    this.scene = {
      frames: [], version: null, structureComments: [], textureRequests: [],
      errors: diagnostics.errors, warnings: diagnostics.warnings,
    };
  }

  readonly onStructureComment = (text: string, pos: SourcePosition): void => {
    this.scene.structureComments.push({ text, pos } satisfies StructureComment);
  };

  /** Applies one request; returns an archive to read when the request names one. */
  apply(req: RibRequest): ArchiveNeed | null {
    try {
      return this.dispatch(req);
    } catch (e) {
      if (!(e instanceof RequestError)) throw e;
      this.diagnostics.error(e.pos ?? req.pos, req.name, e.message);
      return null;
    }
  }

  /** The parameters of an Option, e.g. optionValue("searchpath"). */
  optionValue(name: string): Parameter[] | undefined {
    return this.options.user[name];
  }

  /**
   * Reads what follows as an archive fragment (geometry with no WorldBegin of its own): as if
   * inside a world block that the stream never opens or closes; options are taken too.
   */
  beginFragment(pos: SourcePosition): void {
    this.beginWorld(pos);
    this.blocks[this.blocks.length - 1]!.request = FRAGMENT;
    this.fragment = true;
  }

  /** Wraps the requests of a DelayedReadArchive in an implicit attribute block. */
  beginIsolated(pos: SourcePosition): void {
    this.pushBlock('attribute', 'Procedural', pos);
  }

  endIsolated(): void {
    const top = this.blocks[this.blocks.length - 1];
    if (top && top.request === 'Procedural') this.popBlock();
  }

  /** Closes whatever the stream left open (reporting each) and returns the scene. */
  finish(endPos: SourcePosition): Scene {
    if (this.motionBlock) {
      this.diagnostics.error(this.motionBlock.pos, 'MotionBegin', 'MotionBegin is never closed by MotionEnd');
      this.motionBlock = null;
    }
    while (this.blocks.length > 0) {
      const top = this.blocks[this.blocks.length - 1]!;
      if (top.request === FRAGMENT) {
        this.endWorld();
        this.popBlock();
        continue;
      }
      this.diagnostics.error(top.pos, top.request, `${top.request} is never closed (end of input at line ${endPos.line})`);
      if (top.kind === 'world') this.endWorld();
      else if (top.kind === 'object') this.endObject();
      this.popBlock();
    }
    return this.scene;
  }

  // ---- dispatch ----

  private dispatch(req: RibRequest): ArchiveNeed | null {
    if (this.motionBlock && req.name !== 'MotionEnd') {
      const violation = scopeViolation(req.def.category, this.where());
      if (violation || req.def.category === 'block') throw new RequestError(violation ?? 'not valid inside MotionBegin/MotionEnd');
      this.motionBlock.requests.push(req);
      return null;
    }
    // A fragment may also hold options (a camera archive): only the implicit world is open.
    const fragmentOption = this.fragment && req.def.category === 'option' && this.blocks.length === 1;
    const violation = fragmentOption ? null : scopeViolation(req.def.category, this.where());
    if (violation) throw new RequestError(violation);
    switch (req.def.category) {
      case 'block': this.applyBlock(req); return null;
      case 'option': this.applyOption(req); return null;
      case 'attribute': this.applyAttribute(req); return null;
      case 'transform': this.applyTransform(req); return null;
      case 'geometry': return this.applyGeometry(req);
      case 'texture': this.applyTexture(req); return null;
      case 'anywhere': return this.applyAnywhere(req);
    }
  }

  private where(): { inWorld: boolean; inObject: boolean; inMotion: boolean } {
    return { inWorld: this.frame !== null, inObject: this.currentObject !== null, inMotion: this.motionBlock !== null };
  }

  private typing(): TypingContext {
    return { declarations: this.declarations, colorSamples: this.options.colorSamples?.nRGB.length ? this.options.colorSamples.nRGB.length / 3 : 3 };
  }

  private get colorSamples(): number {
    return this.typing().colorSamples;
  }

  /** Types a parameter list; any bad parameter makes the whole request fail. */
  private typeParams(params: RawParam[], use: ParamUse): Parameter[] {
    const ctx = this.typing();
    const out: Parameter[] = [];
    for (const raw of params) {
      const typed = typeParameter(raw, ctx, use);
      if (typeof typed === 'string') throw new RequestError(typed, raw.pos);
      const existing = out.findIndex((p) => p.name === typed.name);
      if (existing >= 0) out[existing] = typed;
      else out.push(typed);
    }
    return out;
  }

  private setAttributes(change: Partial<Attributes>): void {
    // Copy on write: primitives already emitted keep the object they were given.
    this.attributes = { ...this.attributes, ...change };
  }

  private setCtm(m: Matrix4): void {
    this.ctm = m;
    this.motion = null;
  }

  // ---- blocks ----

  private pushBlock(kind: BlockKind, request: string, pos: SourcePosition): Block {
    const block: Block = { kind, request, pos, attributes: this.attributes, ctm: this.ctm, motion: this.motion };
    this.blocks.push(block);
    return block;
  }

  private popBlock(): Block {
    const block = this.blocks.pop()!;
    // TransformBegin/End saves only the transformation; lights and attributes set inside stay.
    if (block.kind !== 'transform') this.attributes = block.attributes;
    this.ctm = block.ctm;
    this.motion = block.motion;
    if (block.saved) {
      this.options = block.saved.options;
      this.camera = block.saved.camera;
      this.declarations = block.saved.declarations;
    }
    return block;
  }

  private applyBlock(req: RibRequest): void {
    const a = argsByName(req);
    const name = req.name;
    const endKind = BLOCK_ENDS[name];
    if (endKind) {
      const top = this.blocks[this.blocks.length - 1];
      if (!top || top.kind !== endKind || IMPLICIT_BLOCKS.has(top.request)) {
        const open = top && !IMPLICIT_BLOCKS.has(top.request) ? `; the innermost open block is ${top.request} at line ${top.pos.line}` : '';
        throw new RequestError(`${name} without a matching ${name.replace('End', 'Begin')}${open}`);
      }
      if (endKind === 'world') this.endWorld();
      if (endKind === 'object') this.endObject();
      this.popBlock();
      if (endKind === 'solid') this.solids.pop();
      if (endKind === 'frame') {
        this.frameNumber = null;
        this.lights = [];
        this.lightHandles = new Map();
      }
      return;
    }
    switch (name) {
      case 'FrameBegin': {
        if (this.blocks.length > 0) throw new RequestError('FrameBegin must be outside every other block');
        const block = this.pushBlock('frame', name, req.pos);
        block.saved = { options: structuredClone(this.options), camera: structuredClone(this.camera), declarations: new Map(this.declarations) };
        this.frameNumber = (a.frame as number | undefined) ?? null;
        this.lights = [];
        this.lightHandles = new Map();
        return;
      }
      case 'WorldBegin':
        if (this.frame) throw new RequestError('WorldBegin inside another world block');
        if (this.blocks.some((b) => b.kind !== 'frame')) throw new RequestError('WorldBegin must be at the top level or directly inside FrameBegin');
        this.beginWorld(req.pos);
        return;
      case 'AttributeBegin':
        this.pushBlock('attribute', name, req.pos);
        return;
      case 'TransformBegin':
        this.pushBlock('transform', name, req.pos);
        return;
      case 'SolidBegin': {
        const op = a.operation as string;
        if (!['primitive', 'union', 'intersection', 'difference'].includes(op)) throw new RequestError(`unknown solid operation "${op}"`);
        if (!this.frame) throw new RequestError('only valid inside WorldBegin/WorldEnd');
        const parent = this.solids[this.solids.length - 1];
        if (parent?.operation === 'primitive') {
          this.diagnostics.warning(req.pos, name, 'SolidBegin inside a "primitive" solid is not allowed (RI 3.2); its primitives belong to the enclosing primitive solid');
        }
        this.pushBlock('solid', name, req.pos);
        const solid: Solid = { operation: op, primitives: [], start: this.frame.primitives.length, parent: parent ? this.frame.solids.indexOf(parent) : null, source: req.pos };
        this.solids.push(solid);
        this.frame.solids.push(solid);
        return;
      }
      case 'ObjectBegin':
        if (this.currentObject) throw new RequestError('ObjectBegin cannot be nested');
        this.pushBlock('object', name, req.pos);
        this.currentObject = { handle: String(a.handle), items: [], base: this.ctm };
        return;
      case 'MotionBegin': {
        const times = a.times as number[];
        if (times.length === 0) throw new RequestError('MotionBegin needs at least one time');
        if (times.some((t, i) => i > 0 && t < times[i - 1]!)) throw new RequestError('motion times must not decrease');
        this.motionBlock = { times, pos: req.pos, requests: [] };
        return;
      }
      case 'MotionEnd':
        if (!this.motionBlock) throw new RequestError('MotionEnd without a matching MotionBegin');
        this.endMotion();
        return;
    }
  }

  private beginWorld(pos: SourcePosition): void {
    const o = this.options;
    if (!this.frameAspectGiven) o.frameAspectRatio = (o.xResolution * o.pixelAspectRatio) / o.yResolution;
    if (!this.screenWindowGiven) {
      const r = o.frameAspectRatio;
      o.screenWindow = r >= 1 ? [-r, r, -1, 1] : [-1, 1, -1 / r, 1 / r];
    }
    const camera = structuredClone(this.camera);
    camera.worldToCamera = this.ctm;
    camera.motion = this.motion;
    const cameraToWorld = invert(this.ctm) ?? identity();
    const coordinateSystems: Record<string, Matrix4> = { world: identity(), camera: cameraToWorld };
    for (const [space, toCamera] of this.cameraSpaces) coordinateSystems[space] = concat(cameraToWorld, toCamera);
    this.frame = {
      frameNumber: this.frameNumber,
      options: structuredClone(o),
      camera,
      lights: [],
      primitives: [],
      coordinateSystems,
      textureRequests: [],
      solids: [],
      culledArchives: 0,
    };
    // Lights declared before WorldBegin were placed in camera space.
    for (const pending of this.lights) {
      if (pending.lightToCamera) pending.light.lightToWorld = concat(cameraToWorld, pending.lightToCamera);
      this.frame.lights.push(pending.light);
    }
    this.pushBlock('world', 'WorldBegin', pos);
    this.worldSpaces = new Map();
    this.setCtm(identity());
  }

  private endWorld(): void {
    if (!this.frame) return;
    this.scene.frames.push(this.frame);
    this.frame = null;
    // Lights of the world block go with it; those from before WorldBegin stay for the next one.
    this.lights = this.lights.filter((l) => l.lightToCamera !== null);
    this.lightHandles = new Map(this.lights.map((l) => [l.light.handle, l.light.id]));
    this.objects = new Map();
  }

  private endObject(): void {
    if (!this.currentObject) return;
    this.objects.set(this.currentObject.handle, this.currentObject.items);
    this.currentObject = null;
  }

  private endMotion(): void {
    const block = this.motionBlock!;
    this.motionBlock = null;
    const { times, requests } = block;
    if (requests.length === 0) return;
    if (requests.length !== times.length) {
      throw new RequestError(`MotionBegin gives ${times.length} times but the block holds ${requests.length} requests`, block.pos);
    }
    const first = requests[0]!;
    if (requests.some((r) => r.name !== first.name)) {
      throw new RequestError(`a motion block must repeat one request; found ${[...new Set(requests.map((r) => r.name))].join(', ')}`, block.pos);
    }
    if (TRANSFORM_REQUESTS.has(first.name)) {
      const base = this.ctm;
      const samples: TransformSample[] = requests.map((r, i) => ({ time: times[i]!, matrix: this.transformed(base, r) }));
      this.ctm = samples[0]!.matrix;
      this.motion = samples;
      return;
    }
    if (first.def.category === 'geometry' && first.name !== 'ObjectInstance' && first.name !== 'Procedural') {
      const geometries = requests.map((r) => this.buildGeometry(r));
      const [head, ...rest] = geometries;
      for (const g of rest) {
        if (g.counts.vertex !== head!.counts.vertex || g.params.length !== head!.params.length) {
          throw new RequestError(`the ${first.name} samples of a motion block must have the same topology and parameters`, block.pos);
        }
      }
      head!.motionSamples = rest;
      if (rest.length > 0) head!.motionTimes = times;
      // Blobby is polygonised per time sample on the CPU, so its samples need not share a topology.
      if (rest.length > 0 && first.name === 'Blobby') {
        this.diagnostics.warning(block.pos, first.name, 'deformation motion blur of Blobby is not supported yet; it renders at its first time sample');
      }
      this.emit(head!, first.pos);
      return;
    }
    this.diagnostics.warning(block.pos, first.name, `motion blur of ${first.name} is not supported; the first sample is used`);
    this.dispatch(first);
  }

  // ---- options ----

  private applyOption(req: RibRequest): void {
    const a = argsByName(req);
    const o = this.options;
    const c = this.camera;
    switch (req.name) {
      case 'Format': {
        const [x, y, aspect] = [a.xresolution as number, a.yresolution as number, a.pixelaspectratio as number];
        if (x <= 0 || y <= 0) throw new RequestError(`resolution must be positive, got ${x} × ${y}`);
        const tooLarge = imageTooLarge(x, y);
        if (tooLarge) throw new RequestError(`${tooLarge}; Format ignored`);
        o.xResolution = x;
        o.yResolution = y;
        o.pixelAspectRatio = aspect > 0 ? aspect : 1;
        return;
      }
      case 'FrameAspectRatio':
        if (!((a.frameaspectratio as number) > 0)) throw new RequestError('frame aspect ratio must be positive');
        o.frameAspectRatio = a.frameaspectratio as number;
        this.frameAspectGiven = true;
        return;
      case 'ScreenWindow':
        o.screenWindow = [a.left as number, a.right as number, a.bottom as number, a.top as number];
        this.screenWindowGiven = true;
        return;
      case 'CropWindow': {
        const w: [number, number, number, number] = [a.xmin as number, a.xmax as number, a.ymin as number, a.ymax as number];
        if (w.some((v) => v < 0 || v > 1) || w[0] > w[1] || w[2] > w[3]) throw new RequestError(`crop window must lie within [0,1] with min ≤ max, got ${w.join(' ')}`);
        o.cropWindow = w;
        return;
      }
      case 'Projection': {
        const params = this.typeParams(req.params, { kind: 'shader-or-option' });
        c.projection = a.name as string;
        c.projectionParams = params;
        const fov = findParameter(params, 'fov');
        if (fov) {
          const v = (fov.values as number[])[0]!;
          if (!(v > 0 && v < 180)) throw new RequestError(`fov must be between 0 and 180 degrees, got ${v}`);
          c.fov = v;
        } else c.fov = 90;
        // The camera transformation is given after Projection.
        this.setCtm(identity());
        return;
      }
      case 'Clipping':
        if (!((a.near as number) > 0 && (a.far as number) > (a.near as number))) throw new RequestError(`need 0 < near < far, got ${a.near} ${a.far}`);
        c.near = a.near as number;
        c.far = a.far as number;
        return;
      case 'ClippingPlane': {
        // Given in the current space (RI 3.2): kept in camera space, where the CTM before
        // WorldBegin takes it.
        const normal = [a.nx, a.ny, a.nz] as [number, number, number];
        if (normal.every((v) => v === 0)) throw new RequestError('the clipping plane normal has zero length');
        const cameraNormal = transformNormal(this.ctm, normal);
        if (!cameraNormal) throw new RequestError('the current transformation is singular');
        c.clippingPlanes.push([...transformPoint(this.ctm, [a.x, a.y, a.z] as [number, number, number]), ...cameraNormal]);
        return;
      }
      case 'DepthOfField':
        if (a.fstop !== undefined && (a.focallength === undefined || a.focaldistance === undefined)) {
          throw new RequestError('DepthOfField takes no arguments or three (fstop focallength focaldistance)');
        }
        c.depthOfField = a.fstop === undefined ? null
          : { fstop: a.fstop as number, focalLength: a.focallength as number, focalDistance: a.focaldistance as number };
        return;
      case 'Shutter':
        c.shutter = [a.opentime as number, a.closetime as number];
        return;
      case 'PixelVariance':
        o.pixelVariance = a.variation as number;
        return;
      case 'PixelSamples':
        if (!((a.xsamples as number) >= 1 && (a.ysamples as number) >= 1)) throw new RequestError(`pixel samples must be at least 1, got ${a.xsamples} ${a.ysamples}`);
        o.pixelSamples = [a.xsamples as number, a.ysamples as number];
        return;
      case 'PixelFilter': {
        const filter = a.filter as string;
        if (!['box', 'triangle', 'catmull-rom', 'gaussian', 'sinc', 'b-spline', 'mitchell', 'bessel', 'disk', 'lanczos', 'blackman-harris', 'separable-catmull-rom'].includes(filter)) {
          this.diagnostics.warning(req.pos, req.name, `unknown pixel filter "${filter}"`);
        }
        o.pixelFilter = { name: filter, xWidth: a.xwidth as number, yWidth: a.ywidth as number };
        return;
      }
      case 'Exposure':
        o.exposure = { gain: a.gain as number, gamma: a.gamma as number };
        return;
      case 'Imager':
        o.imager = a.name === 'null' ? null : { ...this.shader(req), source: req.pos };
        return;
      case 'Quantize': {
        const type = a.type as string;
        const q = { one: a.one as number, min: a.min as number, max: a.max as number, ditherAmplitude: a.ditheramplitude as number };
        if (type === 'rgba') o.quantize.rgba = q;
        else if (type === 'z') o.quantize.z = q;
        else throw new RequestError(`quantize type must be "rgba" or "z", not "${type}"`);
        return;
      }
      case 'Display': {
        let name = a.name as string;
        const params = this.typeParams(req.params, { kind: 'shader-or-option' });
        const additional = name.startsWith('+');
        if (additional) name = name.slice(1);
        const mode = a.mode as string;
        const declaredType = this.declarations.get(mode.trim().split(/\s+/).at(-1)!)?.type;
        const display = { name, type: a.type as string, mode, params, ...(declaredType ? { declaredType } : {}), source: req.pos };
        o.displays = additional ? [...o.displays, display] : [display];
        return;
      }
      case 'DisplayChannel': {
        // "color foo": a declaration followed by the variable's name.
        const words = (a.channel as string).trim().split(/\s+/);
        const decl = words.length > 1 ? parseDeclaration(words.slice(0, -1).join(' ')) : `"${a.channel as string}" needs a type and a name ("color foo")`;
        if (typeof decl === 'string') throw new RequestError(decl);
        const params = this.typeParams(req.params, { kind: 'shader-or-option' });
        // Each channel is filtered with the pixel filter and quantized as its Display says.
        for (const p of params) this.diagnostics.warning(req.pos, req.name, `parameter "${p.name}" of DisplayChannel "${a.channel as string}" is not honoured; the channel uses the frame's PixelFilter and its Display's Quantize`);
        const channel = { name: words.at(-1)!, type: decl.type, params, source: req.pos };
        o.displayChannels = [...o.displayChannels.filter((c) => c.name !== channel.name), channel];
        return;
      }
      case 'Hider':
        o.hider = { type: a.type as string, params: this.typeParams(req.params, { kind: 'shader-or-option' }) };
        return;
      case 'ColorSamples': {
        const nRGB = a.nRGB as number[];
        const RGBn = a.RGBn as number[];
        if (nRGB.length === 0 || nRGB.length % 3 !== 0 || RGBn.length !== nRGB.length) throw new RequestError('ColorSamples needs two matrices of n × 3 values');
        o.colorSamples = { nRGB, RGBn };
        return;
      }
      case 'RelativeDetail':
        o.relativeDetail = a.relativedetail as number;
        return;
      case 'Option': {
        const name = a.name as string;
        let params = this.typeParams(req.params, { kind: 'shader-or-option' });
        // In a search path "&" is the path set before; with none set, "&" (like "@") is the default.
        if (name === 'searchpath') params = params.map((p) => expandPrevious(p, o.user[name]));
        if (name === 'limits') params = params.filter((p) => this.limitInRange(p, req));
        o.user = { ...o.user, [name]: mergeParams(o.user[name] ?? [], params) };
        return;
      }
    }
  }

  /** The `Option "limits"` values the renderer reads must make sense: gpumemory a positive number of
   * MiB, texturememory of KiB, eyesplits a count of at least 0, shaderloopiterations a count from 1 to
   * MAX_SHADER_LOOP_ITERATIONS. Others are warned about here, at the request, and dropped. */
  private limitInRange(param: Parameter, req: RibRequest): boolean {
    const value = param.values[0];
    const bad = param.name === 'gpumemory' || param.name === 'texturememory' ? !(typeof value === 'number' && value > 0)
      : param.name === 'eyesplits' ? !(typeof value === 'number' && value >= 0 && Number.isInteger(value))
      : param.name === 'shaderloopiterations' ? !(typeof value === 'number' && value >= 1 && value <= MAX_SHADER_LOOP_ITERATIONS && Number.isInteger(value)) : false;
    if (bad) {
      const wanted = param.name === 'gpumemory' ? 'a positive number of MiB' : param.name === 'texturememory' ? 'a positive number of KiB'
        : param.name === 'eyesplits' ? 'a whole number of splits, at least 0' : `a whole number of iterations from 1 to ${MAX_SHADER_LOOP_ITERATIONS}`;
      this.diagnostics.warning(req.pos, req.name, `Option "limits" "${param.name}" must be ${wanted}, not ${JSON.stringify(param.values)}; ignored`);
    }
    return !bad;
  }

  // ---- attributes ----

  private shader(req: RibRequest): ShaderRef {
    return { name: req.args[0] as string, params: this.typeParams(req.params, { kind: 'shader-or-option' }), shaderToWorld: this.ctm };
  }

  /** Attribute "light" "shadowmapsize" [n] ("auto" shadow maps' resolution) must be an integer in
   * SHADOW_MAP_SIZES; another value is dropped with a warning (the size in force stays). */
  private validShadowMapSize(req: RibRequest, params: Parameter[]): Parameter[] {
    return params.filter((p) => {
      if (p.name !== 'shadowmapsize') return true;
      const n = p.values[0];
      const [min, max] = SHADOW_MAP_SIZES;
      if (p.values.length === 1 && typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max) return true;
      this.diagnostics.warning(req.pos, req.name, `Attribute "light" "shadowmapsize" must be one integer from ${min} to ${max}, found [${p.values.join(' ')}]; ignored`);
      return false;
    });
  }

  private applyAttribute(req: RibRequest): void {
    const a = argsByName(req);
    const attrs = this.attributes;
    switch (req.name) {
      case 'Color': case 'Opacity': {
        const values = a.color as number[];
        if (values.length !== this.colorSamples) throw new RequestError(`${req.name} needs ${this.colorSamples} values, found ${values.length}`);
        this.setAttributes(req.name === 'Color' ? { color: values } : { opacity: values });
        return;
      }
      case 'TextureCoordinates':
        this.setAttributes({ textureCoordinates: req.args as number[] });
        return;
      case 'LightSource': case 'AreaLightSource': {
        const shader = this.shader(req);
        const handle = typeof a.handle === 'number' ? String(a.handle) : (a.handle as string);
        const id = this.lights.length;
        const size = findParameter(attrs.user['light'] ?? [], 'shadowmapsize')?.values[0];
        const light: Light = {
          id, handle, shader: shader.name, params: shader.params, lightToWorld: this.ctm,
          area: req.name === 'AreaLightSource', source: req.pos, ...(typeof size === 'number' ? { shadowMapSize: size } : {}),
        };
        this.lights.push({ light, lightToCamera: this.frame ? null : this.ctm });
        if (this.frame) this.frame.lights.push(light);
        this.lightHandles.set(handle, id);
        this.setAttributes({
          lights: [...attrs.lights, id],
          ...(light.area ? { areaLight: id } : {}),
        });
        return;
      }
      case 'Illuminate': {
        const handle = typeof a.light === 'number' ? String(a.light) : (a.light as string);
        const id = this.lightHandles.get(handle);
        if (id === undefined) throw new RequestError(`no light source has the handle ${handle}`);
        const others = attrs.lights.filter((l) => l !== id);
        this.setAttributes({ lights: (a.onoff as number) !== 0 ? [...others, id] : others });
        return;
      }
      case 'Surface': case 'Displacement': case 'Atmosphere': case 'Interior': case 'Exterior': case 'Deformation': {
        const slot = SHADER_SLOTS[req.name];
        if ((req.name === 'Interior' || req.name === 'Exterior' || req.name === 'Deformation') && a.name !== 'null') this.notHonoured.note(req.name, req.pos);
        this.setAttributes({ [slot]: a.name === 'null' ? null : { ...this.shader(req), source: req.pos } });
        return;
      }
      case 'ShadingRate':
        if (!((a.size as number) > 0)) throw new RequestError(`shading rate must be positive, got ${a.size}`);
        this.setAttributes({ shadingRate: a.size as number });
        return;
      case 'ShadingInterpolation': {
        const t = a.type as string;
        if (t !== 'constant' && t !== 'smooth') throw new RequestError(`shading interpolation must be "constant" or "smooth", not "${t}"`);
        this.setAttributes({ shadingInterpolation: t });
        return;
      }
      case 'Matte':
        this.setAttributes({ matte: (a.onoff as number) !== 0 });
        return;
      case 'Bound':
        this.setAttributes({ bound: a.bound as number[] });
        return;
      case 'Detail':
        this.setAttributes({ detail: a.bound as number[], detailToWorld: this.ctm });
        return;
      case 'DetailRange': {
        const range = req.args as number[];
        if (range.some((v, i) => i > 0 && v < range[i - 1]!)) {
          throw new RequestError(`need minvisible ≤ lowertransition ≤ uppertransition ≤ maxvisible, got ${range.join(' ')}`);
        }
        this.setAttributes({ detailRange: range });
        return;
      }
      case 'GeometricApproximation':
        this.setAttributes({ geometricApproximation: { ...attrs.geometricApproximation, [a.type as string]: a.value as number } });
        return;
      case 'Orientation': {
        const o = a.orientation as string;
        if (o !== 'outside' && o !== 'inside' && o !== 'lh' && o !== 'rh') throw new RequestError(`orientation must be "outside", "inside", "lh" or "rh", not "${o}"`);
        this.setAttributes({ orientation: o });
        return;
      }
      case 'ReverseOrientation': {
        const flip = { outside: 'inside', inside: 'outside', lh: 'rh', rh: 'lh' } as const;
        this.setAttributes({ orientation: flip[attrs.orientation] });
        return;
      }
      case 'Sides': {
        const s = a.sides as number;
        if (s !== 1 && s !== 2) throw new RequestError(`sides must be 1 or 2, got ${s}`);
        this.setAttributes({ sides: s });
        return;
      }
      case 'Attribute': {
        const name = a.name as string;
        const params = name === 'light' ? this.validShadowMapSize(req, this.typeParams(req.params, { kind: 'shader-or-option' }))
          : this.typeParams(req.params, { kind: 'shader-or-option' });
        const change: Partial<Attributes> = { user: { ...attrs.user, [name]: mergeParams(attrs.user[name] ?? [], params) } };
        if (name === 'displacementbound') {
          const sphere = findParameter(params, 'sphere');
          const space = findParameter(params, 'coordinatesystem');
          change.displacementBound = {
            sphere: sphere ? (sphere.values as number[])[0]! : attrs.displacementBound.sphere,
            coordinateSystem: space ? (space.values as string[])[0]! : attrs.displacementBound.coordinateSystem,
          };
        }
        this.setAttributes(change);
        return;
      }
      case 'Basis':
        this.setAttributes({
          uBasis: this.basis(a.ubasis!, a.ustep as number, 'u'),
          vBasis: this.basis(a.vbasis!, a.vstep as number, 'v'),
        });
        return;
      case 'TrimCurve': {
        const [ncurves, order, knot, min, max, n, u, v, w] = req.args as number[][];
        this.setAttributes({ trimCurves: { ncurves: ncurves!, order: order!, knot: knot!, min: min!, max: max!, n: n!, u: u!, v: v!, w: w! } });
        return;
      }
    }
  }

  private basis(value: ArgValue, step: number, dir: string): Basis {
    if (!(step >= 1)) throw new RequestError(`${dir}step must be at least 1, got ${step}`);
    if (typeof value === 'string') {
      const b = namedBasis(value, step);
      if (!b) throw new RequestError(`unknown basis "${value}" (known: bezier, b-spline, catmull-rom, hermite, power)`);
      return b;
    }
    return { name: null, matrix: value as number[], step };
  }

  // ---- transformations ----

  /** The matrix a transformation request makes from `base`. */
  private transformed(base: Matrix4, req: RibRequest): Matrix4 {
    const n = req.args as number[];
    switch (req.name) {
      case 'Identity': return identity();
      case 'Transform': return (req.args[0] as number[]).slice();
      case 'ConcatTransform': return concat(base, req.args[0] as number[]);
      case 'Perspective':
        if (!(n[0]! > 0 && n[0]! < 180)) throw new RequestError(`fov must be between 0 and 180 degrees, got ${n[0]}`);
        return concat(base, perspective(n[0]!));
      case 'Translate': return concat(base, translation(n[0]!, n[1]!, n[2]!));
      case 'Scale': return concat(base, scaling(n[0]!, n[1]!, n[2]!));
      case 'Rotate': {
        const r = rotation(n[0]!, n[1]!, n[2]!, n[3]!);
        if (!r) throw new RequestError('the rotation axis has zero length');
        return concat(base, r);
      }
      case 'Skew': {
        const s = skew(n[0]!, [n[1]!, n[2]!, n[3]!], [n[4]!, n[5]!, n[6]!]);
        if (typeof s === 'string') throw new RequestError(s);
        return concat(base, s);
      }
    }
    throw new RequestError(`${req.name} is not a transformation`);
  }

  private applyTransform(req: RibRequest): void {
    switch (req.name) {
      case 'CoordinateSystem': {
        const space = req.args[0] as string;
        if (this.frame) {
          this.worldSpaces.set(space, this.ctm);
          this.frame.coordinateSystems[space] = this.ctm;
        } else this.cameraSpaces.set(space, this.ctm);
        return;
      }
      case 'CoordSysTransform': {
        const space = req.args[0] as string;
        const m = this.frame ? this.frame.coordinateSystems[space] : this.cameraSpaces.get(space);
        if (!m) throw new RequestError(`unknown coordinate system "${space}"`);
        this.setCtm(m);
        return;
      }
    }
    if (this.motion) {
      // A transformation after a motion block moves every sample along with it.
      const samples = this.motion.map((s) => ({ time: s.time, matrix: this.transformed(s.matrix, req) }));
      this.ctm = samples[0]!.matrix;
      this.motion = samples;
      return;
    }
    this.setCtm(this.transformed(this.ctm, req));
  }

  // ---- geometry ----

  /** The request last warned about for a non-finite primitive: one warning per request. */
  private lastNonFinite: SourcePosition | undefined;
  /** The set-operation solid last warned about for holding a geometric primitive: one warning per block. */
  private lastLooseSolid: Solid | undefined;

  private buildGeometry(req: RibRequest): Geometry {
    const type = req.name as PrimitiveType;
    const args = argsByName(req);
    const needsPositions = !['Sphere', 'Cone', 'Cylinder', 'Hyperboloid', 'Paraboloid', 'Disk', 'Torus', 'Blobby', 'Geometry'].includes(type);
    let points = 0;
    if (needsPositions) {
      const byName = (n: string): RawParam | undefined => req.params.find((p) => p.name === n || p.name.endsWith(` ${n}`));
      const P = byName('P'), Pw = byName('Pw'), Pz = byName('Pz');
      const allowsPz = type === 'Patch' || type === 'PatchMesh' || type === 'NuPatch';
      const given = P ? { p: P, n: 3 } : Pw ? { p: Pw, n: 4 } : Pz && allowsPz ? { p: Pz, n: 1 } : null;
      if (!given) throw new RequestError(`${type} needs positions: a "P"${allowsPz ? ', "Pz"' : ''} or "Pw" parameter`);
      const count = given.p.values.length;
      if (count % given.n !== 0) throw new RequestError(`"${given.p.name}" has ${count} values, not a multiple of ${given.n}`, given.p.pos);
      points = count / given.n;
    }
    const counts = storageCounts(type, args, points, this.attributes.uBasis, this.attributes.vBasis);
    if (typeof counts === 'string') throw new RequestError(counts);
    if (type === 'PointsPolygons' || type === 'PointsGeneralPolygons' || type === 'SubdivisionMesh') {
      if (points < counts.vertex) throw new RequestError(`vertex index ${counts.vertex - 1} is out of range: P has ${points} points`);
    }
    const params = this.typeParams(req.params, { kind: 'primitive', counts, primitive: type });
    return { type, args: args as Geometry['args'], params, counts, motionSamples: [] };
  }

  private emit(geometry: Geometry, pos: SourcePosition, instanceOf: string | null = null, relative?: Matrix4): void {
    if (this.currentObject) {
      this.currentObject.items.push({ geometry, relative: concat(invert(this.currentObject.base) ?? identity(), this.ctm) });
      return;
    }
    const frame = this.frame!;
    const objectToWorld = relative ? concat(this.ctm, relative) : this.ctm;
    const motion = this.motion && relative ? this.motion.map((s) => ({ time: s.time, matrix: concat(s.matrix, relative) })) : this.motion;
    const broken = nonFiniteInput(geometry, [objectToWorld, ...(motion ?? []).map((s) => s.matrix)]);
    if (broken !== undefined) {
      if (this.lastNonFinite !== pos) this.diagnostics.warning(pos, instanceOf === null ? geometry.type : 'ObjectInstance', `${broken} of this ${geometry.type} is not finite as a 32-bit float (NaN, infinite or beyond ±3.4e38); the primitive is dropped`);
      this.lastNonFinite = pos;
      return;
    }
    const primitive: Primitive = { geometry, objectToWorld, motion, attributes: this.attributes, instanceOf, source: pos };
    const innermost = this.solids[this.solids.length - 1];
    if (innermost && innermost.operation !== 'primitive' && this.lastLooseSolid !== innermost) {
      this.diagnostics.warning(pos, geometry.type, `a geometric primitive directly inside SolidBegin "${innermost.operation}" is not allowed (RI 3.2); each such primitive is taken as a primitive solid of its own`);
      this.lastLooseSolid = innermost;
    }
    for (const solid of this.solids) solid.primitives.push(frame.primitives.length);
    frame.primitives.push(primitive);
  }

  private applyGeometry(req: RibRequest): ArchiveNeed | null {
    if (req.name === 'ObjectInstance') {
      const handle = String(req.args[0]);
      const items = this.objects.get(handle);
      if (!items) throw new RequestError(`no object was defined with the handle ${handle}`);
      if (this.currentObject) throw new RequestError('ObjectInstance is not valid inside ObjectBegin/ObjectEnd');
      for (const item of items) this.emit(item.geometry, req.pos, handle, item.relative);
      return null;
    }
    if (req.name === 'Procedural') {
      const generator = req.args[0] as string;
      const args = req.args[1] as string[];
      if (generator === 'DelayedReadArchive') {
        const fileName = args[0];
        if (fileName === undefined) throw new RequestError('DelayedReadArchive needs a file name');
        // The camera is fixed since WorldBegin: an archive whose bound is off screen is never read.
        // (Inside ObjectBegin the instances' placement is not known yet; a fragment has no camera.)
        const frame = this.frame;
        if (frame && this.settings.skipOffScreenArchives && !this.currentObject && !this.fragment && !boundMayBeVisible(req.args[2] as number[], concat(frame.camera.worldToCamera, this.ctm), frame.camera, frame.options)) {
          frame.culledArchives++;
          return null;
        }
        return { fileName, request: 'Procedural', pos: req.pos, isolated: true };
      }
      if (generator === 'RunProgram' || generator === 'DynamicLoad') {
        this.diagnostics.warning(req.pos, req.name, `Procedural "${generator}" refused: a scene may not run programs or load code; the procedural is skipped`);
        return null;
      }
      throw new RequestError(`unknown procedural "${generator}"`);
    }
    this.emit(this.geometryOf(req), req.pos);
    return null;
  }

  /** buildGeometry, shared between replays of one archive request under the same typing state. */
  private geometryOf(req: RibRequest): Geometry {
    // What typing depends on: the declarations of the parameter names, the colour samples, the bases.
    const declared = req.params.map((p) => {
      const d = this.declarations.get(p.name);
      return d ? `${d.storage} ${d.type} ${d.arrayLength}` : '';
    });
    const key = [this.colorSamples, this.attributes.uBasis, this.attributes.vBasis, ...declared];
    const known = this.sharedGeometry.get(req);
    if (known && known.key.every((k, i) => k === key[i])) return known.geometry;
    const geometry = this.buildGeometry(req);
    this.sharedGeometry.set(req, { key, geometry });
    return geometry;
  }

  // ---- texture making and the rest ----

  private applyTexture(req: RibRequest): void {
    const args: Record<string, number | string> = {};
    req.def.args.forEach((spec, i) => { args[spec.name] = req.args[i] as number | string; });
    const texture: TextureRequest = {
      request: req.name as TextureRequest['request'], args,
      params: this.typeParams(req.params, { kind: 'shader-or-option' }), source: req.pos,
      frameIndex: this.scene.frames.length,
    };
    const searchPath = this.options.user['searchpath']?.find((p) => p.name === 'texture')?.values[0];
    if (typeof searchPath === 'string') texture.searchPath = searchPath;
    (this.frame ? this.frame.textureRequests : this.scene.textureRequests).push(texture);
  }

  private applyAnywhere(req: RibRequest): ArchiveNeed | null {
    switch (req.name) {
      case 'Declare': {
        const [name, text] = req.args as string[];
        if (!/^\w+$/.test(name!)) throw new RequestError(`"${name}" is not a parameter name`);
        const decl = parseDeclaration(text!);
        if (typeof decl === 'string') throw new RequestError(decl);
        this.declarations.set(name!, decl);
        return null;
      }
      case 'ErrorHandler': {
        const h = req.args[0] as string;
        if (!['ignore', 'print', 'abort'].includes(h)) throw new RequestError(`error handler must be "ignore", "print" or "abort", not "${h}"`);
        this.options.errorHandler = h;
        return null;
      }
      case 'ArchiveRecord':
        this.scene.structureComments.push({ text: `${req.args[0]}: ${req.args[1]}`, pos: req.pos });
        return null;
      case 'version':
        this.scene.version = req.args[0] as number;
        return null;
      case 'ReadArchive':
        return { fileName: req.args[0] as string, request: req.name, pos: req.pos, isolated: false };
    }
    return null;
  }
}

/** Later parameters of the same name replace earlier ones (Option/Attribute accumulate). */
function mergeParams(old: Parameter[], added: Parameter[]): Parameter[] {
  const names = new Set(added.map((p) => p.name));
  return [...old.filter((p) => !names.has(p.name)), ...added];
}
