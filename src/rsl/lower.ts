// Lowering: checked shaders of one shading pipeline to one IR module. User functions (and the
// lighting prelude) are inlined at every call; output parameters alias the caller's variable.
// Each light shader becomes a light function the kernel calls from illuminance and ambient().
import type { Expr, ExprOf, ShaderKind, Stmt } from './ast.ts';
import type { Diagnostics, SourcePos } from './diagnostics.ts';
import { evaluateConstant } from './constant-eval.ts';
import { spaceIndex, SPACES } from '../layout/grid-layout.ts';
import type { BinaryOperator, Inst, IrModule, IrType, IrVar, LightFunction, VarKind } from './ir.ts';
import type { StringTable } from './strings.ts';
import { formatConstant } from './builtins/format.ts';
import { SPLINE_BASES } from './stdlib.ts';
import { componentCount, isPointLike, isTriple, typeToString } from './types.ts';
import type { RslType, TypeName } from './types.ts';
import type { CheckedShader, FunctionSymbol, VarSymbol } from './typecheck.ts';
import type { AttributeEntry, MatchTableEntry, ParamEntry, ParamLayout, SpaceMatrixEntry, TextureSlotEntry } from '../layout/param-layout.ts';
import { SHADOW_BIAS, TEXTURE_FILTER, TEXTURE_INFO_WORD } from '../texture/texture-wgsl.ts';

export interface PipelineShaders {
  displacement?: CheckedShader;
  surface?: CheckedShader;
  lights: CheckedShader[];
  atmosphere?: CheckedShader;
  /** An imager runs alone, on a grid of pixels (src/layout/grid-layout.ts imagerGridLayout). */
  imager?: CheckedShader;
}

export interface LowerOptions {
  /** Names of user primitive variables on the grid (they override shader parameters). */
  primitiveVariables: ReadonlySet<string>;
  /** Values option() returns, by name (numbers or a string); names not here make option() return 0. */
  options?: Readonly<Record<string, readonly number[] | string>>;
  /** The scene's named coordinate systems (CoordinateSystem), besides the standard spaces. */
  coordinateSystems?: readonly string[];
  /** Grid variables (name → type) that the surface's output parameters of that name write. */
  outputVariables?: ReadonlyMap<string, TypeName>;
}

/** A space of transform() and friends: a name known at compile time, or a string value looked up at run time. */
type SpaceOperand = { name: string } | { token: number };

/** What rendererinfo() answers (compile-time constants). */
export const RENDERER_INFO: Readonly<Record<string, readonly number[] | string>> = {
  renderer: 'webgpu-reyes',
  version: [0, 1, 0, 0],
  versionstring: '0.1.0',
};

export function irType(t: RslType | TypeName): IrType {
  const name = typeof t === 'string' ? t : t.name;
  if (name === 'float') return 'f32';
  if (name === 'matrix') return 'mat4';
  if (name === 'string') return 'u32';
  if (name === 'bool') return 'bool';
  return 'vec3';
}

interface LValue {
  variable: IrVar;
  index?: number;
  type: RslType;
}

interface ReturnTarget {
  result?: IrVar;
  type?: RslType;
  loop?: number;
}

interface InstanceContext {
  instance: string;
  checked: CheckedShader;
  kind: ShaderKind;
  /** RSL variable symbol id → IR variable (rebound per inlined call). */
  env: Map<number, IrVar>;
}

export class Lowerer {
  readonly module: IrModule = { vars: new Map(), main: [], lights: [], nextValue: 0, messages: [] };
  readonly params: ParamEntry[] = [];
  readonly spaceMatrices: SpaceMatrixEntry[] = [];
  readonly attributes: AttributeEntry[] = [];
  readonly matchTables: MatchTableEntry[] = [];
  readonly textureSlots: TextureSlotEntry[] = [];
  /** Names option() asked for with a constant string (whether or not they were given). */
  readonly optionQueries = new Set<string>();
  /** A space name that is not standard, or one only known at run time: the scene's coordinate systems matter. */
  usesCoordinateSystems = false;
  private illuminanceDepth = 0;
  private pipeline: PipelineShaders = { lights: [] };
  /** Parameters of displacement/surface/atmosphere a light reads (module-scope variables), by "instance\u0001name". */
  private readonly sharedParams = new Map<string, IrVar>();
  private paramBytes = 0;
  private nextVar = 0;
  private nextLoop = 1;
  private block: Inst[] = this.module.main;
  private loops: number[] = [];
  private returns: ReturnTarget[] = [];
  private ctx!: InstanceContext;
  private readonly gridVars = new Map<string, IrVar>();
  private readonly instances = new Map<string, InstanceContext>();
  /** The functions being inlined, outermost first: a repeat is recursion, too many a chain too deep. */
  private readonly inlining: FunctionSymbol[] = [];
  /** Inside a user function inlined for a uniform context (CheckedShader.uniformUserCalls). */
  private uniformRandom = 0;
  private readonly rayTracingWarned = new Set<CheckedShader>();

  constructor(
    private readonly diagnostics: Diagnostics,
    private readonly strings: StringTable,
    private readonly options: LowerOptions,
  ) {}

  lowerPipeline(p: PipelineShaders): IrModule {
    const main: [string, CheckedShader][] = [];
    for (const [instance, shader] of [['displacement', p.displacement], ['surface', p.surface], ['atmosphere', p.atmosphere], ['imager', p.imager]] as const) if (shader) main.push([instance, shader]);
    this.pipeline = p;
    p.lights.forEach((light, k) => this.lowerLight(light, k));
    // Every instance's parameters are bound before any shader runs, so each shader (and the lights)
    // can read the others' with surface(), displacement() and atmosphere().
    this.block = this.module.main;
    for (const [instance, shader] of main) this.beginInstance(instance, shader);
    for (const [instance, shader] of main) {
      this.block = this.module.main;
      this.ctx = this.instances.get(instance)!;
      this.statements(shader.shader.body);
      if (instance === 'surface') this.storeOutputVariables();
    }
    return this.module;
  }

  /** Each output parameter of the surface that names an output variable is stored into the grid
   * variable of that name, which the kernel writes back for the Displays. */
  private storeOutputVariables(): void {
    const { checked } = this.ctx;
    for (const d of checked.shader.params.flatMap((g) => g.declarators)) {
      const type = this.options.outputVariables?.get(d.name);
      const sym = checked.declarations.get(d);
      if (!type || !sym?.output) continue;
      if (sym.type.arrayLength !== undefined || componentCount(sym.type.name) !== componentCount(type)) {
        this.diagnostics.warning(d.pos, `output parameter '${d.name}' is ${sym.type.name}${sym.type.arrayLength !== undefined ? '[]' : ''}, the output variable "${d.name}" a ${type}; not written`);
        continue;
      }
      this.store(this.gridVar(d.name, type), this.load(this.ctx.env.get(sym.id)!));
    }
  }

  /** The parameter block's layout, once lowering is done: match() tables go last, sized by the strings. */
  paramLayout(): ParamLayout {
    let bytes = this.paramBytes;
    if (this.matchTables.length > 0) {
      // Fresh tokens come only from the block's string slots (parameters and attribute() strings).
      const slots = [...this.params, ...this.attributes].filter((p) => p.type === 'string').reduce((n, p) => n + (p.arrayLength ?? 1), 0);
      const tableLength = this.strings.entries().length + slots;
      for (const table of this.matchTables) {
        table.tableOffset = bytes;
        table.tableLength = tableLength;
        bytes += 4 * tableLength;
      }
    }
    return {
      entries: this.params, spaceMatrices: this.spaceMatrices, blockBytes: Math.max(16, Math.ceil(bytes / 16) * 16),
      ...(this.attributes.length > 0 ? { attributes: this.attributes } : {}),
      ...(this.matchTables.length > 0 ? { matchTables: this.matchTables } : {}),
      ...(this.textureSlots.length > 0 ? { textures: this.textureSlots } : {}),
    };
  }

  // ---- variables and values ----

  private newVar(name: string, type: RslType | IrType, kind: VarKind, arrayLength?: number): IrVar {
    const v: IrVar = { id: this.nextVar++, name, type: typeof type === 'string' ? type : irType(type), kind, ...(arrayLength !== undefined ? { arrayLength } : {}) };
    this.module.vars.set(v.id, v);
    return v;
  }

  private emit<I extends Inst>(inst: I): I {
    this.block.push(inst);
    return inst;
  }

  private value(inst: Record<string, unknown> & { op: string; type: IrType }): number {
    const id = this.module.nextValue++;
    this.block.push({ ...inst, id } as unknown as Inst);
    return id;
  }

  private constant(type: IrType, value: number[]): number {
    return this.value({ op: 'const', type, value });
  }

  private call(type: IrType, template: string, args: number[], varying = false): number {
    return this.value({ op: 'call', type, template, args, ...(varying ? { varying } : {}) });
  }

  private binary(type: IrType, operator: BinaryOperator, a: number, b: number): number {
    return this.value({ op: 'binary', type, operator, a, b });
  }

  private load(variable: IrVar, index?: number): number {
    return this.value({ op: 'load', type: variable.type, variable: variable.id, ...(index !== undefined ? { index } : {}) });
  }

  private store(variable: IrVar, value: number, index?: number): void {
    this.emit({ op: 'store', variable: variable.id, value, ...(index !== undefined ? { index } : {}) });
  }

  private gridVar(name: string, type: TypeName): IrVar {
    let v = this.gridVars.get(name);
    if (!v) {
      v = this.newVar(name, { name: type }, 'global');
      this.gridVars.set(name, v);
    }
    return v;
  }

  /** Converts a value between RSL types along the implicit conversions the checker allowed. */
  private coerce(value: number, from: RslType | undefined, to: RslType): number {
    if (!from || from.name === to.name || to.name === 'void') return value;
    if (isPointLike(from.name) && isPointLike(to.name)) return value;
    if (from.name === 'bool' && to.name === 'float') return this.value({ op: 'convert', type: 'f32', a: value });
    if (from.name === 'float' && (isTriple(to.name) || to.name === 'matrix')) return this.value({ op: 'convert', type: irType(to), a: value });
    if (from.name === 'float' && to.name === 'bool') return this.value({ op: 'convert', type: 'bool', a: value });
    return value;
  }

