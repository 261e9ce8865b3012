// Shading with compiled RSL: each distinct composition (displacement, surface, atmosphere and the
// ordered light shaders) among a frame's primitives is compiled once into one kernel (displacement
// first, then the surface with the lights, then the atmosphere: src/rsl does all three in one
// kernel, P and N written back), and each primitive gets a parameter block from its RIB shader
// parameters, shared with every primitive whose block holds the same (instance-cache.ts). Shaders
// are found through an injectable lookup (files on disk for the CLI, fetched or opened files in the
// page), then among the standard shaders. A shader that cannot be
// found or does not compile is dropped with a warning: a surface becomes the default surface, a
// light is skipped, a displacement or atmosphere is left out. The frame's imager shader is compiled
// alone (its own kernel over tiles of pixels, stages/imager.ts), with the Imager request's parameters;
// one that cannot be found or compiled is left out with a warning at the request.
import { mat4 } from 'gl-matrix';
import { checkSource, formatDiagnostic, packParameters, RslCompileError, ShaderCompiler, standardShaderSource } from '../../rsl/index.ts';
import type { CompiledPipeline, IncludeResolver, PipelineDescription } from '../../rsl/index.ts';
import type { PartitionOptions } from '../../rsl/partition/partition-kernel.ts';
import type { SourcePosition } from '../../rib/diagnostics.ts';
import type { Attributes, Options, Parameter, ShaderRef as RibShaderRef } from '../../rib/scene.ts';
import { layoutUserVariables } from '../../layout/grid-layout.ts';
import { builtinSurfaceKernel } from './builtin-surfaces.ts';
import { attributeOverrides, optionValues } from './info-values.ts';
import { parameterOverrides, type InstanceValues } from './shader-params.ts';
import type { ShadingInstance, ShadingKernel, ShadingKernelProvider, ShadingRequest } from './shading-kernel.ts';
import type { ImagerInstance, ImagerKernel, ImagerRequest } from '../stages/imager.ts';
import type { KernelSpaces } from './spaces.ts';
import { type FrameTextures, TextureRegistry } from '../../texture/texture-registry.ts';
import { memoryTextureStorage, textureSearchPath } from '../../texture/texture-storage.ts';
import { autoShadowParams, isAutoShadowName } from '../shadows/shadow-light.ts';
import { TEXTURE_BINDING, TEXTURE_FEEDBACK_BINDING, usesTextures } from '../../texture/texture-wgsl.ts';
import { LOOP_FLAG_BINDING } from '../../rsl/wgsl.ts';
import { shaderLoopIterations } from './loop-cap.ts';
import { InstanceCache, NOTHING_READ, stateReads, type Shaded } from './instance-cache.ts';

export interface ShaderSourceFile {
  /** Names the source in messages (file:line:col). */
  file: string;
  text: string;
}

/** Finds "name" (e.g. a name.sl file) in the search path; undefined when it is not there. */
export type ShaderLookup = (name: string, searchPath: readonly string[]) => ShaderSourceFile | undefined;

export interface RslShadingOptions {
  /** Shader files; the standard shaders are tried when it finds nothing. */
  lookup?: ShaderLookup;
  /** The configured search path (--shader-path); `&` in a RIB's Option "searchpath" "shader" stands for it. */
  searchPath?: readonly string[];
  resolveInclude?: IncludeResolver;
  /** Shared compile cache (e.g. across frames or renders). */
  compiler?: ShaderCompiler;
  /** Texture maps the shaders name (found through Option "searchpath" "texture"); without it every
   * lookup returns its fill value. */
  textures?: TextureRegistry;
  /** How kernels that do not fit one pass are split (src/rsl/partition; default 'auto' under the default resource model). */
  partition?: PartitionOptions;
}

/** RenderMan's default surface (as the built-in kernel), for compositions that still need compiling. */
const DEFAULT_SURFACE = {
  file: 'defaultsurface.sl',
  source: `surface defaultsurface(float Ka = .2, Kd = .8)
{
    float d = normalize(N) . normalize(I);
    Oi = Os;
    Ci = Os * Cs * (Ka + Kd * d * d);
}
`,
};

export type Role = 'surface' | 'displacement' | 'atmosphere' | 'light' | 'imager';
const KIND: Record<Role, string> = { surface: 'surface', displacement: 'displacement', atmosphere: 'volume', light: 'light', imager: 'imager' };

/** What looking a shader up gave: the shader, or why there is none (the message without a position). */
type Lookup = { resolved: Resolved } | { problem: string };

