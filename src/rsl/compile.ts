// The compiler's entry point: a shading pipeline (displacement + surface + lights + atmosphere, or an
// imager alone) to one WGSL kernel, its parameter layout and the grid layout it expects. Results are
// cached by the sources and the pipeline composition.
import type { ShaderKind } from './ast.ts';
import { Diagnostics, RslCompileError } from './diagnostics.ts';
import type { Diagnostic, SourcePos } from './diagnostics.ts';
import { checkSource } from './frontend.ts';
import { gridLayout, imagerGridLayout, OUTPUT_GRID_VARIABLES } from '../layout/grid-layout.ts';
import type { GridLayout, GridVariableType } from '../layout/grid-layout.ts';
import type { IrModule } from './ir.ts';
import { allBodies, walk } from './ir.ts';
import { Lowerer } from './lower.ts';
import type { ParamLayout } from '../layout/param-layout.ts';
import type { PipelineShaders } from './lower.ts';
import { keepsOpaque } from './opacity.ts';
import { runPasses } from './passes/pipeline.ts';
import type { PassReport } from './passes/pipeline.ts';
import type { IncludeResolver } from './preprocessor.ts';
import { standardShaderSource } from './standard-shaders.ts';
import { StringTable } from './strings.ts';
import type { CheckedShader } from './typecheck.ts';
import { DEFAULT_MAX_LOOP_ITERATIONS, emitWgsl, runsOnce, LIGHT_COUNT_BINDING, LOOP_FLAG_BINDING, WGSL_MAX_NESTING, WORKGROUP_BYTES } from './wgsl.ts';
import { partitionKernel } from './partition/partition-kernel.ts';
import type { MultipassKernel, PartitionOptions } from './partition/partition-kernel.ts';

/** A shader by its source text, or by the name of a standard shader (e.g. "plastic"). */
export type ShaderRef = string | { source: string; file?: string; name?: string };

export interface PipelineDescription {
  surface?: ShaderRef;
  displacement?: ShaderRef;
  lights?: ShaderRef[];
  atmosphere?: ShaderRef;
  /** An imager shader, compiled alone: its kernel runs on tiles of pixels of the filtered image
   * (imagerGridLayout; CompiledPipeline.writes says whether it sets alpha). */
  imager?: ShaderRef;
  /** User primitive variables on the grid; a shader parameter of the same name reads them per vertex. */
  primitiveVariables?: { name: string; type: GridVariableType }[];
  /** Which of primitiveVariables override shader parameters (default all of them): the others only
   * take their place in the grid layout (so every kernel of a frame shares one layout). */
  parameterVariables?: string[];
  /** Grid variables (of primitiveVariables) that the surface's output parameters of the same name
   * write after the surface runs, so a Display can show them (output variables, RI 3.2 "Display"). */
  outputVariables?: string[];
  /**
   * What option("NAME", var) returns, by name (e.g. Format: [640, 480, 1], "user:quality": [2]): the
   * values are compiled in. A name not here makes option() return 0. CompiledPipeline.optionNames
   * lists the names the shaders ask for, so a caller can pass only those (and recompile only when
   * their values change).
   */
  options?: Record<string, number[] | string>;
  /**
   * The scene's named coordinate systems (CoordinateSystem names). Only needed when
   * CompiledPipeline.usesCoordinateSystems says a shader names a non-standard space or looks a space
   * name up at run time; their matrices come through packParameters as "coordsys.NAME" (space →
   * camera, 16 numbers column-major).
   */
  coordinateSystems?: string[];
  /** Vertices per grid, the workgroup size (default 256: a 16 × 16 grid). */
  maxVertices?: number;
  resolveInclude?: IncludeResolver;
  /** Compute every value per vertex: no once-per-grid uniform values (for comparisons and tests). */
  noUniformHoisting?: boolean;
  /** Most iterations one run of a loop makes (default DEFAULT_MAX_LOOP_ITERATIONS in wgsl.ts) where
   * the frame uniforms' loopCap is 0; a dispatch sets another cap there without compiling again. */
  maxLoopIterations?: number;
  /** The kernel reports the loops that leave through the cap: it binds one u32 flag per loop site at
   * LOOP_FLAG_BINDING (CompiledPipeline.loopSites, loopFlagBinding) and sets it to 1 when that happens.
   * Shading pipelines only (an imager kernel has no flags). */
  loopFlags?: boolean;
  /** Skip illuminance merging (for comparisons and tests). */
  noIlluminanceMerging?: boolean;
  /**
   * Instrumentation for tests: the kernel takes a fifth binding (lightCountBinding), an
   * array<atomic<u32>> of gridCount × maxVertices × lights counters, and adds 1 at
   * [(grid * maxVertices + vertex) * lights + light] for every light-shader call.
   */
  countLightEvaluations?: boolean;
  /** How a kernel that does not fit one pass of the resource model is split (default 'auto' under
   * DEFAULT_RESOURCES): src/rsl/partition. */
  partition?: PartitionOptions;
}

