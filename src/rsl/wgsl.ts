// WGSL back end: one compute kernel per shading pipeline, one workgroup per grid, one invocation
// per vertex. Values become `let`s, IR variables function-scope `var`s (grid variables module-scope
// `var<private>`s loaded at entry and stored at exit), light shaders functions called from a loop
// over the lights, and derivative groups a write to workgroup memory, a barrier, and neighbour reads.
// Values proven uniform over the grid and worth it are computed once per grid by invocation 0 into
// workgroup memory behind one barrier (passes/uniform-hoist.ts), e.g. the light shaders' transforms of
// their from/to parameters, which otherwise run per vertex per light per illuminance loop.
import { floatLiteral } from './wgsl-literals.ts';
import { FRAME_UNIFORMS_WGSL, GRID_INFO } from '../layout/grid-layout.ts';
import type { GridLayout } from '../layout/grid-layout.ts';
import type { SourcePos } from './diagnostics.ts';
import type { Inst, IrModule, IrType, IrVar, LightFunction } from './ir.ts';
import { allBodies, children, walk } from './ir.ts';
import { wgslTypeName } from './lower.ts';
import { wgslLibrary } from './wgsl-library.ts';
import { TEXTURE_COMPLETE_WGSL, TEXTURE_ENTRY_WGSL, TEXTURE_WGSL } from '../texture/texture-wgsl.ts';
import { ANY_ACTIVE } from './passes/mask-varying-loops.ts';
import { noUniformPlan, planUniformHoisting } from './passes/uniform-hoist.ts';
import type { UniformPlan } from './passes/uniform-hoist.ts';

/** At most this much workgroup memory holds values computed once per grid. */
export const UNIFORM_BYTES = 2048;

/** Workgroup memory available for derivative operands (the WebGPU default limit). */
export const WORKGROUP_BYTES = 16384;

/** At most this many parameter words are copied into a private array (see ParamCopy). */
const PRIVATE_PARAM_WORDS = 1024;

/** A parameter read at a constant word (`rsl_param_f32(7u)`, wgsl-library.ts), as lower.ts writes
 * them into call templates; reads at computed words stay calls. */
const CONSTANT_PARAM_READ = /rsl_param_(f32|u32|vec3|mat4)\((\d+)u\)/g;
const PARAM_READ_WORDS: Record<string, number> = { f32: 1, u32: 1, vec3: 3, mat4: 16 };

/**
 * The parameter words only the uniform prologue reads (shader-space matrices, light positions: most
 * of a kernel's constant parameter reads), copied by invocation 0 in one loop from the grid's
 * parameter block into a private array, which the prologue reads at constant indices. On CPU
 * drivers a storage load at a computed offset compiles to a branch per SIMD lane, so a kernel's
 * compile time followed its parameter reads (lavapipe: matte with three distant lights 2.8–3.3 s,
 * 0.75–1.0 s with the loop). The body keeps reading its words where it uses them: every invocation
 * copying them first made shading slower (Airplane perf scene 0.6–0.8 s → 1.0–1.1 s).
 */
interface ParamCopy {
  /** Private index of each copied word. */
  index: Map<number, number>;
  /** The block words in private index order. */
  words: number[];
}

function constantParamWords(template: string, into: Set<number>): void {
  for (const [, type, word] of template.matchAll(CONSTANT_PARAM_READ)) {
    for (let k = 0; k < PARAM_READ_WORDS[type!]!; k++) into.add(Number(word) + k);
  }
}

export interface WgslOutput {
  code: string;
  entryPoint: string;
  /** Number of derivative barrier positions (groups) in the kernel. */
  barrierPositions: number;
  /** Scalar slots of workgroup memory per vertex used for derivative operands. */
  workgroupSlots: number;
  /** Workgroup bytes of values computed once per grid (uniform hoisting). */
  uniformBytes: number;
  /** Number of values computed once per grid. */
  uniformValues: number;
  /** The grid variables the kernel writes back (layout names). */
  writes: string[];
  /** The deepest nesting of the kernel's statements, and the RSL construct last entered on the way
   * there (inlined functions nest inside their callers, so this can exceed what the parser allowed). */
  nesting: { depth: number; pos?: SourcePos };
  /** The kernel declares the loop flags (WgslOptions.loopFlags) at their binding. */
  loopFlags: boolean;
}

/** The deepest block nesting a kernel may have: WGSL allows 127 levels of statement nesting (and
 * else-if chaining), and Tint counts a statement and its block as two; less one for one-line ifs. */
export const WGSL_MAX_NESTING = 62;

const FRAME_GLOBALS: Record<string, string> = {
  frame_E: 'vec3f(0.0)', frame_ncomps: '3.0', frame_time: 'frame.time', frame_dtime: '0.0', frame_dPdtime: 'vec3f(0.0)', frame_alpha: '1.0',
};