interface Resolved {
  ref: { source: string; file: string; name?: string };
  /** The text is a standard shader's (or the built-in default surface). */
  standard: boolean;
  name: string;
}

const NO_PARAMS = new Float32Array(0);

export class RslShadingProvider {
  readonly compiler: ShaderCompiler;
  private readonly resolved = new Map<string, Lookup>();
  /** Per compiled pipeline, per loop cap (what its dispatches put in the frame uniforms). */
  private readonly kernels = new Map<CompiledPipeline, Map<number, ShadingKernel>>();
  private kernelCount = 0;
  /** Per frame (its spaces object): the instances handed out, shared by content (instance-cache.ts). */
  private readonly instances = new WeakMap<KernelSpaces, InstanceCache>();
  /** The kernel each attribute state was last shaded with (kernelFor). */
  private readonly lastKernel = new WeakMap<Attributes, ShadingKernel>();

  /** The texture maps (options.textures, else one for the "auto" shadow maps alone). */
  private readonly registry: TextureRegistry;

  constructor(private readonly options: RslShadingOptions = {}) {
    this.compiler = options.compiler ?? new ShaderCompiler();
    this.registry = options.textures ?? new TextureRegistry(memoryTextureStorage(new Map()));
    this.provide.shadowMaps = this.registry;
  }

  /** The ShadingKernelProvider (with the imager). */
  readonly provide: ShadingKernelProvider = Object.assign((request: ShadingRequest): ShadingInstance => this.provideShading(request), {
    imager: (request: ImagerRequest): ImagerInstance | undefined => this.imager(request),
    textures: (spaces: KernelSpaces): FrameTextures | undefined => this.registry.textures(mat4.invert(mat4.create(), spaces.world) ?? mat4.create()),
  });

  private provideShading(request: ShadingRequest): ShadingInstance {
    let cache = this.instances.get(request.spaces);
    if (!cache) this.instances.set(request.spaces, (cache = new InstanceCache()));
    const instance = cache.instance(request, (r) => this.shade(r));
    this.lastKernel.set(request.attributes, instance.kernel);
    return instance;
  }