export interface CompiledPipeline {
  code: string;
  entryPoint: string;
  layout: GridLayout;
  params: ParamLayout;
  /** The names option() asks for with constant strings (given or not). */
  optionNames: string[];
  /** A shader names a space that is not standard, or names spaces at run time: compile again with coordinateSystems. */
  usesCoordinateSystems: boolean;
  /** String tokens: index = token. */
  strings: string[];
  /** Grid bytes per vertex plus the kernel's workgroup bytes per vertex: what the shading scheduler budgets. */
  scratchBytesPerVertex: number;
  workgroupBytes: number;
  /** Static count of light-shader evaluations per vertex per non-ambient light (illuminance loops left after merging). */
  lightEvaluationSites: number;
  /** Values the kernel computes once per grid (invocation 0, workgroup memory) instead of per vertex. */
  uniformValues: number;
  /** The grid variables (layout names) the kernel writes back. */
  writes: string[];
  /** The inputs among `writes` (what the dicer fills in: not Ci, Oi or an output variable), e.g. P and
   * N of a displacement: grids kept across renders must be diced again before this kernel shades them. */
  writesGridInputs: string[];
  /** Oi is 1 wherever Os is 1 (opacity.ts), so a primitive with Os = 1 is opaque. */
  keepsOpaque: boolean;
  passes: PassReport;
  /** The binding of the light-evaluation counters, when countLightEvaluations was asked for. */
  lightCountBinding?: number;
  /** The cap on one run of a loop compiled in: what the kernel uses where the frame uniforms' loopCap is 0. */
  maxLoopIterations: number;
  /** With PipelineDescription.loopFlags: the RSL position of each loop flag (index = flag), for the
   * loops that could reach the cap; loops at one position (a function inlined twice) share a flag. */
  loopSites: SourcePos[];
  /** The binding of the loop flags (an array<u32> of loopSites.length words) where the kernel or one
   * of its passes declares them; a pass that does not (MultipassKernel pass.loopFlags false) binds none. */
  loopFlagBinding?: number;
  /** The kernel split into passes, where `code` does not fit the resource model (run these instead). */
  multipass?: MultipassKernel;
  ir: IrModule;
  diagnostics: Diagnostic[];
  cacheKey: string;
}

function resolveRef(ref: ShaderRef, role: string): { source: string; file: string; name?: string } {
  if (typeof ref !== 'string') return { source: ref.source, file: ref.file ?? `${role}.sl`, ...(ref.name ? { name: ref.name } : {}) };
  const source = standardShaderSource(ref);
  if (source === undefined) throw new RslCompileError([{ file: `${ref}.sl`, line: 1, column: 1, severity: 'error', message: `unknown standard shader '${ref}'` }]);
  return { source, file: `${ref}.sl` };
}

const EXPECTED_KIND: Record<string, ShaderKind[]> = {
  surface: ['surface'], displacement: ['displacement'], light: ['light'], atmosphere: ['volume'], imager: ['imager'],
};

function checkOne(ref: ShaderRef, role: string, diagnostics: Diagnostics, resolveInclude?: IncludeResolver): CheckedShader | undefined {
  const { source, file, name } = resolveRef(ref, role);
  const result = checkSource(source, file, resolveInclude ? { resolveInclude } : {});
  diagnostics.list.push(...result.diagnostics.list);
  const shader = name ? result.shaders.find((s) => s.shader.name === name) : result.shaders[0];
  if (!shader) return undefined;
  if (!EXPECTED_KIND[role]!.includes(shader.shader.shaderKind)) {
    diagnostics.error(shader.shader.pos, `expected ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role} shader, found ${shader.shader.shaderKind} shader '${shader.shader.name}'`);
  }
  return shader;
}