  private toBool(e: Expr): number {
    const v = this.expr(e);
    return e.type?.name === 'bool' ? v : this.coerce(v, e.type, { name: 'bool' });
  }

  // ---- instances and parameters ----

  private beginInstance(instance: string, checked: CheckedShader): void {
    this.ctx = { instance, checked, kind: checked.shader.shaderKind, env: new Map() };
    this.instances.set(instance, this.ctx);
    for (const [name, sym] of checked.globals) this.ctx.env.set(sym.id, this.globalVar(name, sym));
    for (const group of checked.shader.params) {
      for (const d of group.declarators) {
        const sym = checked.declarations.get(d);
        if (!sym) continue;
        const variable = this.sharedParams.get(`${instance}\u0001${d.name}`) ?? this.newVar(`${instance}_${d.name}`, sym.type, 'param', d.arrayLength);
        this.ctx.env.set(sym.id, variable);
        this.initParam(instance, checked.shader.name, sym, variable, d.init, d.pos);
      }
    }
  }

  private globalVar(name: string, sym: VarSymbol): IrVar {
    if (this.ctx.kind === 'light' && ['Ps', 'L', 'Cl', 'Ol'].includes(name)) return this.newVar(`light_${name}`, sym.type, 'local');
    if (this.ctx.kind !== 'light' && ['L', 'Cl', 'Ol'].includes(name)) return this.gridVar(`illum_${name}`, sym.type.name);
    // An imager's alpha is each pixel's coverage, on the pixel grid; elsewhere it is a frame constant.
    if (name === 'alpha' && this.ctx.kind === 'imager') return this.gridVar('alpha', sym.type.name);
    if (['E', 'ncomps', 'time', 'dtime', 'dPdtime', 'alpha'].includes(name)) return this.gridVar(`frame_${name}`, sym.type.name);
    return this.gridVar(name, sym.type.name);
  }

  private initParam(instance: string, shader: string, sym: VarSymbol, variable: IrVar, init: Expr | undefined, pos: SourcePos): void {
    const constant = init ? evaluateConstant(init) : undefined;
    if (init && !constant) this.diagnostics.error(init.pos, `the default of parameter '${sym.name}' must be a constant expression`);
    const count = componentCount(sym.type.name) * (sym.type.arrayLength ?? 1);
    let value: number[] | string = sym.type.name === 'string' ? '' : new Array<number>(count).fill(0);
    if (constant) {
      if (typeof constant.value === 'string') value = constant.value;
      else if (constant.value.length === 1 && count > 1) value = sym.type.name === 'matrix' ? [...Array(16).keys()].map((k) => (k % 5 === 0 ? constant.value[0] as number : 0)) : new Array<number>(count).fill(constant.value[0] as number);
      else value = constant.value;
    }
    if (typeof value === 'string') this.strings.token(value);
    const fromPrimitiveVariable = this.options.primitiveVariables.has(sym.name) && sym.type.arrayLength === undefined && sym.type.name !== 'matrix' && sym.type.name !== 'string';
    const offset = this.paramBytes;
    const space = constant?.space;
    this.params.push({
      instance, shader, name: sym.name, type: sym.type.name, ...(sym.type.arrayLength !== undefined ? { arrayLength: sym.type.arrayLength } : {}),
      default: value, offset, ...(space !== undefined && isPointLike(sym.type.name) ? { space } : {}), fromPrimitiveVariable,
    });
    this.paramBytes += count * 4;
    if (space !== undefined && isPointLike(sym.type.name) && spaceIndex(space) === undefined) this.diagnostics.error(pos, `unknown space "${space}"`);
    const word = offset / 4;
    const t = variable.type;
    const elements = sym.type.arrayLength ?? 1;
    const per = componentCount(sym.type.name);
    for (let k = 0; k < elements; k++) {
      let v: number;
      if (fromPrimitiveVariable) v = this.load(this.gridVar(sym.name, sym.type.name));
      else {
        v = this.call(t, `rsl_param_${t}(${word + k * per}u)`, []);
        const s = space !== undefined ? spaceIndex(space) : undefined;
        if (s !== undefined && s !== 0) v = this.call('vec3', `rsl_transform_${sym.type.name}(${this.spaceMatrix(s, false)}, $0)`, [v]);
      }
      this.store(variable, v, elements > 1 || sym.type.arrayLength !== undefined ? this.constant('f32', [k]) : undefined);
    }
  }

  private lowerLight(checked: CheckedShader, index: number): void {
    const saved = this.block;
    const body: Inst[] = [];
    this.block = body;
    this.beginInstance(`light${index}`, checked);
    const category = checked.params.find((p) => p.name === '__category');
    const categoryDecl = category ? checked.shader.params.flatMap((g) => g.declarators).find((d) => d.name === '__category') : undefined;
    const categoryValue = categoryDecl?.init?.kind === 'string' ? categoryDecl.init.value : '';
    const v = (name: string): number => this.ctx.env.get(checked.globals.get(name)!.id)!.id;
    const light: LightFunction = {
      index, name: checked.shader.name, body, ambient: !checked.illuminates,
      categories: categoryValue.split(',').map((c) => c.trim()).filter((c) => c !== ''),
      psVar: v('Ps'), lVar: v('L'), clVar: v('Cl'), olVar: v('Ol'),
    };
    // Cl and L start at zero, Ol at one.
    this.store(this.module.vars.get(light.clVar)!, this.constant('vec3', [0, 0, 0]));
    this.store(this.module.vars.get(light.lVar)!, this.constant('vec3', [0, 0, 0]));
    this.store(this.module.vars.get(light.olVar)!, this.constant('vec3', [1, 1, 1]));
    this.statements(checked.shader.body);
    this.module.lights.push(light);
    this.block = saved;
  }

  // ---- statements ----

  private statements(list: Stmt[]): void {
    for (const s of list) this.statement(s);
  }

  private nested(fn: () => void): Inst[] {
    const saved = this.block;
    const block: Inst[] = [];
    this.block = block;
    try {
      fn();
    } finally {
      this.block = saved;
    }
    return block;
  }

  private statement(s: Stmt): void {
    switch (s.kind) {
      case 'vardecl':
        for (const d of s.declarators) {
          const sym = this.ctx.checked.declarations.get(d);
          if (!sym) continue;
          if (s.type.extern) {
            const outer = this.lookupName(d.name);
            if (outer) this.ctx.env.set(sym.id, outer);
            continue;
          }
          const variable = this.newVar(d.name, sym.type, 'local', d.arrayLength);
          this.ctx.env.set(sym.id, variable);
          if (!d.init) continue;
          if (d.init.kind === 'array') {
            d.init.items.forEach((item, k) => {
              const value = this.coerce(this.expr(item), item.type, { name: sym.type.name });
              this.store(variable, value, this.constant('f32', [k]));
            });
          } else this.store(variable, this.coerce(this.expr(d.init), d.init.type, sym.type));
        }
        return;
      case 'function':
      case 'empty':
        return;
      case 'expr':
        this.expr(s.expr);
        return;
      case 'block':
        this.statements(s.body);
        return;
      case 'if': {
        const cond = this.toBool(s.cond);
        const then = this.nested(() => this.statement(s.then));
        const otherwise = this.nested(() => s.else && this.statement(s.else));
        this.emit({ op: 'if', cond, then, else: otherwise, pos: s.pos });
        return;
      }
      case 'while':
      case 'for': {
        if (s.kind === 'for' && s.init) this.expr(s.init);
        const loop = this.nextLoop++;
        this.loops.push(loop);
        const body = this.nested(() => {
          if (s.cond) {
            const c = this.toBool(s.cond);
            const exit = this.nested(() => this.emit({ op: 'break', loop }));
            this.emit({ op: 'if', cond: c, then: [], else: exit });
          }
          this.statement(s.body);
        });
        const continuing = this.nested(() => s.kind === 'for' && s.step && this.expr(s.step));
        this.loops.pop();
        this.emit({ op: 'loop', loop, body, continuing, pos: s.pos, origin: `${s.kind} loop` });
        return;
      }
      case 'break':
      case 'continue': {
        const loop = this.loops[this.loops.length - s.levels];
        if (loop !== undefined) this.emit({ op: s.kind, loop });
        return;
      }
      case 'return': {
        const target = this.returns[this.returns.length - 1];
        if (!target) return;
        if (s.value && target.result && target.type) this.store(target.result, this.coerce(this.expr(s.value), s.value.type, target.type));
        if (target.loop !== undefined) this.emit({ op: 'break', loop: target.loop });
        return;
      }
      case 'illuminance': {
        const position = this.expr(s.position);
        const axis = s.axis ? this.expr(s.axis) : undefined;
        const angle = s.angle ? this.expr(s.angle) : undefined;
        const category = s.category?.kind === 'string' ? s.category.value : undefined;
        if (s.category && s.category.kind !== 'string') this.diagnostics.error(s.category.pos, 'expected a constant string for the illuminance category');
        const loop = this.nextLoop++;
        this.loops.push(loop);
        this.illuminanceDepth++;
        const body = this.nested(() => this.statement(s.body));
        this.illuminanceDepth--;
        this.loops.pop();
        const g = (name: string): number => this.gridVar(`illum_${name}`, name === 'L' ? 'vector' : 'color').id;
        this.emit({
          op: 'illuminance', loop, pos: s.pos, position, ...(axis !== undefined ? { axis } : {}), ...(angle !== undefined ? { angle } : {}),
          ...(category !== undefined ? { category } : {}), body, lVar: g('L'), clVar: g('Cl'), olVar: g('Ol'),
        });
        return;
      }
      case 'gather': {
        // No rays are traced, so every one of the `samples` rays misses: the else branch runs once per
        // sample (a loop, so break and continue inside it behave), the hit branch never.
        this.warnRayTracing(s.pos);
        if (!s.else || !s.args[4]) return;
        const samples = this.coerce(this.expr(s.args[4]), s.args[4].type, { name: 'float' });
        const counter = this.newVar('gather_sample', 'f32', 'local');
        this.store(counter, this.constant('f32', [0]));
        const loop = this.nextLoop++;
        this.loops.push(loop);
        const body = this.nested(() => {
          const more = this.binary('bool', '<', this.load(counter), samples);
          this.emit({ op: 'if', cond: more, then: [], else: this.nested(() => this.emit({ op: 'break', loop })) });
          this.statement(s.else!);
        });
        const continuing = this.nested(() => this.store(counter, this.binary('f32', '+', this.load(counter), this.constant('f32', [1]))));
        this.loops.pop();
        this.emit({ op: 'loop', loop, body, continuing, pos: s.pos, origin: 'gather' });
        return;
      }
      case 'illuminate':
      case 'solar': {
        const position = s.kind === 'illuminate' ? this.expr(s.position) : undefined;
        const axis = s.axis ? this.expr(s.axis) : undefined;
        const angle = s.angle ? this.expr(s.angle) : undefined;
        const body = this.nested(() => this.statement(s.body));
        this.emit({ op: 'illuminate', ...(position !== undefined ? { position } : {}), ...(axis !== undefined ? { axis } : {}), ...(angle !== undefined ? { angle } : {}), body });
        return;
      }
    }
  }