  private shade(request: ShadingRequest): Shaded {
    const builtin = (name: 'defaultsurface' | 'constant'): Shaded => ({
      instance: { kernel: builtinSurfaceKernel(name, request.layout), params: NO_PARAMS }, objectDependent: false, reads: NOTHING_READ,
    });
    const { attributes, layout, warn } = request;
    const searchPath = this.searchPath(request.options);
    const find = (ref: RibShaderRef | null, role: Role): Resolved | undefined => (ref ? this.resolve(ref.name, role, searchPath, warn, ref.source) : undefined);

    // Looked up even where the built-in surfaces need no lights, so a missing one is always reported.
    const lights = request.lights.flatMap((light) => {
      if (light.area) {
        warn(`area light "${light.shader}" is not supported; skipped`);
        return [];
      }
      const resolved = this.resolve(light.shader, 'light', searchPath, warn, light.source);
      return resolved ? [{ light, resolved }] : [];
    });
    const displacement = find(attributes.displacement, 'displacement');
    const atmosphere = find(attributes.atmosphere, 'atmosphere');
    const surfaceName = attributes.surface?.name ?? 'defaultsurface';
    // The default and constant surfaces need no lights: the built-in kernels shade them.
    const plain = !displacement && !atmosphere;
    if (plain && surfaceName === 'defaultsurface') return builtin('defaultsurface');
    let surface = surfaceName === 'defaultsurface' ? undefined : find(attributes.surface, 'surface');
    if (plain && surface?.standard && surfaceName === 'constant') return builtin('constant');
    if (!surface && plain) return builtin('defaultsurface');
    surface ??= { ref: { ...DEFAULT_SURFACE, name: 'defaultsurface' }, standard: true, name: 'defaultsurface' };

    const userVariables = layoutUserVariables(layout);
    const description: PipelineDescription = {
      surface: surface.ref,
      ...(displacement ? { displacement: displacement.ref } : {}),
      ...(atmosphere ? { atmosphere: atmosphere.ref } : {}),
      lights: lights.map((l) => l.resolved.ref),
      maxVertices: layout.maxVertices,
      // An output parameter named like a user variable (an output variable a Display asks for) writes it.
      ...(userVariables.length ? { primitiveVariables: userVariables, parameterVariables: [], outputVariables: userVariables.map((v) => v.name) } : {}),
      ...(this.options.resolveInclude ? { resolveInclude: this.options.resolveInclude } : {}),
      ...(this.options.partition ? { partition: this.options.partition } : {}),
      // Its loops report leaving through the cap (loop-cap.ts).
      loopFlags: true,
    };
    let compiled: CompiledPipeline;
    try {
      compiled = this.compileWithSceneFacts(description, request.options, request.spaces);
      // The primitive's user variables that name a parameter of the same size override it per vertex.
      const size = (type: string): number => (type === 'float' ? 1 : 3);
      const overriding = (request.primitiveVariables ?? []).filter((name) => {
        const variable = userVariables.find((v) => v.name === name);
        const entries = compiled.params.entries.filter((e) => e.name === name && e.arrayLength === undefined);
        if (!variable || entries.length === 0) return false;
        if (entries.some((e) => e.type !== 'string' && e.type !== 'matrix' && size(e.type) === size(variable.type))) return true;
        warn(`primitive variable "${name}" (${variable.type}) does not fit the shader parameter "${name}" (${entries[0]!.type}); ignored`);
        return false;
      });
      if (overriding.length > 0) compiled = this.compiler.compile({ ...description, parameterVariables: overriding });
    } catch (error) {
      if (!(error instanceof RslCompileError)) throw error;
      const names = [surface, displacement, atmosphere, ...lights.map((l) => l.resolved)].filter((r) => r !== undefined).map((r) => r.name);
      // At the request that chose the pipeline's surface (else its displacement or atmosphere).
      const at = (attributes.surface ?? attributes.displacement ?? attributes.atmosphere)?.source;
      const where = at ? `${at.file}:${at.line}:${at.column}: ` : '';
      warn(`${where}shading pipeline (${names.join(', ')}) does not compile; using the default surface\n${error.message}`);
      return builtin('defaultsurface');
    }
    for (const d of compiled.diagnostics) if (d.severity === 'warning') warn(formatDiagnostic(d));
    if (compiled.layout.recordFloats !== layout.recordFloats) {
      throw new Error(`compiled grid layout (${compiled.layout.recordFloats} floats) differs from the renderer's (${layout.recordFloats})`);
    }

    const worldToCamera = request.spaces.world;
    const shaderToCamera = (toWorld: number[]): mat4 => mat4.multiply(mat4.create(), worldToCamera, toWorld as unknown as mat4);
    const instances: InstanceValues[] = [];
    const add = (instance: string, ref: RibShaderRef | null, used: Resolved | undefined): void => {
      if (ref && used) instances.push({ instance, params: ref.params, shaderToCamera: shaderToCamera(ref.shaderToWorld), ...(ref.source ? { source: ref.source } : {}) });
    };
    add('surface', surface.name === surfaceName ? attributes.surface : null, surface);
    add('displacement', attributes.displacement, displacement);
    add('atmosphere', attributes.atmosphere, atmosphere);
    lights.forEach(({ light }, k) => instances.push({ instance: `light${k}`, params: autoShadowParams(light), shaderToCamera: shaderToCamera(light.lightToWorld), source: light.source }));
    for (const instance of instances) warnUnknown(compiled, instance, warn);
    const overrides = parameterOverrides(compiled, instances, { kernelSpaces: request.spaces, objectToCamera: request.objectToCamera, warn });
    const kernel = this.kernel(compiled, [surface, displacement, atmosphere, ...lights.map((l) => l.resolved)], shaderLoopIterations(request.options));
    // Only the object → camera matrix differs between primitives of one attribute state.
    const objectDependent = compiled.params.spaceMatrices.some((m) => m.space === 'object');
    // attribute() values: per primitive (per attribute state), in the parameter block.
    Object.assign(overrides, attributeOverrides(compiled.params.attributes, attributes));
    const textureSlot = (name: string): number => {
      // environment("raytrace") is the traced environment, not a map.
      if (name === 'raytrace') return -1;
      if (isAutoShadowName(name)) return this.registry.slot(name, undefined, warn);
      if (this.options.textures) return this.options.textures.slot(name, textureSearchPath(request.options), warn);
      warn(`texture "${name}": this renderer was given no texture files; its lookups return the fill value`);
      return -1;
    };
    return { instance: { kernel, params: packParameters(compiled, overrides, textureSlot) }, objectDependent, reads: stateReads(compiled.params) };
  }