/** Compiles a pipeline; throws RslCompileError listing every error when it does not compile. */
export function compilePipeline(description: PipelineDescription): CompiledPipeline {
  const diagnostics = new Diagnostics();
  const check = (ref: ShaderRef | undefined, role: string): CheckedShader | undefined => (ref === undefined ? undefined : checkOne(ref, role, diagnostics, description.resolveInclude));
  const shaders: PipelineShaders = {
    ...optional('surface', check(description.surface, 'surface')),
    ...optional('displacement', check(description.displacement, 'displacement')),
    ...optional('atmosphere', check(description.atmosphere, 'atmosphere')),
    ...optional('imager', check(description.imager, 'imager')),
    lights: (description.lights ?? []).map((l, k) => check(l, 'light') ?? undefined).filter((l, k): l is CheckedShader => (void k, l !== undefined)),
  };
  if (shaders.imager && (shaders.surface || shaders.displacement || shaders.atmosphere || shaders.lights.length > 0)) {
    diagnostics.error(shaders.imager.shader.pos, `imager shader '${shaders.imager.shader.name}' runs on pixels, alone: it cannot share a pipeline with surface, displacement, light or atmosphere shaders`);
  }
  if (diagnostics.hasErrors) throw new RslCompileError(diagnostics.list);
  const maxVertices = description.maxVertices ?? 256;
  const primitiveVariables = description.primitiveVariables ?? [];
  const layout = shaders.imager ? imagerGridLayout(maxVertices) : gridLayout(maxVertices, primitiveVariables);
  const strings = new StringTable();
  const overriding = description.parameterVariables ? new Set(description.parameterVariables) : undefined;
  const lowerer = new Lowerer(diagnostics, strings, {
    primitiveVariables: new Set(primitiveVariables.map((p) => p.name).filter((n) => !overriding || overriding.has(n))),
    ...(description.options ? { options: description.options } : {}),
    ...(description.coordinateSystems ? { coordinateSystems: description.coordinateSystems } : {}),
    ...(description.outputVariables ? { outputVariables: new Map(primitiveVariables.filter((p) => description.outputVariables!.includes(p.name)).map((p) => [p.name, p.type])) } : {}),
  });
  const ir = lowerer.lowerPipeline(shaders);
  const passes = runPasses(ir, diagnostics, { mergeIlluminance: !description.noIlluminanceMerging });
  if (diagnostics.hasErrors) throw new RslCompileError(diagnostics.list);
  const loops = description.loopFlags && !shaders.imager ? loopSites(ir) : undefined;
  const loopFlags = loops && loops.sites.length > 0 ? { binding: LOOP_FLAG_BINDING, sites: loops.flags } : undefined;
  const wgsl = emitWgsl(ir, layout, {
    countLightEvaluations: !!description.countLightEvaluations, noUniformHoisting: !!description.noUniformHoisting,
    ...optional('maxLoopIterations', description.maxLoopIterations), ...optional('loopFlags', loopFlags),
  });
  if (wgsl.nesting.depth > WGSL_MAX_NESTING) {
    diagnostics.error(wgsl.nesting.pos ?? { file: 'pipeline', line: 1, column: 1 }, `statements nest ${wgsl.nesting.depth} blocks deep in the kernel once functions are inlined (WGSL allows ${WGSL_MAX_NESTING}); nest fewer ifs and loops`);
    throw new RslCompileError(diagnostics.list);
  }
  let lightEvaluationSites = 0;
  walk(ir.main, (inst) => {
    if (inst.op === 'illuminance') lightEvaluationSites++;
  });
  const workgroupBytes = Math.max(1, wgsl.workgroupSlots) * maxVertices * 4 + wgsl.uniformBytes;
  const multipass = shaders.imager || description.countLightEvaluations ? undefined : partitionKernel(ir, layout, description.partition ?? {}, diagnostics, {
    noUniformHoisting: !!description.noUniformHoisting, ...optional('maxLoopIterations', description.maxLoopIterations), ...optional('loopFlags', loopFlags),
  });
  if (diagnostics.hasErrors) throw new RslCompileError(diagnostics.list);
  if (!multipass && workgroupBytes > WORKGROUP_BYTES) diagnostics.error({ file: 'pipeline', line: 1, column: 1 }, `the kernel needs ${workgroupBytes} bytes of workgroup memory`);
  return {
    code: wgsl.code, entryPoint: wgsl.entryPoint, layout, params: lowerer.paramLayout(), optionNames: [...lowerer.optionQueries], usesCoordinateSystems: lowerer.usesCoordinateSystems, strings: strings.entries(),
    scratchBytesPerVertex: layout.bytesPerVertex + workgroupBytes / maxVertices, workgroupBytes, lightEvaluationSites, uniformValues: wgsl.uniformValues, writes: wgsl.writes,
    writesGridInputs: wgsl.writes.filter((name) => !OUTPUT_GRID_VARIABLES.some((v) => v.name === name) && !description.outputVariables?.includes(name)), keepsOpaque: keepsOpaque(ir),
    passes: { ...passes, barrierPositions: wgsl.barrierPositions }, ...(description.countLightEvaluations ? { lightCountBinding: LIGHT_COUNT_BINDING } : {}),
    maxLoopIterations: description.maxLoopIterations ?? DEFAULT_MAX_LOOP_ITERATIONS,
    loopSites: loops?.sites ?? [], ...((multipass ? multipass.passes.some((p) => p.loopFlags) : wgsl.loopFlags) ? { loopFlagBinding: LOOP_FLAG_BINDING } : {}), ...optional('multipass', multipass), ir, diagnostics: diagnostics.list, cacheKey: pipelineKey(description),
  };
}

