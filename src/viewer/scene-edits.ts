// The page's edits, written into its own copy of the parsed frame: light parameters and on/off,
// surface parameters, colour and opacity per primitive. The renderer's RSL shading provider packs
// parameter blocks from these values on every render (placing points in camera space itself), so an
// edit re-renders with the cached parse and compiled kernels and never recompiles; switching a
// light changes the composition, compiled once and then cached. Each edit is also described
// (FrameEdit), so the prepared frame's next render repacks and re-shades only what it reaches.
import { type Frame, type FrameEdit, type Light, type ParamEntry, type Parameter, RslCompileError, RslShadingProvider, ShaderCompiler, type ShaderDiagnostic as RslDiagnostic, shaderNotFoundMessage as notFoundMessage, type ShaderRef, type SourcePosition, STANDARD_SHADERS, standardShaderSource, type TextureRegistry } from '../index.ts';

export type ParamValue = number[] | string;

/** What the edits have changed, as SceneEdits.snapshot copies it. */
export interface EditState {
  disabled: number[];
  lights: Parameter[][];
  primitives: { surface: Parameter[] | undefined; color: number[]; opacity: number[] }[];
}

/** A shader's parameter layout, or why there is none: not found (reported at the request that names
 * it, worded as the render's warning) or its compile errors. */
export type ShaderParameters = { entries: ParamEntry[] } | { notFound: RslDiagnostic } | { errors: RslDiagnostic[] };

export class SceneEdits {
  /** One compile cache for the renders and the panels' parameter layouts. */
  readonly compiler = new ShaderCompiler();
  readonly provider: RslShadingProvider;
  private readonly disabled = new Set<number>();
  /** Shader sources by shader name: those the user opened, and those edited in the page. */
  private readonly sources: Map<string, { source: string; file: string }>;
  private readonly originalLights: number[][];
  /** What changed since the last takeEdits(); undefined once something a FrameEdit cannot say changed. */
  private pending: FrameEdit[] | undefined = [];

  constructor(
    readonly frame: Frame,
    /** Shader sources the user opened, by shader name. */
    opened: ReadonlyMap<string, { source: string; file: string }>,
    /** The scene's texture maps (scene-loader.ts). */
    textures?: TextureRegistry,
  ) {
    this.sources = new Map(opened);
    this.originalLights = frame.primitives.map((p) => [...p.attributes.lights]);
    this.provider = new RslShadingProvider({
      compiler: this.compiler,
      ...(textures ? { textures } : {}),
      lookup: (name) => {
        const known = this.sources.get(name);
        return known && { file: known.file, text: known.source };
      },
    });
  }

  /** The source of the shader `name` the renders use (opened, edited or standard), and its file name. */
  source(name: string): { source: string; file: string } | undefined {
    const known = this.sources.get(name);
    if (known) return known;
    const standard = standardShaderSource(name);
    return standard === undefined ? undefined : { source: standard, file: `${name}.sl` };
  }

  /** The page's shader editor changed `name`: renders from now on use this source. */
  setSource(name: string, file: string, source: string): void {
    this.sources.set(name, { source, file });
    this.provider.forget(name);
    this.pending = undefined;
  }