  /** The frame's imager shader, compiled alone, with the Imager request's parameters. */
  imager(request: ImagerRequest): ImagerInstance | undefined {
    const { imager, spaces } = request;
    const at = imager.source ? `${imager.source.file}:${imager.source.line}:${imager.source.column}: ` : '';
    const warn = (message: string): void => request.warn(`${at}${message}`);
    const resolved = this.resolve(imager.name, 'imager', this.searchPath(request.options), warn);
    if (!resolved) return undefined;
    // The imager stage leaves the frame uniforms' loop cap 0: the RIB's cap is compiled in (imagers are rare).
    const maxLoopIterations = shaderLoopIterations(request.options);
    const description: PipelineDescription = {
      imager: resolved.ref, maxVertices: request.maxVertices,
      ...(this.options.resolveInclude ? { resolveInclude: this.options.resolveInclude } : {}),
      ...(maxLoopIterations !== undefined ? { maxLoopIterations } : {}),
    };
    let compiled: CompiledPipeline;
    try {
      compiled = this.compileWithSceneFacts(description, request.options, spaces);
    } catch (error) {
      if (!(error instanceof RslCompileError)) throw error;
      warn(`imager shader "${imager.name}" does not compile; no imager runs\n${error.message}`);
      return undefined;
    }
    for (const d of compiled.diagnostics) if (d.severity === 'warning') warn(formatDiagnostic(d));
    const instance: InstanceValues = {
      instance: 'imager', params: imager.params, shaderToCamera: mat4.multiply(mat4.create(), spaces.world, imager.shaderToWorld as unknown as mat4),
    };
    warnUnknown(compiled, instance, warn);
    const overrides = parameterOverrides(compiled, [instance], { kernelSpaces: spaces, objectToCamera: spaces.world, warn });
    const kernel: ImagerKernel = {
      label: `imager ${resolved.name}`, code: compiled.code, entryPoint: compiled.entryPoint, layout: compiled.layout,
      writesAlpha: compiled.writes.includes('alpha'),
    };
    return { kernel, params: packParameters(compiled, overrides) };
  }

  /**
   * Compiles, then again with what the kernel turned out to ask of the scene: option() values are
   * compiled in (only those the shaders ask for, so other options, e.g. a preview's resolution, make
   * no new kernels), and space names that are not standard (or only known at run time) find the
   * scene's coordinate systems. Fills those into `description`.
   */
  private compileWithSceneFacts(description: PipelineDescription, options: Options, spaces: KernelSpaces): CompiledPipeline {
    let compiled = this.compiler.compile(description);
    if (compiled.optionNames.length > 0) {
      description.options = optionValues(compiled.optionNames, options);
      compiled = this.compiler.compile(description);
    }
    if (compiled.usesCoordinateSystems) {
      description.coordinateSystems = Object.keys(spaces.named ?? {}).sort();
      compiled = this.compiler.compile(description);
    }
    return compiled;
  }

  /** The RIB's Option "searchpath" "shader" (`&` = the configured path), else the configured path. */
  private searchPath(options: Options): readonly string[] {
    const configured = this.options.searchPath ?? [];
    const param = options.user['searchpath']?.find((p) => p.name === 'shader');
    const text = param?.values[0];
    if (typeof text !== 'string') return configured;
    return text.split(':').filter(Boolean).flatMap((p) => (p === '&' ? [...configured] : [p]));
  }

  /**
   * The shader `name` for `role`, or undefined with one warning (why, and what the render does
   * instead; compiler errors on the lines after it) at `at`, the request that names it, each time it
   * is asked for: the lookup is cached, its message is not, so every render and request reports it.
   */
  private resolve(name: string, role: Role, searchPath: readonly string[], warn: (message: string) => void, at?: SourcePosition): Resolved | undefined {
    const key = `${role}\u0001${name}\u0001${searchPath.join('\u0001')}`;
    let found = this.resolved.get(key);
    if (!found) this.resolved.set(key, (found = this.lookUp(name, role, searchPath)));
    if ('resolved' in found) return found.resolved;
    const where = at ? `${at.file}:${at.line}:${at.column}: ` : '';
    const [first, ...errors] = found.problem.split('\n');
    warn([`${where}${first}; ${CONSEQUENCE[role]}`, ...errors].join('\n'));
    return undefined;
  }