/**
 * The loops that could leave through the cap, each given a flag (IR loop id → flag index), and each
 * flag's RSL position: every loop with a position but those that run once (wgsl.ts runsOnce).
 */
function loopSites(ir: IrModule): { flags: Map<number, number>; sites: SourcePos[] } {
  const flags = new Map<number, number>();
  const sites: SourcePos[] = [];
  const byPosition = new Map<string, number>();
  for (const body of allBodies(ir)) {
    walk(body, (inst) => {
      if (inst.op !== 'loop' || !inst.pos || runsOnce(inst)) return;
      const at = `${inst.pos.file}\u0001${inst.pos.line}\u0001${inst.pos.column}`;
      let flag = byPosition.get(at);
      if (flag === undefined) {
        byPosition.set(at, (flag = sites.length));
        sites.push(inst.pos);
      }
      flags.set(inst.loop, flag);
    });
  }
  return { flags, sites };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function refKey(ref: ShaderRef | undefined): string {
  if (ref === undefined) return '-';
  return typeof ref === 'string' ? `std:${ref}` : `${ref.file ?? ''}\u0001${ref.name ?? ''}\u0001${ref.source}`;
}

/** The cache key: every source and the composition (roles, light order, primitive variables, size). */
export function pipelineKey(d: PipelineDescription): string {
  return JSON.stringify([
    refKey(d.surface), refKey(d.displacement), refKey(d.atmosphere), (d.lights ?? []).map(refKey), refKey(d.imager),
    d.primitiveVariables ?? [], d.parameterVariables ?? null, d.maxVertices ?? 256, !!d.noIlluminanceMerging, !!d.countLightEvaluations, !!d.noUniformHoisting,
    d.options ? Object.entries(d.options).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null, d.coordinateSystems ?? null, d.outputVariables ?? null, d.maxLoopIterations ?? null,
    d.partition ?? null, !!d.loopFlags,
  ]);
}

/** Compiles pipelines once per key. */
export class ShaderCompiler {
  private readonly cache = new Map<string, CompiledPipeline>();
  readonly stats = { hits: 0, misses: 0 };

  compile(description: PipelineDescription): CompiledPipeline {
    const key = pipelineKey(description);
    const cached = this.cache.get(key);
    if (cached) {
      this.stats.hits++;
      return cached;
    }
    this.stats.misses++;
    const compiled = compilePipeline(description);
    this.cache.set(key, compiled);
    return compiled;
  }
}