  /** One warning per shader at its first ray-tracing construct: the values stand in for traced rays. */
  private warnRayTracing(pos: SourcePos): void {
    if (this.rayTracingWarned.has(this.ctx.checked)) return;
    this.rayTracingWarned.add(this.ctx.checked);
    this.diagnostics.warning(pos, 'this renderer does not trace rays: trace(), occlusion(), indirectdiffuse() and environment("raytrace") return 0, transmission() and visibility() 1, and gather runs its else branch for every sample (warned once per shader)');
  }

  private lookupName(name: string): IrVar | undefined {
    for (const [id, v] of this.ctx.env) if (v.name === name && id >= 0) return v;
    return undefined;
  }

  // ---- expressions ----

  private expr(e: Expr): number {
    switch (e.kind) {
      case 'number':
        return this.constant('f32', [e.value]);
      case 'string':
        return this.constant('u32', [this.strings.token(e.value)]);
      case 'name': {
        const sym = this.ctx.checked.names.get(e);
        if (sym?.constant !== undefined) return this.constant('f32', [sym.constant]);
        const lv = this.lvalue(e);
        return lv ? this.load(lv.variable, lv.index) : this.constant(irType(e.type ?? { name: 'float' }), new Array<number>(componentCount(e.type?.name ?? 'float')).fill(0));
      }
      case 'index': {
        const lv = this.lvalue(e);
        if (lv) return this.load(lv.variable, lv.index);
        return this.expr(e.target);
      }
      case 'unary': {
        const a = this.expr(e.operand);
        if (e.op === '!') return this.value({ op: 'unary', type: 'bool', operator: '!', a: e.operand.type?.name === 'bool' ? a : this.coerce(a, e.operand.type, { name: 'bool' }) });
        return this.value({ op: 'unary', type: irType(e.type!), operator: '-', a });
      }
      case 'binary':
        return this.binaryExpr(e);
      case 'ternary': {
        const cond = this.toBool(e.cond);
        const a = this.coerce(this.expr(e.then), e.then.type, e.type!);
        const b = this.coerce(this.expr(e.else), e.else.type, e.type!);
        return this.value({ op: 'select', type: irType(e.type!), cond, a, b });
      }
      case 'assign':
        return this.assign(e);
      case 'cast':
        return this.cast(e);
      case 'tuple': {
        // Components are floats; a relation (bool) among them converts as the checker allowed.
        const items = e.items.map((item) => this.coerce(this.expr(item), item.type, { name: 'float' }));
        if (items.length === 16) return this.call('mat4', `mat4x4f(${items.map((_, k) => `$${k}`).join(', ')})`, items);
        return this.call('vec3', 'vec3f($0, $1, $2)', items);
      }
      case 'array':
        return this.constant('f32', [0]);
      case 'call':
        return this.callExpr(e);
    }
  }

  private lvalue(e: Expr): LValue | undefined {
    if (e.kind === 'name') {
      const sym = this.ctx.checked.names.get(e);
      const variable = sym ? this.ctx.env.get(sym.id) : undefined;
      if (!variable) return undefined;
      return { variable, type: sym!.type };
    }
    if (e.kind === 'index') {
      const base = this.lvalue(e.target);
      if (!base) return undefined;
      const index = this.expr(e.index);
      return { variable: base.variable, index, type: { name: base.type.name } };
    }
    return undefined;
  }

  private arithmeticOperator(op: string, type: RslType): BinaryOperator {
    if (type.name === 'matrix' && op === '*') return 'matmul';
    if (type.name === 'matrix' && op === '/') return 'matdiv';
    return op as BinaryOperator;
  }

  private binaryExpr(e: ExprOf<'binary'>): number {
    const lt = e.left.type!;
    const rt = e.right.type!;
    let a = this.expr(e.left);
    let b = this.expr(e.right);
    switch (e.op) {
      case '&&':
      case '||':
        return this.binary('bool', e.op, lt.name === 'bool' ? a : this.coerce(a, lt, { name: 'bool' }), rt.name === 'bool' ? b : this.coerce(b, rt, { name: 'bool' }));
      case '.':
        return this.binary('f32', 'dot', a, b);
      case '^':
        return this.binary('vec3', 'cross', a, b);
      case '==':
      case '!=':
      case '<':
      case '>':
      case '<=':
      case '>=': {
        const common = lt.name === 'float' && rt.name !== 'float' ? rt : lt;
        return this.binary('bool', e.op, this.coerce(a, lt, common), this.coerce(b, rt, common));
      }
      default: {
        const result = e.type!;
        if (result.name === 'matrix' && (lt.name === 'float' || rt.name === 'float')) {
          // matrix * float scales every element, as does matrix / float; float / matrix is the float
          // times the inverse.
          if (e.op === '/' && lt.name === 'float') return this.binary('mat4', '*', this.call('mat4', 'rsl_inverse($0)', [b]), a);
          if (e.op === '/') return this.binary('mat4', '*', a, this.binary('f32', '/', this.constant('f32', [1]), b));
          return lt.name === 'float' ? this.binary('mat4', '*', b, a) : this.binary('mat4', '*', a, b);
        }
        a = this.coerce(a, lt, result);
        b = this.coerce(b, rt, result);
        return this.binary(irType(result), this.arithmeticOperator(e.op, result), a, b);
      }
    }
  }

  private assign(e: ExprOf<'assign'>): number {
    const lv = this.lvalue(e.target);
    let value = this.expr(e.value);
    if (!lv) return value;
    if (e.op === '=') value = this.coerce(value, e.value.type, lv.type);
    else {
      const current = this.load(lv.variable, lv.index);
      const op = e.op[0]!;
      if (lv.type.name === 'matrix' && e.value.type?.name === 'float') value = this.binary('mat4', '*', current, value);
      else value = this.binary(irType(lv.type), this.arithmeticOperator(op, lv.type), current, this.coerce(value, e.value.type, lv.type));
    }
    this.store(lv.variable, value, lv.index);
    return value;
  }

  private cast(e: ExprOf<'cast'>): number {
    const to: RslType = { name: e.to };
    const v = this.coerce(this.expr(e.operand), e.operand.type, to);
    if (e.space === undefined) return v;
    if (e.to === 'color') {
      if (e.space === 'rgb') return v;
      if (e.space === 'hsv' || e.space === 'hsl' || e.space === 'xyz' || e.space === 'XYZ' || e.space === 'YIQ' || e.space === 'xyY') return this.call('vec3', `rsl_${e.space.toLowerCase()}_to_rgb($0)`, [v]);
      return v;
    }
    if (isPointLike(e.to)) return this.spaceTransform(e.to, { name: e.space }, { name: 'camera' }, v, e.pos);
    if (e.to === 'matrix') {
      // matrix "space" m: m given in that space, i.e. m followed by the space-to-current transform.
      const m = this.namedSpaceMatrix(e.space, false, e.pos);
      return m === undefined ? v : this.binary('mat4', 'matmul', v, this.call('mat4', m, []));
    }
    this.diagnostics.error(e.pos, `a space name on a ${e.to} cast is not supported yet`);
    return v;
  }

  /** Transforms a point, vector or normal from one space to another (through current space). */
  private spaceTransform(kind: TypeName, from: SpaceOperand, to: SpaceOperand, v: number, pos: SourcePos): number {
    if ('name' in from && 'name' in to && spaceKey(from.name) === spaceKey(to.name)) return v;
    let r = v;
    for (const [space, inverse] of [[from, false], [to, true]] as const) {
      if ('token' in space) r = this.call('vec3', `rsl_transform_${kind}($0, $1)`, [this.spaceMatrixAtRunTime(space.token, inverse), r]);
      else {
        const m = this.namedSpaceMatrix(space.name, inverse, pos);
        if (m !== undefined) r = this.call('vec3', `rsl_transform_${kind}(${m}, $0)`, [r]);
      }
    }
    return r;
  }

  /**
   * The WGSL expression of a space known by name → current (current → space when `inverse`);
   * undefined for current space itself, and for an unknown name (the identity, with a warning).
   */
  private namedSpaceMatrix(name: string, inverse: boolean, pos: SourcePos): string | undefined {
    const k = spaceIndex(name);
    if (k !== undefined) return k === 0 ? undefined : this.spaceMatrix(k, inverse);
    this.usesCoordinateSystems = true;
    if (this.options.coordinateSystems?.includes(name)) return this.coordinateSystemMatrix(name, inverse);
    this.diagnostics.warning(pos, `unknown space "${name}": not a standard space (current, camera, world, object, shader, screen, raster, NDC)${this.options.coordinateSystems ? ' nor a CoordinateSystem of the scene' : ''}; the identity is used`);
    return undefined;
  }