export interface WgslOptions {
  /**
   * Instrumentation: binding 4 is an array<atomic<u32>> into which every light-shader call adds 1 at
   * [(grid * maxVertices + vertex) * lights + light]. For tests of illuminance merging.
   */
  countLightEvaluations?: boolean;
  /** Compute every value per vertex (no once-per-grid uniform values); for comparisons. */
  noUniformHoisting?: boolean;
  /** Most iterations one run of a loop makes (default DEFAULT_MAX_LOOP_ITERATIONS) where the frame
   * uniforms' loopCap is 0; a non-zero loopCap sets it per dispatch (rsl_loop_cap). */
  maxLoopIterations?: number;
  /**
   * Loops that report leaving through the cap: IR loop id → flag index. Such a loop stores 1 at that
   * index of `array<u32>` at `binding` when it leaves because it reached the cap (compile.ts
   * loopSites gives each index its RSL position), so the renderer can warn that the picture is cut short.
   */
  loopFlags?: { binding: number; sites: ReadonlyMap<number, number> };
  /** Workgroup memory the kernel may use (default WORKGROUP_BYTES): derivative rounds and uniform values. */
  workgroupBytes?: number;
  /** Write the assigned grid variables back at the end (default true; a multipass kernel's earlier passes do not). */
  writeBack?: boolean;
  /** A pass of a partitioned kernel: this binding is the intermediate buffer, read and written by the
   * rsl_save_T / rsl_restore_T calls the partitioner puts in (src/rsl/partition/emit-passes.ts). */
  intermediateBinding?: number;
}

/** Every RSL loop leaves after this many iterations of one run: a GPU has no watchdog, so a shader
 * looping a billion times per vertex would hang the device, and WGSL requires every loop to have
 * a visible exit ("loop does not exit" otherwise). Generous: real shaders loop tens to thousands. */
export const DEFAULT_MAX_LOOP_ITERATIONS = 100_000;

/** The binding of the loop flags when WgslOptions.loopFlags is set (past the fused dicer's 8–11). */
export const LOOP_FLAG_BINDING = 12;

/** The binding of the light-evaluation counters when WgslOptions.countLightEvaluations is set. */
export const LIGHT_COUNT_BINDING = 4;

export function emitWgsl(module: IrModule, layout: GridLayout, options: WgslOptions = {}): WgslOutput {
  return new Emitter(module, layout, options).run();
}

/** The loop's body ends with a break out of it and nothing inside continues it: it runs once (the
 * loop an early return inlines to), so it needs no cap. */
export function runsOnce(loop: Extract<Inst, { op: 'loop' }>): boolean {
  const last = loop.body[loop.body.length - 1];
  if (last?.op !== 'break' || last.loop !== loop.loop) return false;
  let continues = false;
  walk(loop.body, (inst) => {
    continues ||= inst.op === 'continue' && inst.loop === loop.loop;
  });
  return !continues;
}

/**
 * Where a loop's exit test ends: the body's first instructions up to and including
 * `if (cond) {} else { break; }` out of this loop (how lower.ts puts a while's or for's condition),
 * when everything before it is straight-line code; 0 when the body does not start so.
 */
function exitTestEnd(loop: Extract<Inst, { op: 'loop' }>): number {
  for (let k = 0; k < loop.body.length; k++) {
    const inst = loop.body[k]!;
    if (inst.op === 'if') {
      const exit = inst.else[0];
      return inst.then.length === 0 && inst.else.length === 1 && exit?.op === 'break' && exit.loop === loop.loop ? k + 1 : 0;
    }
    if (children(inst).length > 0 || inst.op === 'break' || inst.op === 'continue' || inst.op === 'derivgroup') return 0;
  }
  return 0;
}

class Emitter {
  private lines: string[] = [];
  private indent = 1;
  /** WGSL loops we are inside, innermost last (IR loop ids). */
  private loopStack: number[] = [];
  private groupCount = 0;
  private maxSlots = 0;
  private usesExit = false;
  private nesting: WgslOutput['nesting'] = { depth: 0 };
  /** The position of the if, loop or illuminance last entered. */
  private construct: SourcePos | undefined;
  /** Loops emitted so far: names each loop's iteration counter. */
  private loopCount = 0;
  private usesLoopFlags = false;
  private readonly slotsPerRound: number;
  private readonly plan: UniformPlan;
  /**
   * Loops and ifs with a derivative group inside (relocation put them there because their control is
   * uniform over the grid). WGSL cannot prove that, so their conditions, and every exit of such a
   * loop, are broadcast from invocation 0 with workgroupUniformLoad, which WGSL treats as uniform.
   */
  private readonly barrierConstructs = new Set<Inst>();
  /** True while every enclosing construct is one of barrierConstructs (or none). */
  private uniformContext = true;
  private barrierLoopDepth = 0;
  private broadcasts = 0;
  private readonly params: ParamCopy | undefined;

  constructor(
    private readonly module: IrModule,
    private readonly layout: GridLayout,
    private readonly options: WgslOptions,
  ) {
    const workgroupBytes = options.workgroupBytes ?? WORKGROUP_BYTES;
    // Once-per-grid values leave room for at least one triple's derivative round.
    const uniformBytes = Math.min(UNIFORM_BYTES, Math.max(0, workgroupBytes - 12 * layout.maxVertices));
    this.plan = options.noUniformHoisting ? noUniformPlan() : planUniformHoisting(module, uniformBytes);
    this.slotsPerRound = Math.floor((workgroupBytes - this.plan.bytes) / 4 / layout.maxVertices);
    walk(module.main, (inst) => {
      if ((inst.op === 'if' || inst.op === 'loop') && children(inst).some((c) => contains(c, (x) => x.op === 'derivgroup'))) this.barrierConstructs.add(inst);
    });
    this.params = this.paramCopy();
  }