  /** The edits since the last call (undefined when they cannot all be described), for the render
   * about to read the frame; `putBack` returns them when that render did not finish. */
  takeEdits(): FrameEdit[] | undefined {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  putBack(taken: FrameEdit[] | undefined): void {
    this.pending = taken && this.pending && [...taken, ...this.pending];
  }

  get compiles(): number {
    return this.compiler.stats.misses;
  }

  lightEnabled(id: number): boolean {
    return !this.disabled.has(id);
  }

  setLightEnabled(id: number, on: boolean): void {
    if (on) this.disabled.delete(id);
    else this.disabled.add(id);
    this.frame.primitives.forEach((p, k) => (p.attributes.lights = this.originalLights[k]!.filter((l) => !this.disabled.has(l))));
    // The lit primitives' kernels change: not a targeted edit.
    this.pending = undefined;
  }

  setLightParam(light: Light, entry: ParamEntry, value: ParamValue): void {
    light.params = withParam(light.params, entry, value);
    this.pending?.push({ kind: 'light', light: light.id });
  }

  setSurfaceParam(index: number, entry: ParamEntry, value: ParamValue): void {
    const attributes = this.frame.primitives[index]?.attributes;
    if (attributes?.surface) attributes.surface = { ...attributes.surface, params: withParam(attributes.surface.params, entry, value) };
    this.pending?.push({ kind: 'shader', primitives: [index] });
  }

  /** The Color attribute of primitive `index` (and of those declared under its attribute state). */
  setColor(index: number, rgb: readonly number[]): void {
    this.frame.primitives[index]?.attributes.color.splice(0, 3, ...rgb);
    this.pending?.push({ kind: 'color', primitives: [index] });
  }

  setOpacity(index: number, value: number): void {
    this.frame.primitives[index]?.attributes.opacity.splice(0, 3, value, value, value);
    this.pending?.push({ kind: 'color', primitives: [index] });
  }

  /** A copy of everything the page's edits change (for undo and redo). */
  snapshot(): EditState {
    return {
      disabled: [...this.disabled],
      lights: this.frame.lights.map((l) => l.params.map(copyParam)),
      primitives: this.frame.primitives.map(({ attributes: a }) => ({
        surface: a.surface?.params.map(copyParam), color: [...a.color], opacity: [...a.opacity],
      })),
    };
  }

  /** Puts the frame back as `state` had it. */
  restore(state: EditState): void {
    this.pending = undefined;
    this.disabled.clear();
    for (const id of state.disabled) this.disabled.add(id);
    this.frame.lights.forEach((l, k) => (l.params = state.lights[k]!.map(copyParam)));
    this.frame.primitives.forEach(({ attributes: a }, k) => {
      const saved = state.primitives[k]!;
      if (a.surface && saved.surface) a.surface = { ...a.surface, params: saved.surface.map(copyParam) };
      a.color.splice(0, a.color.length, ...saved.color);
      a.opacity.splice(0, a.opacity.length, ...saved.opacity);
      a.lights = this.originalLights[k]!.filter((l) => !this.disabled.has(l));
    });
  }

  private ref(name: string): ShaderRef | undefined {
    const opened = this.sources.get(name);
    if (opened) return { source: opened.source, file: opened.file, name };
    return name in STANDARD_SHADERS ? name : undefined;
  }

  /** A shader's parameter layout as the compiler reports it, or why it has none; `at` is the request
   * (LightSource, Surface) that names the shader. */
  parameters(role: 'light' | 'surface', name: string, maxVertices: number, at: SourcePosition): ShaderParameters {
    const ref = this.ref(name);
    if (!ref) return { notFound: { file: at.file, line: at.line, column: at.column, severity: 'warning', message: notFoundMessage(role, name) } };
    try {
      // loopFlags as the renderer asks (rsl-provider.ts): a lone surface's layout query and its render
      // then share one compiled kernel.
      const compiled = this.compiler.compile(role === 'light' ? { lights: [ref], maxVertices, loopFlags: true } : { surface: ref, maxVertices, loopFlags: true });
      return { entries: compiled.params.entries.filter((e) => e.instance === (role === 'light' ? 'light0' : 'surface')) };
    } catch (error) {
      if (error instanceof RslCompileError) return { errors: error.diagnostics };
      throw error;
    }
  }
}

function copyParam(p: Parameter): Parameter {
  return { ...p, values: [...p.values] as Parameter['values'] };
}

function withParam(params: readonly Parameter[], entry: ParamEntry, value: ParamValue): Parameter[] {
  const next: Parameter = {
    name: entry.name, storage: 'uniform', type: entry.type as Parameter['type'], arrayLength: null,
    values: typeof value === 'string' ? [value] : [...value], inferred: false,
  } as Parameter;
  return [...params.filter((p) => p.name !== entry.name), next];
}

export function currentValue(params: readonly Parameter[], entry: ParamEntry): ParamValue {
  const p = params.find((q) => q.name === entry.name);
  const first = p?.values[0];
  if (p === undefined || first === undefined) return entry.default;
  return typeof first === 'string' ? first : (p.values as number[]);
}