  /**
   * A space named by a string known only at run time (a parameter, say): the kernel compares its
   * token with every space it knows, the standard ones and the scene's coordinate systems; any other
   * name is the identity.
   */
  private spaceMatrixAtRunTime(token: number, inverse: boolean): number {
    this.usesCoordinateSystems = true;
    for (const name of ['current', 'camera']) this.strings.token(name);
    const names = [...SPACES.filter((name) => name !== 'camera'), ...(this.options.coordinateSystems ?? []).filter((name) => spaceIndex(name) === undefined)];
    // Scalar selects pick the FrameUniforms slot (0, camera space, is the identity: also for names
    // nobody knows) or the parameter-block word of the matrix; one matrix read follows.
    const u32 = (x: number): number => this.constant('u32', [x]);
    let frameSlot = u32(0);
    let word = u32(0);
    let inBlock = u32(0);
    for (const name of names) {
      const k = spaceIndex(name);
      const is = this.binary('bool', '==', token, u32(this.strings.token(name)));
      const blockWord = k === undefined ? this.coordinateSystemWord(name, inverse) : this.blockSpaceWord(k, inverse);
      if (blockWord === undefined) frameSlot = this.value({ op: 'select', type: 'u32', cond: is, a: u32(k!), b: frameSlot });
      else {
        word = this.value({ op: 'select', type: 'u32', cond: is, a: u32(blockWord), b: word });
        inBlock = this.value({ op: 'select', type: 'u32', cond: is, a: u32(1), b: inBlock });
      }
    }
    const m = this.newVar('space_matrix', 'mat4', 'local');
    const fromBlock = this.nested(() => this.store(m, this.call('mat4', 'rsl_param_mat4($0)', [word])));
    const fromFrame = this.nested(() => this.store(m, this.call('mat4', `frame.${inverse ? 'fromCurrent' : 'toCurrent'}[$0]`, [frameSlot])));
    this.emit({ op: 'if', cond: this.binary('bool', '!=', inBlock, u32(0)), then: fromBlock, else: fromFrame });
    return this.load(m);
  }

  /**
   * environment(name, ...) with a name known only at run time (mirror shaders pass "raytrace"
   * through a parameter): the traced environment when the name is "raytrace", else the map lookup.
   * The compile warns as for the parameter's default; the renderer warns for a RIB value "raytrace".
   */
  private environmentAtRunTime(e: ExprOf<'call'>, zero: () => number): number {
    const nameArg = e.args[0]!.kind === 'index' ? e.args[0]!.target : e.args[0]!;
    const entry = this.shaderParamEntry(nameArg);
    if (entry) entry.namesEnvironment = true;
    if (entry?.default === 'raytrace') this.warnRayTracing(e.pos);
    const isRaytrace = this.binary('bool', '==', this.expr(nameArg), this.constant('u32', [this.strings.token('raytrace')]));
    const traced = zero();
    const looked = this.texture(e, irType(e.type ?? { name: 'float' }));
    return this.value({ op: 'select', type: irType(e.type ?? { name: 'float' }), cond: isRaytrace, a: traced, b: looked });
  }

  /** The parameter-block entry of a shader parameter named by `e` (a plain name), if it is one. */
  private shaderParamEntry(e: Expr): ParamEntry | undefined {
    const sym = e.kind === 'name' ? this.ctx.checked.names.get(e) : undefined;
    if (sym?.scope !== 'shader-param') return undefined;
    return this.params.find((p) => p.instance === this.ctx.instance && p.name === sym.name);
  }

  /** A shader parameter used as a space name: the renderer checks the names it is given. */
  private markSpaceParameter(e: Expr): void {
    const entry = this.shaderParamEntry(e);
    if (entry) entry.namesSpace = true;
  }

  /** A scene coordinate system's matrix in the parameter block (allocated on first use). */
  private coordinateSystemMatrix(name: string, inverse: boolean): string {
    return `rsl_param_mat4(${this.coordinateSystemWord(name, inverse)}u)`;
  }

  /** The parameter-block word of a scene coordinate system's matrix (or its inverse). */
  private coordinateSystemWord(name: string, inverse: boolean): number {
    let entry = this.spaceMatrices.find((m) => m.space === 'named' && m.name === name);
    if (!entry) {
      entry = { instance: 'coordsys', name, space: 'named', offset: this.paramBytes };
      this.spaceMatrices.push(entry);
      this.paramBytes += 32 * 4;
    }
    return entry.offset / 4 + (inverse ? 16 : 0);
  }

  /**
   * The WGSL expression of space k → current (or current → space k when `inverse`): FrameUniforms for
   * the frame-wide spaces; the parameter block for "shader" (the current instance's) and "object"
   * (the primitive's), whose matrices are allocated on first use.
   */
  private spaceMatrix(k: number, inverse: boolean): string {
    const word = this.blockSpaceWord(k, inverse);
    return word === undefined ? `frame.${inverse ? 'fromCurrent' : 'toCurrent'}[${k}]` : `rsl_param_mat4(${word}u)`;
  }

  /** The parameter-block word of the "shader" or "object" matrix (or its inverse); undefined for the frame-wide spaces. */
  private blockSpaceWord(k: number, inverse: boolean): number | undefined {
    const space = k === spaceIndex('shader') ? 'shader' : k === spaceIndex('object') ? 'object' : undefined;
    if (space === undefined) return undefined;
    const instance = space === 'shader' ? this.ctx.instance : 'object';
    let entry = this.spaceMatrices.find((m) => m.instance === instance && m.space === space);
    if (!entry) {
      entry = { instance, name: space === 'shader' ? '__shaderToCurrent' : '__objectToCurrent', space, offset: this.paramBytes };
      this.spaceMatrices.push(entry);
      this.paramBytes += 32 * 4;
    }
    return entry.offset / 4 + (inverse ? 16 : 0);
  }

  private constantString(e: Expr | undefined): string | undefined {
    if (!e) return undefined;
    if (e.kind === 'string') return e.value;
    if (e.kind === 'index' && e.target.kind === 'string') return e.target.value;
    return undefined;
  }