  /** Which parameter words to copy (ParamCopy); undefined for none or too many. */
  private paramCopy(): ParamCopy | undefined {
    const body = new Set<number>();
    const prologue = new Set<number>();
    for (const list of allBodies(this.module)) {
      walk(list, (inst) => {
        // Roots read workgroup memory in the body and values only roots use are not emitted there.
        if (inst.op === 'call' && !this.plan.skipped.has(inst.id) && !this.plan.roots.has(inst.id)) constantParamWords(inst.template, body);
      });
    }
    for (const inst of this.plan.prologue) if (inst.op === 'call') constantParamWords(inst.template, prologue);
    const words = [...prologue].filter((w) => !body.has(w));
    if (words.length === 0 || words.length > PRIVATE_PARAM_WORDS) return undefined;
    return { index: new Map(words.map((w, k) => [w, k])), words };
  }

  /** A call template with its constant parameter reads taken from the private copy. */
  private withParamCopy(template: string): string {
    const params = this.params;
    if (!params) return template;
    return template.replace(CONSTANT_PARAM_READ, (read, type: string, word: string) => {
      // A read that takes any word the body also reads stays a read of the block.
      const words = [...Array(PARAM_READ_WORDS[type]!).keys()].map((k) => Number(word) + k);
      if (!words.every((w) => params.index.has(w))) return read;
      const at = (k: number): string => `rsl_params[${params.index.get(words[k]!)!}]`;
      switch (type) {
        case 'f32': return at(0);
        case 'u32': return `bitcast<u32>(${at(0)})`;
        case 'vec3': return `vec3f(${at(0)}, ${at(1)}, ${at(2)})`;
        case 'mat4': return `mat4x4f(${[...Array(16).keys()].map(at).join(', ')})`;
        default: return read;
      }
    });
  }

  /** The private copy's declarations. */
  private paramCopyDeclarations(): string[] {
    const params = this.params;
    if (!params) return [];
    const n = params.words.length;
    return [`var<private> rsl_params: array<f32, ${n}>;`, `const rsl_param_words = array<u32, ${n}>(${params.words.map((w) => `${w}u`).join(', ')});`];
  }

  private line(text: string): void {
    if (this.indent > this.nesting.depth) this.nesting = { depth: this.indent, ...(this.construct ? { pos: this.construct } : {}) };
    this.lines.push('  '.repeat(this.indent) + text);
  }

  private varName(v: IrVar | undefined): string {
    if (!v) return 'rsl_missing';
    return `${v.kind === 'global' ? 'g' : 'x'}${v.id}_${v.name.replace(/[^A-Za-z0-9]/g, '_')}`;
  }

  private v(id: number): string {
    return `v${id}`;
  }

  private varDecl(v: IrVar): string {
    const t = wgslTypeName(v.type);
    return v.arrayLength !== undefined ? `array<${t}, ${v.arrayLength}>` : t;
  }