  private lookUp(name: string, role: Role, searchPath: readonly string[]): Lookup {
    const found = this.options.lookup?.(name, searchPath);
    const text = found?.text ?? standardShaderSource(name);
    if (text === undefined) return { problem: `${role} shader "${name}" not found` };
    const file = found?.file ?? `${name}.sl`;
    // Front-end check per shader, so a broken one is named and dropped alone.
    const checked = checkSource(text, file, this.options.resolveInclude ? { resolveInclude: this.options.resolveInclude } : {});
    const shader = checked.shaders.find((s) => s.shader.name === name) ?? checked.shaders[0];
    if (checked.diagnostics.hasErrors || !shader) {
      const errors = checked.diagnostics.list.filter((d) => d.severity === 'error').map(formatDiagnostic);
      return { problem: `${role} shader "${name}" does not compile (${errors.length} ${errors.length === 1 ? 'error' : 'errors'} in ${file})\n${errors.join('\n')}` };
    }
    if (shader.shader.shaderKind !== KIND[role]) return { problem: `shader "${name}" (${file}) is a ${shader.shader.shaderKind} shader, not a ${KIND[role]} shader` };
    return { resolved: { ref: { source: text, file, name: shader.shader.name }, standard: text === standardShaderSource(name), name } };
  }

  /** Forgets what was looked up for the shader `name`, so that the next render looks it up again
   * (the page's shader editor changed its source). */
  forget(name: string): void {
    for (const key of this.resolved.keys()) if (key.split('\u0001')[1] === name) this.resolved.delete(key);
  }

  /** The kernel this provider last handed out for primitives of `attributes` (the object a frame's
   * primitive holds): with compiled(kernel.key), what the page shows of a material's kernel (its
   * passes, where the compiler split it). Undefined before a render shaded them. */
  kernelFor(attributes: Attributes): ShadingKernel | undefined {
    return this.lastKernel.get(attributes);
  }

  /** The compiled pipeline behind a kernel this provider handed out (e.g. for packParameters in the page). */
  compiled(kernelKey: string): CompiledPipeline | undefined {
    for (const [compiled, byCap] of this.kernels) for (const kernel of byCap.values()) if (kernel.key === kernelKey) return compiled;
    return undefined;
  }

  /** The kernel of `compiled` under the loop cap `cap` (the RIB's; the compiled one when undefined),
   * which the shade stage puts in the frame uniforms of its dispatches (loop-cap.ts): one WGSL module
   * and pipeline whatever the cap. */
  private kernel(compiled: CompiledPipeline, parts: (Resolved | undefined)[], cap: number | undefined): ShadingKernel {
    let byCap = this.kernels.get(compiled);
    if (!byCap) this.kernels.set(compiled, (byCap = new Map()));
    const iterations = compiled.loopFlagBinding !== undefined ? (cap ?? compiled.maxLoopIterations) : compiled.maxLoopIterations;
    let kernel = byCap.get(iterations);
    if (!kernel) {
      const label = parts.filter((p) => p !== undefined).map((p) => p.name).join('+');
      const bindings = [0, 1, 2, 3, ...(usesTextures(compiled.code) ? [TEXTURE_BINDING, TEXTURE_FEEDBACK_BINDING] as const : []), ...(compiled.loopFlagBinding !== undefined ? [LOOP_FLAG_BINDING] as const : [])] as const;
      kernel = {
        key: `rsl:${this.kernelCount++}:${label}`, label: `rsl ${label}`, code: compiled.code, entryPoint: compiled.entryPoint,
        scratchBytesPerVertex: compiled.scratchBytesPerVertex, keepsOpaque: compiled.keepsOpaque,
        writes: compiled.writes, writesGridInputs: compiled.writesGridInputs, ...(compiled.multipass ? { passes: compiled.multipass } : {}),
        ...(bindings.length > 4 ? { bindings } : {}),
        ...(compiled.loopFlagBinding !== undefined ? { loops: { sites: compiled.loopSites, iterations } } : {}),
      };
      byCap.set(iterations, kernel);
    }
    return kernel;
  }
}

/** The warning for a shader no lookup finds (the page's panels word theirs alike). */
export function notFoundMessage(role: Role, name: string): string {
  return `${role} shader "${name}" not found; ${CONSEQUENCE[role]}`;
}

/** What a render does without a shader it cannot use. */
const CONSEQUENCE: Record<Role, string> = {
  surface: 'using the default surface', light: 'the light is skipped', displacement: 'left out', atmosphere: 'left out', imager: 'no imager runs',
};

function warnUnknown(compiled: CompiledPipeline, instance: InstanceValues, warn: (message: string) => void): void {
  const known = new Set(compiled.params.entries.filter((e) => e.instance === instance.instance).map((e) => e.name));
  const shader = compiled.params.entries.find((e) => e.instance === instance.instance)?.shader ?? instance.instance;
  for (const p of instance.params as Parameter[]) {
    if (!known.has(p.name)) warn(`"${p.name}" is not a parameter of shader "${shader}"; ignored`);
  }
}