  private callExpr(e: ExprOf<'call'>): number {
    const target = this.ctx.checked.calls.get(e);
    const resultType = e.type ?? { name: 'float' as const };
    const rt = irType(resultType);
    if (!target) return this.constant(rt, new Array<number>(componentCount(resultType.name)).fill(0));
    if (target.kind === 'user') return this.inline(e, target.fn);
    const sig = target.signature;
    const argAt = (k: number): number => {
      const param = sig.params[Math.min(k, sig.params.length - 1)];
      const arg = e.args[k]!;
      return param ? this.coerce(this.expr(arg), arg.type, param.type) : this.expr(arg);
    };
    const zero = (): number => this.constant(rt, new Array<number>(componentCount(resultType.name)).fill(0));
    switch (sig.impl) {
      case '@minmax': {
        let acc = argAt(0);
        for (let k = 1; k < e.args.length; k++) acc = this.call(rt, `${e.name}($0, $1)`, [acc, argAt(k)]);
        return acc;
      }
      case '@spline':
        return this.spline(e, rt);
      case '@arraylength':
        return this.constant('f32', [e.args[0]!.type?.arrayLength ?? 0]);
      case '@filterstep':
        return this.filterstep(e, sig.params.length);
      case '@Du':
      case '@Dv':
        return this.value({ op: 'deriv', type: rt, axis: sig.impl === '@Du' ? 'u' : 'v', a: argAt(0), pos: e.pos });
      case '@Deriv': {
        const num = argAt(0);
        const den = argAt(1);
        // A direction in which den does not change contributes nothing. The test is on the divisor:
        // WGSL may assume floats are finite, so a NaN/infinity check after dividing is unreliable.
        const term = (axis: 'u' | 'v'): number =>
          this.call(rt, `rsl_div_or_zero_${rt}($0, $1)`, [this.value({ op: 'deriv', type: rt, axis, a: num, pos: e.pos }), this.value({ op: 'deriv', type: 'f32', axis, a: den, pos: e.pos })]);
        return this.binary(rt, '+', term('u'), term('v'));
      }
      case '@area': {
        const p = argAt(0);
        const du = this.load(this.gridVar('du', 'float'));
        const dv = this.load(this.gridVar('dv', 'float'));
        const a = this.binary('vec3', '*', this.value({ op: 'deriv', type: 'vec3', axis: 'u', a: p, pos: e.pos }), this.coerce(du, { name: 'float' }, { name: 'vector' }));
        const b = this.binary('vec3', '*', this.value({ op: 'deriv', type: 'vec3', axis: 'v', a: p, pos: e.pos }), this.coerce(dv, { name: 'float' }, { name: 'vector' }));
        return this.call('f32', 'length($0)', [this.binary('vec3', 'cross', a, b)]);
      }
      case '@calculatenormal': {
        const p = argAt(0);
        return this.binary('vec3', 'cross', this.value({ op: 'deriv', type: 'vec3', axis: 'u', a: p, pos: e.pos }), this.value({ op: 'deriv', type: 'vec3', axis: 'v', a: p, pos: e.pos }));
      }
      case '@faceforward':
        return this.call('vec3', 'rsl_faceforward($0, $1, $2)', [argAt(0), argAt(1), this.load(this.gridVar('Ng', 'normal'))]);
      case '@random':
        // The uniform form draws from the grid's stream, the same in every invocation. Both are
        // stateful calls, marked varying so no pass moves or shares them.
        return this.call(rt, this.ctx.checked.uniformCalls.has(e) || this.uniformRandom > 0 ? `rsl_random_uniform_${rt}()` : `rsl_random_${rt}()`, [], true);
      case '@setcomp0':
      case '@setcomp1':
      case '@setcomp2':
      case '@setcomp': {
        const lv = this.lvalue(e.args[0]!);
        if (!lv) return zero();
        const current = this.load(lv.variable, lv.index);
        const rest = e.args.slice(1).map((a) => this.coerce(this.expr(a), a.type, { name: 'float' }));
        const template = sig.impl === '@setcomp' ? (lv.type.name === 'matrix' ? 'rsl_setcomp_mat4($0, $1, $2, $3)' : 'rsl_setcomp_vec3($0, $1, $2)') : `rsl_setcomp_vec3($0, ${sig.impl.slice(-1)}.0, $1)`;
        this.store(lv.variable, this.call(lv.variable.type, template, [current, ...rest]), lv.index);
        return zero();
      }
      case '@fresnel': {
        const [i, n, eta] = [argAt(0), argAt(1), argAt(2)];
        const kr = this.call('f32', 'rsl_fresnel_kr($0, $1, $2)', [i, n, eta]);
        const outs: [number, number][] = [[3, kr], [4, this.binary('f32', '-', this.constant('f32', [1]), kr)]];
        if (e.args.length === 7) {
          outs.push([5, this.call('vec3', 'reflect($0, $1)', [i, n])], [6, this.call('vec3', 'refract($0, $1, $2)', [i, n, eta])]);
        }
        for (const [k, v] of outs) {
          const lv = this.lvalue(e.args[k]!);
          if (lv) this.store(lv.variable, v, lv.index);
        }
        return zero();
      }
      case '@transform': {
        const kind: TypeName = e.name === 'transform' ? 'point' : e.name === 'vtransform' ? 'vector' : 'normal';
        // Space names known at compile time resolve then; other strings are looked up at run time.
        const spaces: SpaceOperand[] = e.args.slice(0, -1).filter((a) => a.type?.name === 'string').map((a) => {
          const name = this.constantString(a);
          if (name === undefined) this.markSpaceParameter(a);
          return name !== undefined ? { name } : { token: this.expr(a) };
        });
        const last = argAt(e.args.length - 1);
        const hasMatrix = e.args.some((a) => a.type?.name === 'matrix');
        if (hasMatrix) {
          const m = argAt(e.args.length - 2);
          const pre = spaces[0] ? this.spaceTransform(kind, spaces[0], { name: 'camera' }, last, e.pos) : last;
          return this.call('vec3', `rsl_transform_${kind}($0, $1)`, [m, pre]);
        }
        return spaces.length === 1 ? this.spaceTransform(kind, { name: 'camera' }, spaces[0]!, last, e.pos) : this.spaceTransform(kind, spaces[0]!, spaces[1]!, last, e.pos);
      }
      case '@ctransform': {
        const strs = e.args.slice(0, -1).map((a) => this.constantString(a));
        const c = argAt(e.args.length - 1);
        if (strs.some((s) => s === undefined)) {
          this.diagnostics.error(e.pos, 'ctransform() needs constant colour space names');
          return c;
        }
        const from = strs.length === 2 ? strs[0]! : 'rgb';
        const to = strs[strs.length - 1]!;
        const rgb = from === 'rgb' ? c : this.call('vec3', `rsl_${from.toLowerCase()}_to_rgb($0)`, [c]);
        return to === 'rgb' ? rgb : this.call('vec3', `rsl_rgb_to_${to.toLowerCase()}($0)`, [rgb]);
      }
      case '@format': {
        const values = e.args.map((a) => (a.type?.name === 'string' ? this.constantString(a) : evaluateConstant(a)?.value));
        if (values.some((v) => v === undefined) || typeof values[0] !== 'string') {
          this.diagnostics.error(e.pos, 'format() needs arguments known at compile time on the GPU (strings are tokens there)');
          return zero();
        }
        return this.constant('u32', [this.strings.token(formatConstant(values[0], values.slice(1) as (number[] | string)[]))]);
      }
      case '@concat':
      case '@match': {
        const strs = e.args.map((a) => this.constantString(a));
        if (e.name === 'match' && strs[0] !== undefined && strs[1] === undefined) return this.validPattern(strs[0], e.pos) ? this.matchAtRunTime(strs[0], e.args[1]!) : zero();
        if (strs.some((s) => s === undefined)) {
          // Strings are tokens in the kernel: it cannot build new ones, nor match a pattern it does not know.
          this.diagnostics.error(e.pos, e.name === 'concat'
            ? 'concat() of strings not known at compile time is not supported on the GPU (strings are tokens there: it cannot make new ones)'
            : 'match() with a pattern not known at compile time is not supported on the GPU (strings are tokens there: give the pattern as a constant string; the subject may vary)');
          return zero();
        }
        if (e.name === 'concat') return this.constant('u32', [this.strings.token(strs.join(''))]);
        let matched = false;
        try {
          matched = new RegExp(strs[0]!).test(strs[1]!);
        } catch {
          this.diagnostics.error(e.pos, `bad regular expression "${strs[0]!}"`);
        }
        return this.constant('f32', [matched ? 1 : 0]);
      }
      case '@printf':
        this.diagnostics.warning(e.pos, 'printf() does nothing on the GPU');
        this.emit({ op: 'nop' });
        return zero();
      case '@shadername':
        return this.constant('u32', [this.strings.token(this.ctx.checked.shader.name)]);
      case '@ambient':
        return this.value({ op: 'ambient', type: 'vec3' });
      case '@diffuse':
      case '@specular':
      case '@phong': {
        const fn = [...this.ctx.checked.functions.values()].find((f) => f.def.name === `__rsl_${e.name}`);
        if (!fn) {
          this.diagnostics.error(e.pos, `${e.name}() is only available in surface and volume shaders`);
          return zero();
        }
        return this.inline(e, fn);
      }
      case '@texture':
      case '@shadow':
        if (e.name === 'environment' && this.constantString(e.args[0]) === 'raytrace') {
          this.warnRayTracing(e.pos);
          return zero();
        }
        if (e.name === 'environment' && this.constantString(e.args[0]) === undefined) return this.environmentAtRunTime(e, zero);
        // Maps in the frame's texture atlas (src/texture/).
        return e.name === 'shadow' ? this.shadow(e, rt) : this.texture(e, rt);
      case '@info':
        return this.info(e);
      case '@message':
        return this.message(e);
      case '@raytrace':
        this.warnRayTracing(e.pos);
        // Without ray tracing nothing blocks a ray: transmission and visibility are 1, the rest 0.
        return e.name === 'transmission' || e.name === 'visibility' ? this.constant(rt, new Array<number>(componentCount(resultType.name)).fill(1)) : zero();
      case '@rayinfo': {
        // Every point is shaded for a camera ray: its depth is 0; nothing else is known.
        const query = this.constantString(e.args[0]);
        if (query === undefined) this.diagnostics.warning(e.pos, 'rayinfo() needs a constant query name; it returns 0');
        const lv = query === 'depth' ? this.lvalue(e.args[1]!) : undefined;
        if (!lv || lv.type.name !== 'float') return this.constant('f32', [0]);
        this.store(lv.variable, this.constant('f32', [0]), lv.index);
        return this.constant('f32', [1]);
      }
      default: {
        const args = e.args.map((_, k) => argAt(k));
        return this.call(rt, sig.impl.replaceAll('$T', wgslTypeName(rt)).replaceAll('$R', rt), args);
      }
    }
  }

  /** Copies `source` (a variable, or values by element) into an output argument of matching shape. */
  private copyInto(lv: LValue, read: (k: number | undefined) => number, elements: number | undefined): void {
    if (elements === undefined) {
      this.store(lv.variable, read(undefined), lv.index);
      return;
    }
    for (let k = 0; k < elements; k++) this.store(lv.variable, read(k), this.constant('f32', [k]));
  }

  /** The output argument's shape agrees with a value of `type` (and `arrayLength`). */
  private sameShape(lv: LValue, type: TypeName, arrayLength: number | undefined): boolean {
    return lv.type.name === type && (lv.index !== undefined ? undefined : lv.type.arrayLength) === arrayLength;
  }

  /**
   * Message passing (RI 3.2 section 15.8). surface(), displacement() and atmosphere() read the named
   * parameter of that shader of the pipeline as it is when the call runs (parameters are bound before
   * any shader runs; output parameters carry what their shader assigned so far). lightsource() reads
   * the current light's parameter inside an illuminance loop. Each returns 1 and sets the variable
   * when the parameter exists with the variable's type, else 0 and leaves it alone.
   */
  private message(e: ExprOf<'call'>): number {
    const name = this.constantString(e.args[0]);
    const lv = e.args[1] ? this.lvalue(e.args[1]) : undefined;
    const no = (): number => this.constant('f32', [0]);
    if (e.name === 'incident' || e.name === 'opposite') {
      // Interior and exterior volume shaders act on traced rays; without ray tracing there are none.
      this.diagnostics.warning(e.pos, `${e.name}(): interior and exterior volume shaders need ray tracing, which this renderer does not do; it returns 0`);
      return no();
    }
    if (name === undefined) {
      this.diagnostics.warning(e.pos, `${e.name}() needs a constant parameter name; it returns 0`);
      return no();
    }
    if (!lv) return no();
    if (e.name === 'lightsource') return this.lightsource(e, name, lv);
    if (e.name === this.ctx.instance) return no();
    const checked = e.name === 'surface' ? this.pipeline.surface : e.name === 'displacement' ? this.pipeline.displacement : this.pipeline.atmosphere;
    const sym = checked?.params.find((p) => p.name === name);
    if (!sym || !this.sameShape(lv, sym.type.name, sym.type.arrayLength)) return no();
    let source: IrVar | undefined;
    if (this.ctx.kind === 'light') {
      // Lights are lowered first and are WGSL functions of their own: the parameter they read lives
      // at module scope, and the instance binds it when its turn comes.
      const key = `${e.name}\u0001${name}`;
      source = this.sharedParams.get(key);
      if (!source) this.sharedParams.set(key, (source = this.newVar(`msg_${e.name}_${name}`, sym.type, 'global', sym.type.arrayLength)));
    } else {
      const other = this.instances.get(e.name);
      source = other?.env.get(sym.id);
    }
    if (!source) return no();
    this.copyInto(lv, (k) => this.load(source, k === undefined ? undefined : this.constant('f32', [k])), sym.type.arrayLength);
    return this.constant('f32', [1]);
  }