  run(): WgslOutput {
    const maxV = this.layout.maxVertices;
    const globals = [...this.module.vars.values()].filter((v) => v.kind === 'global');
    const prologue = this.prologue();
    const bodyLines = this.functionBody(this.module.main);
    const lightFns = this.module.lights.map((l) => this.lightFunction(l));
    let anyActive = false;
    walk(this.module.main, (inst) => {
      anyActive ||= inst.op === 'call' && inst.template === ANY_ACTIVE;
    });
    // Texture lookups (src/texture/texture-wgsl.ts) bring the atlas binding, in the kernel or a light.
    let textures = false;
    for (const body of [this.module.main, ...this.module.lights.map((l) => l.body)]) {
      walk(body, (inst) => {
        textures ||= inst.op === 'call' && /^rsl_(texture|shadow|environment|texinfo_has|texinfo_word|texinfo_matrix)\(/.test(inst.template);
      });
    }
    const header: string[] = [
      '// Generated by the RSL compiler: one workgroup shades one grid.',
      FRAME_UNIFORMS_WGSL,
      `struct LightResult { Cl: vec3f, L: vec3f, Ol: vec3f, ok: bool${this.module.messages.map((m, k) => `, m${k}: ${wgslTypeName(m.type)}, h${k}: f32`).join('')} }`,
      '@group(0) @binding(0) var<storage, read_write> grids: array<f32>;',
      '@group(0) @binding(1) var<storage, read> gridInfo: array<u32>;',
      '@group(0) @binding(2) var<storage, read> params: array<f32>;',
      '@group(0) @binding(3) var<uniform> frame: FrameUniforms;',
      `var<workgroup> rsl_wg: array<f32, ${Math.max(1, this.maxSlots) * maxV}>;`,
      ...(this.broadcasts > 0 || anyActive ? ['var<workgroup> rsl_flag: u32;'] : []),
      ...(anyActive ? ANY_ACTIVE_WGSL : []),
      ...(['f32', 'vec3', 'mat4', 'u32'] as const).filter((t) => this.plan.slots[t] > 0).map((t) => `var<workgroup> rsl_uni_${t}: array<${wgslTypeName(t)}, ${this.plan.slots[t]}>;`),
      'var<private> g_base: u32;',
      'var<private> g_pbase: u32;',
      'var<private> g_vi: u32;',
      'var<private> g_lid: u32;',
      'var<private> g_nu: u32;',
      'var<private> g_nv: u32;',
      'var<private> g_du: f32;',
      'var<private> g_dv: f32;',
      'var<private> g_random: u32;',
      'var<private> g_urandom: u32;',
      // The cap every loop's check reads: the frame uniforms' loopCap (Option "limits"
      // "shaderloopiterations"), else the compiled one. Read at run time, not a WGSL constant or
      // override: with a constant cap lavapipe took 40 s to over 2 min to build the pipeline of an
      // endless loop that raises its flag (its compiler works through the 100,000 iterations), 20 to
      // 40 ms with the cap read from the uniform; and another cap needs no other pipeline. A uniform
      // value, so loops with barriers stay uniform.
      ...(this.loopCount > 0 ? [`fn rsl_loop_cap() -> u32 { return select(frame.loopCap, ${this.options.maxLoopIterations ?? DEFAULT_MAX_LOOP_ITERATIONS}u, frame.loopCap == 0u); }`] : []),
      ...(this.usesLoopFlags ? [`@group(0) @binding(${this.options.loopFlags!.binding}) var<storage, read_write> rsl_loop_flags: array<u32>;`] : []),
      ...(this.options.countLightEvaluations
        ? ['var<private> g_gi: u32;', `@group(0) @binding(${LIGHT_COUNT_BINDING}) var<storage, read_write> rsl_light_count: array<atomic<u32>>;`]
        : []),
      ...(this.options.intermediateBinding !== undefined ? intermediateWgsl(this.options.intermediateBinding, maxV) : []),
      ...globals.map((g) => `var<private> ${this.varName(g)}: ${this.varDecl(g)};`),
      wgslLibrary(maxV),
      ...this.paramCopyDeclarations(),
      ...(textures ? [TEXTURE_WGSL] : []),
      ...lightFns,
      this.ambientFunction(),
    ];
    const duVar = this.layout.variables.find((x) => x.name === 'du');
    const dvVar = this.layout.variables.find((x) => x.name === 'dv');
    const entry: string[] = [
      `@compute @workgroup_size(${maxV})`,
      'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {',
      // Every binding is used, so the 'auto' layout always has all four.
      '  _ = arrayLength(&params);',
      '  let gi = wid.x + wid.y * nwg.x;',
      '  if (gi >= frame.gridCount) { return; }',
      // A grid that missed a texture tile is shaded again later: nothing is written back (tile-pool.ts).
      ...(textures ? TEXTURE_ENTRY_WGSL : []),
      `  g_nu = gridInfo[gi * ${GRID_INFO.words}u + ${GRID_INFO.nu}u];`,
      `  g_nv = gridInfo[gi * ${GRID_INFO.words}u + ${GRID_INFO.nv}u];`,
      `  g_base = gridInfo[gi * ${GRID_INFO.words}u + ${GRID_INFO.recordBase}u];`,
      `  g_pbase = gridInfo[gi * ${GRID_INFO.words}u + ${GRID_INFO.paramBase}u];`,
      '  let count = max(g_nu * g_nv, 1u);',
      // Invocations past the grid shade its last vertex so they still reach every barrier.
      '  g_vi = min(lid, count - 1u);',
      '  g_lid = lid;',
      ...(this.options.countLightEvaluations ? ['  g_gi = gi;'] : []),
      ...(this.options.intermediateBinding !== undefined ? ['  _ = arrayLength(&rsl_saved);', '  rsl_gi = gi;'] : []),
      '  g_random = rsl_hash(gi * 65536u + g_vi);',
      '  g_urandom = rsl_hash(gi ^ 0x85ebca6bu);',
      `  g_du = ${duVar ? `rsl_grid_f32(${duVar.offset}u)` : '0.0'};`,
      `  g_dv = ${dvVar ? `rsl_grid_f32(${dvVar.offset}u)` : '0.0'};`,
    ];
    for (const g of globals) {
      const slot = this.layout.variables.find((x) => x.name === g.name);
      const init = slot ? `rsl_grid_${g.type}(${slot.offset}u)` : (FRAME_GLOBALS[g.name] ?? `${this.varDecl(g)}()`);
      entry.push(`  ${this.varName(g)} = ${init};`);
    }
    for (const line of [prologue, bodyLines].flat()) entry.push(line);
    // Write back the grid variables the pipeline assigns.
    const written = new Set<number>();
    if (this.options.writeBack !== false) {
      walk(this.module.main, (inst) => {
        if (inst.op === 'store') written.add(inst.variable);
      });
    }
    if (textures) entry.push(`  let rsl_tex_complete = ${TEXTURE_COMPLETE_WGSL};`);
    entry.push(textures ? '  if (lid < g_nu * g_nv && rsl_tex_complete) {' : '  if (lid < g_nu * g_nv) {');
    const writes: string[] = [];
    for (const g of globals) {
      const slot = this.layout.variables.find((x) => x.name === g.name);
      if (!slot || !written.has(g.id)) continue;
      entry.push(`    rsl_grid_store_${g.type}(${slot.offset}u, ${this.varName(g)});`);
      writes.push(slot.name);
    }
    // A pass of a split kernel before the last marks no grid done (the next pass would skip it).
    const finish = this.options.writeBack === false ? 'rsl_tex_finish_pass' : 'rsl_tex_finish';
    entry.push('  }', ...(textures ? [`  if (lid == 0u) { ${finish}(gi, rsl_tex_complete); }`] : []), '}');
    // The workgroup array size is known only after the body was emitted.
    header[7] = `var<workgroup> rsl_wg: array<f32, ${Math.max(1, this.maxSlots) * maxV}>;`;
    return {
      code: [...header, ...entry].join('\n') + '\n', entryPoint: 'main', barrierPositions: this.groupCount, workgroupSlots: this.maxSlots,
      uniformBytes: this.plan.bytes, uniformValues: this.plan.roots.size, writes, nesting: this.nesting,
      loopFlags: this.usesLoopFlags,
    };
  }

  /** Invocation 0 computes the grid's uniform values into workgroup memory; everyone waits. */
  private prologue(): string[] {
    if (this.plan.roots.size === 0) return [];
    const saved = this.lines;
    this.lines = [];
    this.indent = 2;
    for (const inst of this.plan.prologue) {
      this.computeValue(inst);
      const root = this.plan.roots.get(inst.id);
      if (root) this.line(`rsl_uni_${root.type}[${root.slot}] = ${this.v(inst.id)};`);
    }
    const copy = this.params ? [`    for (var k = 0u; k < ${this.params.words.length}u; k++) { rsl_params[k] = params[g_pbase + rsl_param_words[k]]; }`] : [];
    const out = ['  if (lid == 0u) {', ...copy, ...this.lines, '  }', '  workgroupBarrier();'];
    this.lines = saved;
    this.indent = 1;
    return out;
  }

  /** Declarations of the function-scope variables a body uses, then its statements. */
  private functionBody(body: Inst[], extraVars: number[] = []): string[] {
    const used = new Set<number>(extraVars);
    walk(body, (inst) => {
      if (inst.op === 'load' || inst.op === 'store') used.add(inst.variable);
    });
    const saved = this.lines;
    this.lines = [];
    this.usesExit = false;
    this.indent = 1;
    for (const id of used) {
      const v = this.module.vars.get(id);
      if (v && v.kind !== 'global') this.line(`var ${this.varName(v)}: ${this.varDecl(v)};`);
    }
    const declEnd = this.lines.length;
    this.block(body);
    if (this.usesExit) this.lines.splice(declEnd, 0, '  var rsl_exit: u32 = 0u;');
    const out = this.lines;
    this.lines = saved;
    return out;
  }

  private lightFunction(light: LightFunction): string {
    const v = (id: number): string => this.varName(this.module.vars.get(id));
    this.lightVars = { l: v(light.lVar), ps: v(light.psVar) };
    // The light's own Ps, L, Cl and Ol are declared first and Ps set before the body runs.
    const sources = this.module.messages.map((m) => m.sources[light.index]);
    const lines = this.functionBody([{ op: 'store', variable: light.psVar, value: -1 }, ...light.body], [light.psVar, light.lVar, light.clVar, light.olVar, ...sources.filter((x) => x !== undefined)]);
    this.lightVars = undefined;
    const psStore = lines.findIndex((l) => l.includes(`${v(light.psVar)} = v-1;`));
    if (psStore >= 0) lines[psStore] = `  ${v(light.psVar)} = Ps;`;
    return [
      `fn light${light.index}(Ps: vec3f) -> LightResult {`,
      '  var rsl_ok = false;',
      // Padding invocations (past the grid) shade the last vertex again: they do not count.
      ...(this.options.countLightEvaluations
        ? [`  if (g_lid < g_nu * g_nv) { atomicAdd(&rsl_light_count[(g_gi * ${this.layout.maxVertices}u + g_lid) * ${this.module.lights.length}u + ${light.index}u], 1u); }`]
        : []),
      ...lines,
      // lightsource() messages: the light's parameter as the light left it, and whether it has one.
      `  return LightResult(${v(light.clVar)}, -${v(light.lVar)}, ${v(light.olVar)}, rsl_ok${this.module.messages
        .map((m, k) => {
          const source = sources[k];
          const found = source !== undefined ? this.module.vars.get(source) : undefined;
          return found ? `, ${this.varName(found)}, 1.0` : `, ${wgslTypeName(m.type)}(), 0.0`;
        })
        .join('')});`,
      '}',
    ].join('\n');
  }

  private ambientFunction(): string {
    const ambient = this.module.lights.filter((l) => l.ambient);
    return [
      'fn rsl_ambient(Ps: vec3f) -> vec3f {',
      '  var c = vec3f(0.0);',
      ...ambient.map((l) => `  c += light${l.index}(Ps).Cl;`),
      '  return c;',
      '}',
    ].join('\n');
  }

  private block(list: Inst[]): void {
    for (const inst of list) this.inst(inst);
  }

  private typeOf(t: IrType): string {
    return wgslTypeName(t);
  }

  private constant(type: IrType, value: number[]): string {
    switch (type) {
      case 'f32':
        return floatLiteral(value[0] ?? 0);
      case 'bool':
        return value[0] ? 'true' : 'false';
      case 'u32':
        return `${value[0] ?? 0}u`;
      case 'vec3':
        return `vec3f(${[0, 1, 2].map((k) => floatLiteral(value[k] ?? value[0] ?? 0)).join(', ')})`;
      case 'mat4':
        return `mat4x4f(${[...Array(16).keys()].map((k) => floatLiteral(value.length === 16 ? value[k]! : k % 5 === 0 ? value[0] ?? 0 : 0)).join(', ')})`;
    }
  }

  private valueType = new Map<number, IrType>();

  private let(id: number, type: IrType, expr: string): void {
    this.valueType.set(id, type);
    this.line(`let ${this.v(id)}: ${this.typeOf(type)} = ${expr};`);
  }

  private index(id: number): string {
    return `i32(${this.v(id)})`;
  }

  private inst(inst: Inst): void {
    if ('id' in inst && inst.op !== 'ambient') {
      const root = this.plan.roots.get(inst.id);
      if (root) return this.let(inst.id, inst.type, `rsl_uni_${root.type}[${root.slot}]`);
      if (this.plan.skipped.has(inst.id)) return;
    }
    this.computeValue(inst);
  }

  private computeValue(inst: Inst): void {
    const v = (id: number): string => this.v(id);
    switch (inst.op) {
      case 'const':
        return this.let(inst.id, inst.type, this.constant(inst.type, inst.value));
      case 'load': {
        const variable = this.module.vars.get(inst.variable);
        return this.let(inst.id, inst.type, inst.index !== undefined ? `${this.varName(variable)}[${this.index(inst.index)}]` : this.varName(variable));
      }
      case 'store': {
        const variable = this.module.vars.get(inst.variable);
        this.line(`${this.varName(variable)}${inst.index !== undefined ? `[${this.index(inst.index)}]` : ''} = ${v(inst.value)};`);
        return;
      }
      case 'unary':
        return this.let(inst.id, inst.type, `${inst.operator}${v(inst.a)}`);
      case 'binary': {
        const a = v(inst.a);
        const b = v(inst.b);
        const operandType = this.valueType.get(inst.a);
        let expr: string;
        switch (inst.operator) {
          case 'dot':
            expr = `dot(${a}, ${b})`;
            break;
          case 'cross':
            expr = `cross(${a}, ${b})`;
            break;
          case 'matmul':
            expr = `(${b} * ${a})`;
            break;
          case 'matdiv':
            expr = `(rsl_inverse(${b}) * ${a})`;
            break;
          case '==':
          case '!=':
            if (operandType === 'vec3') expr = inst.operator === '==' ? `all(${a} == ${b})` : `any(${a} != ${b})`;
            else if (operandType === 'mat4') expr = `${inst.operator === '==' ? '' : '!'}(all(${a}[0] == ${b}[0]) && all(${a}[1] == ${b}[1]) && all(${a}[2] == ${b}[2]) && all(${a}[3] == ${b}[3]))`;
            else expr = `(${a} ${inst.operator} ${b})`;
            break;
          default:
            expr = `(${a} ${inst.operator} ${b})`;
        }
        return this.let(inst.id, inst.type, expr);
      }
      case 'convert': {
        const from = this.valueType.get(inst.a);
        const a = v(inst.a);
        let expr = a;
        if (inst.type === 'vec3') expr = `vec3f(${a})`;
        else if (inst.type === 'mat4') expr = `rsl_scalar_mat(${a})`;
        else if (inst.type === 'f32' && from === 'bool') expr = `select(0.0, 1.0, ${a})`;
        else if (inst.type === 'bool' && from === 'f32') expr = `(${a} != 0.0)`;
        return this.let(inst.id, inst.type, expr);
      }
      case 'select':
        return this.let(inst.id, inst.type, `select(${v(inst.b)}, ${v(inst.a)}, ${v(inst.cond)})`);
      case 'call':
        return this.let(inst.id, inst.type, this.withParamCopy(inst.template).replace(/\$(\d+)/g, (_, k: string) => v(inst.args[Number(k)] ?? -1)));
      case 'deriv':
        // Only reached when relocation could not place it; the compiler has reported an error.
        return this.let(inst.id, inst.type, this.constant(inst.type, [0]));
      case 'derivgroup':
        return this.derivGroup(inst);
      case 'if': {
        this.construct = inst.pos ?? this.construct;
        const broadcast = this.uniformContext && (this.barrierConstructs.has(inst) || (this.barrierLoopDepth > 0 && contains([inst], (x) => x.op === 'break' || x.op === 'continue')));
        const saved = this.uniformContext;
        this.uniformContext = broadcast;
        this.line(`if (${broadcast ? this.broadcast(v(inst.cond)) : v(inst.cond)}) {`);
        this.nestedBlock(inst.then);
        if (inst.else.length > 0) {
          this.line('} else {');
          this.nestedBlock(inst.else);
        }
        this.line('}');
        this.uniformContext = saved;
        return;
      }
      case 'loop': {
        const barrierLoop = this.uniformContext && this.barrierConstructs.has(inst);
        const saved = this.uniformContext;
        this.uniformContext = barrierLoop;
        if (barrierLoop) this.barrierLoopDepth++;
        this.construct = inst.pos ?? this.construct;
        // A loop that runs once (an inlined early return) needs no cap.
        const counter = runsOnce(inst) ? undefined : `rsl_iter${this.loopCount++}`;
        if (counter) this.line(`var ${counter}: u32 = 0u;`);
        this.line('loop {');
        this.loopStack.push(inst.loop);
        // The cap is checked after the loop's own exit test (a while's or for's condition) where the
        // body starts with one, so a loop that ends by itself after exactly the cap's iterations is
        // not taken for one the cap stopped.
        const head = counter ? inst.body.slice(0, exitTestEnd(inst)) : [];
        this.nestedBlock(head);
        if (counter) {
          // Leaving through the cap raises the loop's flag, where it has one (WgslOptions.loopFlags).
          const flag = this.options.loopFlags?.sites.get(inst.loop);
          if (flag !== undefined) this.usesLoopFlags = true;
          this.line(`  if (${counter} >= rsl_loop_cap()) { ${flag !== undefined ? `rsl_loop_flags[${flag}] = 1u; ` : ''}break; }`);
          this.line(`  ${counter}++;`);
        }
        this.nestedBlock(inst.body.slice(head.length));
        if (inst.continuing.length > 0) {
          this.indent++;
          this.line('continuing {');
          this.nestedBlock(inst.continuing);
          this.line('}');
          this.indent--;
        }
        this.loopStack.pop();
        this.line('}');
        if (barrierLoop) this.barrierLoopDepth--;
        this.uniformContext = saved;
        this.exitCheck();
        return;
      }
      case 'break':
      case 'continue': {
        const innermost = this.loopStack[this.loopStack.length - 1];
        if (innermost === inst.loop) this.line(`${inst.op};`);
        else {
          this.usesExit = true;
          this.line(`rsl_exit = ${inst.loop * 2 + (inst.op === 'continue' ? 1 : 0)}u;`);
          this.line('break;');
        }
        return;
      }
      case 'illuminance':
        return this.illuminance(inst);
      case 'illuminate': {
        this.line('{');
        this.indent++;
        const light = this.currentLightVars();
        if (inst.position !== undefined) this.line(`${light.l} = ${light.ps} - ${v(inst.position)};`);
        else this.line(`${light.l} = ${inst.axis !== undefined ? v(inst.axis) : 'vec3f(0.0)'};`);
        const cone = inst.axis !== undefined && inst.angle !== undefined && inst.position !== undefined ? `rsl_angle_within(${light.l}, ${v(inst.axis)}, ${v(inst.angle)})` : 'true';
        this.line(`if (${cone}) {`);
        this.indent++;
        this.line('rsl_ok = true;');
        this.block(inst.body);
        this.indent--;
        this.line('}');
        this.indent--;
        this.line('}');
        return;
      }
      case 'ambient': {
        const p = [...this.module.vars.values()].find((x) => x.kind === 'global' && x.name === 'P');
        return this.let(inst.id, 'vec3', `rsl_ambient(${p ? this.varName(p) : 'vec3f(0.0)'})`);
      }
      case 'nop':
        return;
    }
  }

  private lightVars: { l: string; ps: string } | undefined;

  private currentLightVars(): { l: string; ps: string } {
    return this.lightVars ?? { l: 'rsl_missing', ps: 'rsl_missing' };
  }

  /** After a nested loop: leave or continue the enclosing loop if a multi-level break asked for it. */
  private exitCheck(): void {
    const outer = this.loopStack[this.loopStack.length - 1];
    if (outer === undefined || !this.usesExit) return;
    const broadcast = this.uniformContext && this.barrierLoopDepth > 0;
    this.line(`if (${broadcast ? this.broadcast('(rsl_exit != 0u)') : 'rsl_exit != 0u'}) {`);
    this.line(`  if (rsl_exit == ${outer * 2}u) { rsl_exit = 0u; break; }`);
    this.line(`  if (rsl_exit == ${outer * 2 + 1}u) { rsl_exit = 0u; continue; }`);
    this.line('  break;');
    this.line('}');
  }

  /** A condition that is uniform over the grid, made provably uniform for WGSL: invocation 0's value. */
  private broadcast(cond: string): string {
    const name = `rsl_c${this.broadcasts++}`;
    this.line(`if (g_lid == 0u) { rsl_flag = select(0u, 1u, ${cond}); }`);
    this.line(`let ${name} = workgroupUniformLoad(&rsl_flag) != 0u;`);
    return name;
  }

  private nestedBlock(list: Inst[]): void {
    this.indent++;
    this.block(list);
    this.indent--;
  }

  private illuminance(inst: Extract<Inst, { op: 'illuminance' }>): void {
    this.construct = inst.pos ?? this.construct;
    const lights = this.module.lights.filter((l) => !l.ambient && categoryMatches(inst.category, l.categories));
    if (lights.length === 0) return;
    const n = inst.loop;
    const name = (id: number): string => this.varName(this.module.vars.get(id));
    this.line(`for (var li${n}: u32 = 0u; li${n} < ${lights.length}u; li${n}++) {`);
    this.indent++;
    this.line(`var lr${n}: LightResult;`);
    this.line(`switch (li${n}) {`);
    lights.forEach((l, k) => this.line(`  case ${k}u: { lr${n} = light${l.index}(${this.v(inst.position)}); }`));
    this.line('  default: {}');
    this.line('}');
    this.line(`if (!lr${n}.ok) { continue; }`);
    this.line(`${name(inst.lVar)} = lr${n}.L;`);
    this.line(`${name(inst.clVar)} = lr${n}.Cl;`);
    this.line(`${name(inst.olVar)} = lr${n}.Ol;`);
    this.module.messages.forEach((m, k) => {
      this.line(`${name(m.valueVar)} = lr${n}.m${k};`);
      this.line(`${name(m.hasVar)} = lr${n}.h${k};`);
    });
    if (inst.axis !== undefined && inst.angle !== undefined) {
      this.line(`if (!rsl_angle_within(${name(inst.lVar)}, ${this.v(inst.axis)}, ${this.v(inst.angle)})) { continue; }`);
    }
    this.loopStack.push(inst.loop);
    const saved = this.uniformContext;
    this.uniformContext = false;
    this.block(inst.body);
    this.uniformContext = saved;
    this.loopStack.pop();
    this.indent--;
    this.line('}');
    this.exitCheck();
  }

  private derivGroup(inst: Extract<Inst, { op: 'derivgroup' }>): void {
    // Distinct operands, each taking one scalar slot per component.
    const operands: { id: number; type: IrType }[] = [];
    for (const d of inst.derivs) if (!operands.some((o) => o.id === d.a)) operands.push({ id: d.a, type: this.valueType.get(d.a) ?? d.type });
    const width = (t: IrType): number => (t === 'vec3' ? 3 : 1);
    const rounds: { id: number; type: IrType }[][] = [[]];
    let used = 0;
    for (const o of operands) {
      if (used + width(o.type) > this.slotsPerRound) {
        rounds.push([]);
        used = 0;
      }
      rounds[rounds.length - 1]!.push(o);
      used += width(o.type);
    }
    for (const round of rounds) {
      // A barrier first when an earlier group (or this one, in the loop's previous iteration) may
      // still be reading the workgroup array.
      if (this.groupCount > 0 || this.barrierLoopDepth > 0) this.line('workgroupBarrier();');
      this.groupCount++;
      const slotOf = new Map<number, number>();
      let slot = 0;
      for (const o of round) {
        slotOf.set(o.id, slot);
        const comps = o.type === 'vec3' ? ['.x', '.y', '.z'] : [''];
        comps.forEach((c, k) => this.line(`rsl_wg[${slot + k}u * ${this.layout.maxVertices}u + g_lid] = ${this.v(o.id)}${c};`));
        slot += comps.length;
      }
      this.maxSlots = Math.max(this.maxSlots, slot);
      this.line('workgroupBarrier();');
      for (const d of inst.derivs) {
        const s = slotOf.get(d.a);
        if (s === undefined) continue;
        const read = (k: number): string => `rsl_deriv_${d.axis}(${s + k}u)`;
        this.let(d.id, d.type, d.type === 'vec3' ? `vec3f(${read(0)}, ${read(1)}, ${read(2)})` : read(0));
      }
    }
  }
}

/** The intermediate buffer of a multipass kernel and its accessors: slot-major, a slot per float
 * component, grids of the batch then vertices, so neighbouring invocations touch neighbouring words. */
function intermediateWgsl(binding: number, maxVertices: number): string[] {
  const at = (slot: string): string => `rsl_saved[rsl_slot(${slot})]`;
  return [
    `@group(0) @binding(${binding}) var<storage, read_write> rsl_saved: array<f32>;`,
    'var<private> rsl_gi: u32;',
    `fn rsl_slot(s: u32) -> u32 { return (s * frame.gridCount + rsl_gi) * ${maxVertices}u + g_lid; }`,
    `fn rsl_save_f32(s: u32, x: f32) -> f32 { ${at('s')} = x; return x; }`,
    `fn rsl_restore_f32(s: u32) -> f32 { return ${at('s')}; }`,
    `fn rsl_save_bool(s: u32, x: bool) -> bool { ${at('s')} = select(0.0, 1.0, x); return x; }`,
    `fn rsl_restore_bool(s: u32) -> bool { return ${at('s')} != 0.0; }`,
    `fn rsl_save_u32(s: u32, x: u32) -> u32 { ${at('s')} = bitcast<f32>(x); return x; }`,
    `fn rsl_restore_u32(s: u32) -> u32 { return bitcast<u32>(${at('s')}); }`,
    `fn rsl_save_vec3(s: u32, x: vec3f) -> vec3f { ${at('s')} = x.x; ${at('s + 1u')} = x.y; ${at('s + 2u')} = x.z; return x; }`,
    `fn rsl_restore_vec3(s: u32) -> vec3f { return vec3f(${at('s')}, ${at('s + 1u')}, ${at('s + 2u')}); }`,
    `fn rsl_save_mat4(s: u32, m: mat4x4f) -> mat4x4f { for (var k = 0u; k < 16u; k++) { ${at('s + k')} = m[k / 4u][k % 4u]; } return m; }`,
    `fn rsl_restore_mat4(s: u32) -> mat4x4f { var m: mat4x4f; for (var k = 0u; k < 16u; k++) { m[k / 4u][k % 4u] = ${at('s + k')}; } return m; }`,
  ];
}

/** Whether any point of the grid is still in a masked loop (passes/mask-varying-loops.ts): a uniform bool. */
const ANY_ACTIVE_WGSL = [
  'var<workgroup> rsl_any: atomic<u32>;',
  'fn rsl_any_active(inside: f32) -> bool {',
  '  if (g_lid == 0u) { atomicStore(&rsl_any, 0u); }',
  '  workgroupBarrier();',
  '  if (inside != 0.0) { atomicOr(&rsl_any, 1u); }',
  '  workgroupBarrier();',
  '  if (g_lid == 0u) { rsl_flag = atomicLoad(&rsl_any); }',
  '  return workgroupUniformLoad(&rsl_flag) != 0u;',
  '}',
];

function contains(block: Inst[], test: (inst: Inst) => boolean): boolean {
  let found = false;
  walk(block, (inst) => {
    found ||= test(inst);
  });
  return found;
}

/** illuminance("cat", ...) sees lights whose __category lists cat; "-cat" excludes them. */
export function categoryMatches(category: string | undefined, lightCategories: string[]): boolean {
  if (category === undefined || category === '') return true;
  if (category.startsWith('-')) return !lightCategories.includes(category.slice(1));
  return lightCategories.includes(category);
}