  private lightsource(e: ExprOf<'call'>, name: string, lv: LValue): number {
    if (this.ctx.kind === 'light' || this.illuminanceDepth === 0) {
      this.diagnostics.warning(e.pos, 'lightsource() outside an illuminance loop returns 0');
      return this.constant('f32', [0]);
    }
    const sources = this.module.lights.map((light) => {
      const inst = this.instances.get(`light${light.index}`);
      const sym = inst?.checked.params.find((p) => p.name === name);
      return sym && sym.type.arrayLength === undefined && this.sameShape(lv, sym.type.name, undefined) ? inst!.env.get(sym.id)?.id : undefined;
    });
    // No light of the pipeline has it: known now.
    if (sources.every((x) => x === undefined)) return this.constant('f32', [0]);
    const type = irType(lv.type.name);
    let message = this.module.messages.find((m) => m.name === name && m.type === type);
    if (!message) {
      const valueVar = this.newVar(`lmsg_${name}`, type, 'global');
      const hasVar = this.newVar(`lmsg_has_${name}`, 'f32', 'global');
      message = { name, type, valueVar: valueVar.id, hasVar: hasVar.id, sources };
      this.module.messages.push(message);
    }
    const has = this.load(this.module.vars.get(message.hasVar)!);
    const valueVar = this.module.vars.get(message.valueVar)!;
    const then = this.nested(() => this.store(lv.variable, this.load(valueVar), lv.index));
    this.emit({ op: 'if', cond: this.binary('bool', '!=', has, this.constant('f32', [0])), then, else: [] });
    return has;
  }

  /**
   * The information functions. rendererinfo() and option() are compile-time constants (option values
   * come with the pipeline description); attribute() reads the primitive's value from the parameter
   * block. A value is returned (1) only when it has the output variable's shape, else 0.
   */
  private info(e: ExprOf<'call'>): number {
    const no = (): number => this.constant('f32', [0]);
    if (e.name === 'textureinfo') return this.textureInfo(e);
    const name = this.constantString(e.args[0]);
    const lv = e.args[1] ? this.lvalue(e.args[1]) : undefined;
    if (name === undefined) {
      this.diagnostics.warning(e.pos, `${e.name}() needs a constant name; it returns 0`);
      return no();
    }
    if (!lv) return no();
    const arrayLength = lv.index !== undefined ? undefined : lv.type.arrayLength;
    if (e.name === 'attribute') return this.attribute(name, lv, arrayLength);
    if (e.name === 'option') this.optionQueries.add(name);
    const value = e.name === 'option' ? this.options.options?.[name] : RENDERER_INFO[name];
    if (value === undefined) return no();
    if (typeof value === 'string') {
      if (lv.type.name !== 'string' || arrayLength !== undefined) return no();
      this.store(lv.variable, this.constant('u32', [this.strings.token(value)]), lv.index);
      return this.constant('f32', [1]);
    }
    const per = componentCount(lv.type.name);
    if (lv.type.name === 'string' || per * (arrayLength ?? 1) !== value.length) return no();
    this.copyInto(lv, (k) => this.constant(irType(lv.type.name), value.slice((k ?? 0) * per, (k ?? 0) * per + per)), arrayLength);
    return this.constant('f32', [1]);
  }

  private validPattern(pattern: string, pos: SourcePos): boolean {
    try {
      new RegExp(pattern);
      return true;
    } catch {
      this.diagnostics.error(pos, `bad regular expression "${pattern}"`);
      return false;
    }
  }

  /** match(pattern, subject) for a subject known at run time: a lookup of its token in the pattern's table. */
  private matchAtRunTime(pattern: string, subject: Expr): number {
    let table = this.matchTables.find((t) => t.pattern === pattern);
    if (!table) {
      table = { pattern, offset: this.paramBytes, tableOffset: 0, tableLength: 0 };
      this.matchTables.push(table);
      this.paramBytes += 12;
    }
    const header = table.offset / 4;
    const u32 = (x: number): number => this.constant('u32', [x]);
    const token = this.expr(subject);
    const base = this.call('u32', `rsl_param_u32(${header}u)`, []);
    const length = this.call('u32', `rsl_param_u32(${header + 1}u)`, []);
    const word = this.value({ op: 'select', type: 'u32', cond: this.binary('bool', '<', token, length), a: this.binary('u32', '+', base, token), b: u32(header + 2) });
    return this.call('f32', 'rsl_param_f32($0)', [word]);
  }

  /** A textureinfo() data name the spec does not list, or an output of another shape, never answers. */
  /**
   * textureinfo(name, dataname, output) (RI 3.2 section 15.7): 1 with the output set when the map
   * exists and the output has the data's shape, else 0. "resolution" is level 0's; "type" is
   * "texture", "shadow" or "environment"; a shadow map's "viewingmatrix" and "projectionmatrix" take
   * current space to its camera and to its screen ([-1, 1], y up).
   */
  private textureInfo(e: ExprOf<'call'>): number {
    const no = (): number => this.constant('f32', [0]);
    this.checkTextureInfoQuery(e);
    const data = this.constantString(e.args[1]);
    const wanted = data === undefined ? undefined : TEXTURE_INFO[data];
    const output = e.args[2]?.type;
    if (data === undefined) this.diagnostics.warning(e.args[1]!.pos, 'textureinfo(): the data name must be a constant string; it returns 0');
    if (!wanted || !output || output.name !== wanted.name || output.arrayLength !== wanted.arrayLength) return no();
    const nameArg = e.args[0]!.kind === 'index' ? e.args[0]!.target : e.args[0]!;
    const word = this.textureSlotWord(nameArg);
    if (word === undefined) {
      this.diagnostics.warning(e.pos, 'textureinfo(): the map name must be a constant or a shader parameter; it returns 0');
      return no();
    }
    const slot = this.call('f32', `rsl_param_f32(${word}u)`, []);
    const has = this.call('f32', 'rsl_texinfo_has($0)', [slot]);
    const lv = this.lvalue(e.args[2]!);
    if (!lv) return no();
    const header = (k: number): number => this.call('f32', `rsl_texinfo_word($0, ${k}u, 0u)`, [slot]);
    const token = (text: string): number => this.strings.token(text);
    const then = this.nested(() => {
      if (data === 'resolution') this.copyInto(lv, (k) => this.call('f32', `rsl_texinfo_word($0, ${TEXTURE_INFO_WORD.resolution}u, ${k ?? 0}u)`, [slot]), 2);
      else if (data === 'channels') this.copyInto(lv, () => header(TEXTURE_INFO_WORD.channels), undefined);
      else if (data === 'type') {
        this.copyInto(lv, () => this.call('u32', `select(select(${token('texture')}u, ${token('environment')}u, $0 >= 2.0), ${token('shadow')}u, $0 == 1.0)`, [header(TEXTURE_INFO_WORD.kind)]), undefined);
      } else {
        const at = data === 'viewingmatrix' ? TEXTURE_INFO_WORD.viewingMatrix : TEXTURE_INFO_WORD.projectionMatrix;
        this.copyInto(lv, () => this.call('mat4', `rsl_texinfo_matrix($0, ${at}u)`, [slot]), undefined);
      }
    });
    this.emit({ op: 'if', cond: this.binary('bool', '!=', has, this.constant('f32', [0])), then, else: [] });
    return has;
  }

  private checkTextureInfoQuery(e: ExprOf<'call'>): void {
    const name = this.constantString(e.args[1]);
    const output = e.args[2]?.type;
    if (name === undefined || !output) return;
    const wanted = TEXTURE_INFO[name];
    if (!wanted) {
      this.diagnostics.warning(e.args[1]!.pos, `textureinfo(): unknown data name "${name}"; the spec's are ${Object.entries(TEXTURE_INFO).map(([n, t]) => `"${n}" (${typeToString(t)})`).join(', ')}`);
    } else if (output.name !== wanted.name || output.arrayLength !== wanted.arrayLength) {
      this.diagnostics.warning(e.args[2]!.pos, `textureinfo(): "${name}" is a ${typeToString(wanted)}, the output variable is a ${typeToString(output)}; it is never set`);
    }
  }

  private attribute(name: string, lv: LValue, arrayLength: number | undefined): number {
    const type = lv.type.name;
    let entry = this.attributes.find((a) => a.name === name && a.type === type && a.arrayLength === arrayLength);
    if (!entry) {
      entry = { name, type, ...(arrayLength !== undefined ? { arrayLength } : {}), offset: this.paramBytes };
      this.attributes.push(entry);
      this.paramBytes += 4 * (1 + componentCount(type) * (arrayLength ?? 1));
    }
    const word = entry.offset / 4;
    const t = irType(type);
    const per = componentCount(type);
    const has = this.call('f32', `rsl_param_f32(${word}u)`, []);
    const then = this.nested(() => this.copyInto(lv, (k) => this.call(t, `rsl_param_${t}(${word + 1 + (k ?? 0) * per}u)`, []), arrayLength));
    this.emit({ op: 'if', cond: this.binary('bool', '!=', has, this.constant('f32', [0])), then, else: [] });
    return has;
  }

  /**
   * filterstep (RI 3.2 section 15.1): step(edge, x) box-filtered over an interval of x. With one value
   * the interval is centred on s1 and as wide as s1 changes across the micropolygon, |Du(s1) du| +
   * |Dv(s1) dv| (as Aqsis); with two it is [s1, s2]. The parameter list's "width" scales the interval.
   */
  private filterstep(e: ExprOf<'call'>, values: number): number {
    const float = (arg: Expr): number => this.coerce(this.expr(arg), arg.type, { name: 'float' });
    const edge = float(e.args[0]!);
    const s1 = float(e.args[1]!);
    let scale = this.constant('f32', [1]);
    for (let k = values; k < e.args.length; k += 2) {
      const nameArg = e.args[k]!;
      const valueArg = e.args[k + 1];
      const name = this.constantString(nameArg);
      if (!valueArg) this.diagnostics.warning(nameArg.pos, `filterstep: parameter "${name ?? '?'}" has no value and is ignored`);
      else if ((name === 'width' || name === 'swidth') && valueArg.type?.name === 'float') scale = float(valueArg);
      else if (name === 'filter' && this.constantString(valueArg) === 'box') continue;
      else if (name === 'filter') this.diagnostics.warning(valueArg.pos, `filterstep: filter "${this.constantString(valueArg) ?? '?'}" is not supported; the box filter is used`);
      else this.diagnostics.warning(nameArg.pos, `filterstep: parameter "${name ?? '?'}" is not known (width, swidth and filter are) and is ignored`);
    }
    if (values === 3) return this.call('f32', 'rsl_filterstep($0, $1, $2, $3)', [edge, s1, float(e.args[2]!), scale]);
    const change = (axis: 'u' | 'v'): number =>
      this.call('f32', 'abs($0 * $1)', [this.value({ op: 'deriv', type: 'f32', axis, a: s1, pos: e.pos }), this.load(this.gridVar(axis === 'u' ? 'du' : 'dv', 'float'))]);
    const half = this.call('f32', '0.5 * ($0 + $1)', [change('u'), change('v')]);
    return this.call('f32', 'rsl_filterstep($0, $1 - $2, $1 + $2, $3)', [edge, s1, half, scale]);
  }

  /**
   * The parameter-block word that holds the atlas slot of the map `nameArg` names: a constant name
   * or a shader parameter (the renderer resolves its value per primitive); undefined for others.
   */
  private textureSlotWord(nameArg: Expr): number | undefined {
    const constant = this.constantString(nameArg);
    const entry = constant === undefined ? this.shaderParamEntry(nameArg) : undefined;
    if (constant === undefined && !entry) return undefined;
    const same = (t: TextureSlotEntry): boolean => (constant !== undefined ? t.name === constant : t.instance === entry!.instance && t.param === entry!.name);
    let slot = this.textureSlots.find(same);
    if (!slot) {
      slot = { ...(constant !== undefined ? { name: constant } : { instance: entry!.instance, param: entry!.name }), offset: this.paramBytes };
      this.textureSlots.push(slot);
      this.paramBytes += 4;
    }
    return slot.offset / 4;
  }

  /**
   * texture(name[channel], ...) (RI 3.2 section 15.7): s and t from the call (two values, or the four
   * corners of a quadrilateral) or the grid's; the footprint's axes are the change of s and t across
   * the micropolygon (Du and Dv times du and dv) or the quadrilateral's sides; the optional
   * parameters "blur", "sblur", "tblur", "width", "swidth", "twidth", "filter" (box, gaussian),
   * "fill" and "samples" (most probes along the footprint's major axis). src/texture/texture-wgsl.ts
   * does the filtering.
   */
  private texture(e: ExprOf<'call'>, rt: IrType): number {
    const lookup = e.name === 'environment' ? 'environment' : 'texture';
    const f = (x: number): number => this.constant('f32', [x]);
    const float = (arg: Expr): number => this.coerce(this.expr(arg), arg.type, { name: 'float' });
    const nameArg = e.args[0]!.kind === 'index' ? e.args[0]!.target : e.args[0]!;
    const channel = e.args[0]!.kind === 'index' ? float(e.args[0]!.index) : f(0);
    let positional = 1;
    while (positional < e.args.length && e.args[positional]!.type?.name !== 'string') positional++;
    const coords = e.args.slice(1, positional).map((a) => (lookup === 'environment' ? this.coerce(this.expr(a), a.type, { name: 'vector' }) : float(a)));
    const options = { sblur: f(0), tblur: f(0), swidth: f(1), twidth: f(1), filter: f(TEXTURE_FILTER.box), fill: f(0), samples: f(16) };
    for (let k = positional; k < e.args.length; k += 2) {
      const nameExpr = e.args[k]!;
      const valueArg = e.args[k + 1];
      const name = this.constantString(nameExpr);
      if (!valueArg || valueArg.type?.name !== (name === 'filter' ? 'string' : 'float')) {
        this.diagnostics.warning(nameExpr.pos, `${lookup}(): parameter "${name ?? '?'}" needs a ${name === 'filter' ? 'string' : 'float'} value; ignored`);
      } else if (name === 'blur') options.sblur = options.tblur = float(valueArg);
      else if (name === 'width') options.swidth = options.twidth = float(valueArg);
      else if (name === 'sblur' || name === 'tblur' || name === 'swidth' || name === 'twidth' || name === 'fill' || name === 'samples') options[name] = float(valueArg);
      else if (name === 'filter') {
        const filter = this.constantString(valueArg);
        if (filter === 'box' || filter === 'gaussian') options.filter = f(TEXTURE_FILTER[filter]);
        else this.diagnostics.warning(valueArg.pos, `${lookup}(): filter "${filter ?? '?'}" is not supported (box and gaussian are); the box filter is used`);
      } else this.diagnostics.warning(nameExpr.pos, `${lookup}(): parameter "${name ?? '?'}" is not known; ignored`);
    }
    const word = this.textureSlotWord(nameArg);
    const forms = lookup === 'environment' ? [1, 4] : [0, 2, 8];
    if (word === undefined || !forms.includes(coords.length)) {
      this.diagnostics.warning(e.pos, word === undefined
        ? `${lookup}(): the map name must be a constant or a shader parameter; the lookup returns the fill value`
        : `${lookup}(): takes ${lookup === 'environment' ? 'a direction or four' : 's and t, or the four corners (8 values)'}, not ${coords.length} values; the lookup returns the fill value`);
      return rt === 'f32' ? options.fill : this.call('vec3', 'vec3f($0)', [options.fill]);
    }
    const slot = this.call('f32', `rsl_param_f32(${word}u)`, []);
    const o = options;
    const tail = [o.sblur, o.tblur, o.swidth, o.twidth, o.filter, o.fill, o.samples];
    const n = rt === 'f32' ? 1 : 3;
    const pick = (template: string): string => (rt === 'f32' ? `${template}.x` : template);
    if (lookup === 'environment') {
      let d: number;
      let du: number;
      let dv: number;
      if (coords.length === 4) {
        const [d1, d2, d3, d4] = coords as [number, number, number, number];
        d = this.call('vec3', '0.25 * ($0 + $1 + $2 + $3)', [d1, d2, d3, d4]);
        du = this.call('vec3', '0.5 * ($1 - $0 + $3 - $2)', [d1, d2, d3, d4]);
        dv = this.call('vec3', '0.5 * ($2 - $0 + $3 - $1)', [d1, d2, d3, d4]);
      } else {
        d = coords[0]!;
        // Light shaders take no derivatives: there the footprint is the blur alone.
        const change = (axis: 'u' | 'v'): number => (this.ctx.kind === 'light' ? this.constant('vec3', [0, 0, 0]) : this.call('vec3', '$0 * $1', [
          this.value({ op: 'deriv', type: 'vec3', axis, a: d, pos: e.pos }), this.load(this.gridVar(axis === 'u' ? 'du' : 'dv', 'float'))]));
        du = change('u');
        dv = change('v');
      }
      return this.call(rt, pick(`rsl_environment($0, $1, ${n}u, $2, $3, $4, vec4f($5, $6, $7, $8), vec3f($9, $10, $11))`), [slot, channel, d, du, dv, ...tail], true);
    }
    // Light shaders take no derivatives: there the footprint is the blur alone.
    const deriv = (a: number, axis: 'u' | 'v'): number => (this.ctx.kind === 'light' ? f(0)
      : this.binary('f32', '*', this.value({ op: 'deriv', type: 'f32', axis, a, pos: e.pos }), this.load(this.gridVar(axis === 'u' ? 'du' : 'dv', 'float'))));
    let st: number[];
    let du: number[];
    let dv: number[];
    if (coords.length === 8) {
      // Corners 1..4 as a patch's: (0,0), (1,0), (0,1), (1,1).
      const c = (k: number, i: number): number => coords[k * 2 + i]!;
      st = [0, 1].map((i) => this.call('f32', '0.25 * ($0 + $1 + $2 + $3)', [c(0, i), c(1, i), c(2, i), c(3, i)]));
      du = [0, 1].map((i) => this.call('f32', '0.5 * ($1 - $0 + $3 - $2)', [c(0, i), c(1, i), c(2, i), c(3, i)]));
      dv = [0, 1].map((i) => this.call('f32', '0.5 * ($2 - $0 + $3 - $1)', [c(0, i), c(1, i), c(2, i), c(3, i)]));
    } else {
      st = coords.length === 2 ? coords : [this.load(this.gridVar('s', 'float')), this.load(this.gridVar('t', 'float'))];
      du = st.map((x) => deriv(x, 'u'));
      dv = st.map((x) => deriv(x, 'v'));
    }
    return this.call(rt, pick(`rsl_texture($0, $1, ${n}u, vec2f($2, $3), vec2f($4, $5), vec2f($6, $7), vec4f($8, $9, $10, $11), vec3f($12, $13, $14))`),
      [slot, channel, ...st, ...du, ...dv, ...tail], true);
  }

  /**
   * shadow(name[channel], P, ...) or shadow(name, P1, P2, P3, P4, ...) (RI 3.2 section 15.7): the
   * share of the region around P (the micropolygon's extent, dPdu·du and dPdv·dv, or the four
   * points' quadrilateral) that the depth map says is hidden from its camera, percentage-closer
   * filtered; "samples" (16), "blur", "bias" (SHADOW_BIAS), "width", "swidth", "twidth".
   */
  private shadow(e: ExprOf<'call'>, rt: IrType): number {
    const f = (x: number): number => this.constant('f32', [x]);
    const float = (arg: Expr): number => this.coerce(this.expr(arg), arg.type, { name: 'float' });
    const nameArg = e.args[0]!.kind === 'index' ? e.args[0]!.target : e.args[0]!;
    let positional = 1;
    while (positional < e.args.length && e.args[positional]!.type?.name !== 'string') positional++;
    const points = e.args.slice(1, positional).map((a) => this.coerce(this.expr(a), a.type, { name: 'point' }));
    const options = { blur: f(0), swidth: f(1), twidth: f(1), bias: f(SHADOW_BIAS), samples: f(16) };
    for (let k = positional; k < e.args.length; k += 2) {
      const nameExpr = e.args[k]!;
      const valueArg = e.args[k + 1];
      const name = this.constantString(nameExpr);
      if (!valueArg || valueArg.type?.name !== 'float') this.diagnostics.warning(nameExpr.pos, `shadow(): parameter "${name ?? '?'}" needs a float value; ignored`);
      else if (name === 'width') options.swidth = options.twidth = float(valueArg);
      else if (name === 'blur' || name === 'bias' || name === 'samples' || name === 'swidth' || name === 'twidth') options[name] = float(valueArg);
      else this.diagnostics.warning(nameExpr.pos, `shadow(): parameter "${name ?? '?'}" is not known (samples, blur, bias, width, swidth, twidth are); ignored`);
    }
    const word = this.textureSlotWord(nameArg);
    if (word === undefined || (points.length !== 1 && points.length !== 4)) {
      this.diagnostics.warning(e.pos, word === undefined
        ? 'shadow(): the map name must be a constant or a shader parameter; the lookup returns 0 (unshadowed)'
        : `shadow(): takes a point or four points, not ${points.length}; the lookup returns 0 (unshadowed)`);
      return rt === 'f32' ? f(0) : this.constant('vec3', [0, 0, 0]);
    }
    let p: number;
    let pu: number;
    let pv: number;
    if (points.length === 4) {
      const [p1, p2, p3, p4] = points as [number, number, number, number];
      p = this.call('vec3', '0.25 * ($0 + $1 + $2 + $3)', [p1, p2, p3, p4]);
      pu = this.call('vec3', '0.5 * ($1 - $0 + $3 - $2)', [p1, p2, p3, p4]);
      pv = this.call('vec3', '0.5 * ($2 - $0 + $3 - $1)', [p1, p2, p3, p4]);
    } else {
      // The grid's own extent: derivatives cannot be taken inside light shaders, where shadow() is
      // usually called on Ps.
      p = points[0]!;
      pu = this.call('vec3', '$0 * $1', [this.load(this.gridVar('dPdu', 'vector')), this.load(this.gridVar('du', 'float'))]);
      pv = this.call('vec3', '$0 * $1', [this.load(this.gridVar('dPdv', 'vector')), this.load(this.gridVar('dv', 'float'))]);
    }
    const slot = this.call('f32', `rsl_param_f32(${word}u)`, []);
    const o = options;
    const hidden = this.call('f32', 'rsl_shadow($0, $1, $2, $3, vec4f($4, $5, $6, $7), $8)', [slot, p, pu, pv, o.blur, o.swidth, o.twidth, o.bias, o.samples], true);
    return rt === 'f32' ? hidden : this.call('vec3', 'vec3f($0)', [hidden]);
  }

  /**
   * spline (RI 3.2 section 15.1): a cubic through the knots in the named basis (catmull-rom when none
   * is named), its segments `step` knots apart as in RiBasis; value 0 to 1 spans all segments. The
   * knots come as arguments or as one array.
   */
  private spline(e: ExprOf<'call'>, rt: IrType): number {
    const hasBasis = e.args[0]?.type?.name === 'string';
    const basisName = hasBasis ? this.constantString(e.args[0]) : 'catmull-rom';
    const basis = basisName === undefined ? undefined : SPLINE_BASES[basisName];
    if (!basis) {
      const known = Object.keys(SPLINE_BASES).join(', ');
      this.diagnostics.error(e.args[0]!.pos, basisName === undefined ? `spline basis must be a constant string (one of ${known})` : `unknown spline basis "${basisName}"; expected one of ${known}`);
      return this.constant(rt, new Array<number>(rt === 'f32' ? 1 : 3).fill(0));
    }
    const args = e.args.slice(hasBasis ? 1 : 0);
    const t = this.coerce(this.expr(args[0]!), args[0]!.type, { name: 'float' });
    const knots = this.splineKnots(args.slice(1), e.type!);
    if (knots.length < 4) {
      this.diagnostics.error(e.pos, `spline needs at least 4 knots, found ${knots.length}`);
      return this.constant(rt, new Array<number>(rt === 'f32' ? 1 : 3).fill(0));
    }
    const segments = Math.floor((knots.length - 4) / basis.step) + 1;
    const unused = knots.length - 4 - (segments - 1) * basis.step;
    if (unused > 0) this.diagnostics.warning(e.pos, `spline: the ${basisName} basis takes 4 + ${basis.step}n knots; the last ${unused} of ${knots.length} are ignored`);
    const x = this.call('f32', `clamp($0, 0.0, 1.0) * ${segments}.0`, [t]);
    const seg = this.call('f32', `min(floor($0), ${segments - 1}.0)`, [x]);
    const f = this.binary('f32', '-', x, seg);
    let result: number | undefined;
    for (let k = segments - 1; k >= 0; k--) {
      const first = k * basis.step;
      const piece = this.call(rt, `rsl_spline_${rt}(rsl_spline_weights_${basis.wgsl}($0), $1, $2, $3, $4)`, [f, knots[first]!, knots[first + 1]!, knots[first + 2]!, knots[first + 3]!]);
      if (result === undefined) result = piece;
      else result = this.value({ op: 'select', type: rt, cond: this.binary('bool', '==', seg, this.constant('f32', [k])), a: piece, b: result });
    }
    return result!;
  }

  /** The knot values of a spline call: its arguments, or the elements of its one array argument. */
  private splineKnots(args: Expr[], type: RslType): number[] {
    const array = args.length === 1 ? args[0]! : undefined;
    if (array?.type?.arrayLength === undefined) return args.map((a) => this.coerce(this.expr(a), a.type, type));
    const lv = this.lvalue(array);
    if (!lv) {
      this.diagnostics.error(array.pos, 'spline: the knot array must be a variable');
      return [];
    }
    return [...Array(array.type.arrayLength).keys()].map((k) => this.load(lv.variable, this.constant('f32', [k])));
  }

  /** Inlines a user (or prelude) function: parameters become fresh variables, outputs alias. */
  private inline(e: ExprOf<'call'>, fn: FunctionSymbol): number {
    const recursive = this.inlining.some((f) => f.def === fn.def);
    if (recursive || this.inlining.length >= MAX_INLINE_DEPTH) {
      this.diagnostics.error(e.pos, recursive
        ? `'${fn.def.name}' calls itself; RSL functions cannot be recursive`
        : `function calls nested deeper than ${MAX_INLINE_DEPTH} ('${this.inlining[0]!.def.name}' → ... → '${fn.def.name}'); every call is inlined into the kernel`);
      return this.constant('f32', [0]);
    }
    const saved = new Map<number, IrVar | undefined>();
    const bind = (id: number, v: IrVar): void => {
      if (!saved.has(id)) saved.set(id, this.ctx.env.get(id));
      this.ctx.env.set(id, v);
    };
    const values = fn.params.map((p, k) => {
      const arg = e.args[k]!;
      if (p.output) return this.lvalue(arg);
      return this.coerce(this.expr(arg), arg.type, p.type);
    });
    fn.params.forEach((p, k) => {
      const v = values[k];
      if (typeof v === 'number') {
        const local = this.newVar(p.name, p.type, 'local', p.type.arrayLength);
        this.store(local, v);
        bind(p.id, local);
      } else if (v) bind(p.id, v.variable);
    });
    const result = fn.def.returnType !== 'void' ? this.newVar(`${fn.def.name}_result`, { name: fn.def.returnType }, 'local') : undefined;
    const early = hasEarlyReturn(fn.def.body);
    const target: ReturnTarget = { ...(result ? { result, type: { name: fn.def.returnType } } : {}) };
    this.returns.push(target);
    this.inlining.push(fn);
    const uniform = this.ctx.checked.uniformUserCalls.has(e);
    if (uniform) this.uniformRandom++;
    const savedLoops = this.loops;
    if (early) {
      const loop = this.nextLoop++;
      target.loop = loop;
      this.loops = [loop];
      const body = this.nested(() => {
        this.statements(fn.def.body);
        this.emit({ op: 'break', loop });
      });
      this.emit({ op: 'loop', loop, body, continuing: [], pos: e.pos, origin: `call of '${fn.def.name}' (its early return makes a loop)` });
    } else {
      this.loops = [];
      this.statements(fn.def.body);
    }
    this.loops = savedLoops;
    if (uniform) this.uniformRandom--;
    this.inlining.pop();
    this.returns.pop();
    for (const [id, v] of saved) {
      if (v) this.ctx.env.set(id, v);
      else this.ctx.env.delete(id);
    }
    return result ? this.load(result) : this.constant('f32', [0]);
  }
}

/** textureinfo() data names and the type of the value each gives (RenderMan Interface 3.2). */
const TEXTURE_INFO: Record<string, RslType> = {
  resolution: { name: 'float', arrayLength: 2 },
  type: { name: 'string' },
  channels: { name: 'float' },
  viewingmatrix: { name: 'matrix' },
  projectionmatrix: { name: 'matrix' },
};

/** A return anywhere but as the last statement of the body needs the one-iteration loop. */
function hasEarlyReturn(body: Stmt[]): boolean {
  const text = JSON.stringify(body.slice(0, -1), (key, value) => (key === 'pos' || key === 'type' ? undefined : value));
  const last = body[body.length - 1];
  return text.includes('"kind":"return"') || (!!last && last.kind !== 'return' && JSON.stringify(last, (key, value) => (key === 'pos' || key === 'type' ? undefined : value)).includes('"kind":"return"'));
}

/** Names of one space compare equal ("current" is camera space). */
function spaceKey(name: string): string {
  return name === 'current' ? 'camera' : name;
}

/** Deepest chain of function calls inlined into one another. */
const MAX_INLINE_DEPTH = 64;

export function wgslTypeName(t: IrType): string {
  return t === 'vec3' ? 'vec3f' : t === 'mat4' ? 'mat4x4f' : t;
}
