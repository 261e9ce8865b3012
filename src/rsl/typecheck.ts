// Type checking: names, RSL's implicit conversions, overload resolution against the standard
// library table, and uniform/varying inference (a local without an explicit detail is varying when
// any value assigned to it is varying or it is assigned under varying control flow; iterated to a
// fixed point). Results are side tables keyed by AST node, so the AST stays plain data.
import type { BaseTypeName, Declarator, Expr, ExprOf, FunctionDef, ShaderDef, ShaderKind, SourceFile, Stmt, VarDecl } from './ast.ts';
import type { Diagnostics, SourcePos } from './diagnostics.ts';
import { GLOBALS, ILLUMINANCE_GLOBALS } from './globals.ts';
import { ANY_LENGTH, BUILTINS } from './stdlib.ts';
import type { BuiltinSignature } from './stdlib.ts';
import { LIGHTING_PRELUDE } from './prelude.ts';
import { Diagnostics as DiagnosticList } from './diagnostics.ts';
import { lex } from './lexer.ts';
import { parse } from './parser.ts';
import { conversionCost, isPointLike, isTriple, T, typeToString } from './types.ts';
import type { RslType } from './types.ts';

export type SymbolScope = 'global' | 'shader-param' | 'local' | 'function-param' | 'constant';

export interface VarSymbol {
  kind: 'var';
  id: number;
  name: string;
  type: RslType;
  /** Explicit detail, or undefined when inferred. */
  detail?: 'uniform' | 'varying';
  varying: boolean;
  output: boolean;
  writable: boolean;
  scope: SymbolScope;
  pos: SourcePos;
  /** The value of a predefined constant such as PI. */
  constant?: number;
}

export interface FunctionSymbol {
  kind: 'function';
  def: FunctionDef;
  params: VarSymbol[];
}

export type CallTarget = { kind: 'builtin'; signature: BuiltinSignature } | { kind: 'user'; fn: FunctionSymbol };

/** Built-ins an imager cannot use (RI 3.2 section 12.5: it sees finished pixels, one at a time). */
const IMAGER_REFUSED: Readonly<Record<string, string>> = {
  '@ambient': 'an imager has no lights', '@diffuse': 'an imager has no lights', '@specular': 'an imager has no lights',
  '@phong': 'an imager has no lights', '@Du': 'an imager has no derivatives across pixels',
  '@Dv': 'an imager has no derivatives across pixels', '@Deriv': 'an imager has no derivatives across pixels',
  '@area': 'an imager has no derivatives across pixels', '@calculatenormal': 'an imager has no derivatives across pixels',
  '@filterstep': 'it filters with derivatives, and an imager has none across pixels',
  '@faceforward': 'an imager has no geometric normal Ng',
};

export interface CheckedShader {
  file: string;
  shader: ShaderDef;
  params: VarSymbol[];
  globals: Map<string, VarSymbol>;
  names: Map<Expr, VarSymbol>;
  declarations: Map<Declarator, VarSymbol>;
  calls: Map<Expr, CallTarget>;
  functions: Map<FunctionDef, FunctionSymbol>;
  /** Whether the shader (or a function it calls) contains illuminate or solar: a non-ambient light. */
  illuminates: boolean;
  /** random() calls in a uniform context (a value for a uniform variable): one value per grid. */
  uniformCalls: Set<Expr>;
  /**
   * User function calls in a uniform context whose bodies read nothing varying but random(): inlined
   * with random() in its uniform form, so the call is uniform (specialised per call site).
   */
  uniformUserCalls: Set<Expr>;
}

type Scope = Map<string, VarSymbol | FunctionSymbol>;

/** The most bytes one shader variable may hold on the GPU (Dawn refuses bigger function variables). */
export const MAX_ARRAY_BYTES = 65536;
/** Bytes per array element on the GPU: vec3f is aligned to 16, mat4x4f is 64. */
const ELEMENT_BYTES: Partial<Record<BaseTypeName, number>> = { point: 16, vector: 16, normal: 16, color: 16, matrix: 64 };

export function typecheck(file: SourceFile, shader: ShaderDef, diagnostics: Diagnostics): CheckedShader {
  return new Checker(file, shader, diagnostics).run();
}

class Checker {
  private nextId = 0;
  private scopes: Scope[] = [];
  private varyingDepth = 0;
  private loopDepth = 0;
  private inIlluminance = 0;
  private functionStack: FunctionSymbol[] = [];
  private report = false;
  /** Inside the value of an assignment to a uniform variable: calls take their uniform forms. */
  private uniformWanted = 0;
  private changed = false;
  private readonly result: CheckedShader;

  constructor(
    private readonly file: SourceFile,
    private readonly shader: ShaderDef,
    private readonly diagnostics: Diagnostics,
  ) {
    this.result = {
      file: file.file, shader, params: [], globals: new Map(), names: new Map(), declarations: new Map(),
      calls: new Map(), functions: new Map(), illuminates: false, uniformCalls: new Set(), uniformUserCalls: new Set(),
    };
  }

  run(): CheckedShader {
    const kind: ShaderKind = this.shader.shaderKind;
    const globalScope: Scope = new Map();
    globalScope.set('PI', this.symbol('PI', T.float, 'constant', this.shader.pos, { constant: Math.PI, detail: 'uniform' }));
    for (const g of GLOBALS[kind]) {
      const sym = this.symbol(g.name, { name: g.type }, 'global', this.shader.pos, { detail: g.varying ? 'varying' : 'uniform', writable: g.writable });
      globalScope.set(g.name, sym);
      this.result.globals.set(g.name, sym);
    }
    for (const fn of this.file.functions) globalScope.set(fn.name, this.functionSymbol(fn));
    if (kind === 'surface' || kind === 'volume') {
      for (const fn of preludeFunctions()) globalScope.set(fn.name, this.functionSymbol(fn));
    }
    this.scopes = [globalScope];
    // Iterate the inference silently until no local changes detail, then check once reporting errors.
    for (let pass = 0; pass < 8; pass++) {
      this.changed = false;
      this.checkShaderBody();
      if (!this.changed) break;
    }
    this.report = true;
    this.checkShaderBody();
    return this.result;
  }

  private symbol(name: string, type: RslType, scope: SymbolScope, pos: SourcePos, extra: Partial<VarSymbol> = {}): VarSymbol {
    const detail = extra.detail;
    return {
      kind: 'var', id: this.nextId++, name, type, varying: detail === 'varying', output: false,
      writable: scope !== 'constant' && scope !== 'global', scope, pos, ...extra,
    };
  }

  private error(pos: SourcePos, message: string): void {
    if (this.report) this.diagnostics.error(pos, message);
  }

  private functionSymbol(def: FunctionDef): FunctionSymbol {
    let fn = this.result.functions.get(def);
    if (!fn) {
      const params: VarSymbol[] = [];
      for (const group of def.params) {
        for (const d of group.declarators) {
          const type: RslType = { name: group.type.base, ...(d.arrayLength !== undefined ? { arrayLength: d.arrayLength } : {}) };
          this.checkArraySize(d, group.type.base);
          const sym = this.symbol(d.name, type, 'function-param', d.pos, { output: group.type.output, varying: true, writable: true, ...(group.type.detail ? { detail: group.type.detail } : {}) });
          if (group.type.detail === 'uniform') sym.varying = false;
          params.push(sym);
          this.result.declarations.set(d, sym);
        }
      }
      fn = { kind: 'function', def, params };
      this.result.functions.set(def, fn);
    }
    return fn;
  }

  private checkShaderBody(): void {
    this.scopes.length = 1;
    this.result.uniformCalls.clear();
    this.result.uniformUserCalls.clear();
    const paramScope: Scope = new Map();
    this.scopes.push(paramScope);
    this.result.params = [];
    for (const group of this.shader.params) {
      for (const d of group.declarators) {
        const sym = this.declare(group, d, 'shader-param');
        this.result.params.push(sym);
        // Other compilers (Aqsis, PRMan) accept a parameter without a default and give it zero.
        if (!d.init && this.report) this.diagnostics.warning(d.pos, `shader parameter '${d.name}' has no default value; it defaults to ${group.type.base === 'string' ? 'the empty string' : '0'}`);
      }
    }
    // Top-level functions are checked in the shader's context (they see the predefined variables).
    for (const fn of this.file.functions) this.statement(fn);
    if (this.shader.shaderKind === 'surface' || this.shader.shaderKind === 'volume') {
      // The library sees only the predefined variables, never the shader's own names (a parameter
      // called max must not hide the built-in max() the prelude calls).
      const shaderScopes = this.scopes;
      this.scopes = [shaderScopes[0]!];
      for (const fn of preludeFunctions()) this.statement(fn);
      this.scopes = shaderScopes;
    }
    this.statements(this.shader.body);
  }

  /** An array must fit one GPU variable (MAX_ARRAY_BYTES), or the kernel does not build. */
  private checkArraySize(d: Declarator, base: BaseTypeName): void {
    if (d.arrayLength === undefined) return;
    const bytes = d.arrayLength * (ELEMENT_BYTES[base] ?? 4);
    if (bytes > MAX_ARRAY_BYTES) {
      this.error(d.pos, `array '${d.name}' of ${d.arrayLength} ${base} elements takes ${bytes} bytes; a shader variable holds at most ${MAX_ARRAY_BYTES} (${Math.floor(MAX_ARRAY_BYTES / (ELEMENT_BYTES[base] ?? 4))} ${base} elements)`);
    }
  }

  private declare(group: VarDecl, d: Declarator, scope: SymbolScope): VarSymbol {
    const type: RslType = { name: group.type.base, ...(d.arrayLength !== undefined ? { arrayLength: d.arrayLength } : {}) };
    this.checkArraySize(d, group.type.base);
    if (group.type.base === 'void') this.error(d.pos, `variable '${d.name}' cannot have type void`);
    const current = this.scopes[this.scopes.length - 1]!;
    let sym = this.result.declarations.get(d);
    if (!sym) {
      // Shader parameters are uniform unless declared varying; locals are inferred.
      const detail = group.type.detail ?? (scope === 'shader-param' ? 'uniform' : undefined);
      sym = this.symbol(d.name, type, scope, d.pos, { output: group.type.output, ...(detail ? { detail } : {}) });
      this.result.declarations.set(d, sym);
    }
    if (group.type.extern) {
      // extern names a variable of an enclosing scope.
      const outer = this.lookup(d.name);
      if (!outer || outer.kind !== 'var') this.error(d.pos, `extern variable '${d.name}' is not declared in an enclosing scope`);
      else current.set(d.name, outer);
      return outer && outer.kind === 'var' ? outer : sym;
    }
    const previous = current.get(d.name);
    if (previous && previous.kind === 'var' && previous !== sym) this.error(d.pos, `'${d.name}' is already declared in this scope`);
    current.set(d.name, sym);
    if (d.init) {
      if (d.init.kind === 'array') {
        if (d.arrayLength === undefined) this.error(d.init.pos, `expected a single value for '${d.name}', found an array initializer`);
        else if (d.init.items.length !== d.arrayLength) this.error(d.init.pos, `array '${d.name}' has ${d.arrayLength} elements, found ${d.init.items.length} initializers`);
        let varying = false;
        for (const item of d.init.items) {
          const t = this.expr(item, { name: type.name });
          varying ||= !!item.varying;
          this.convertible(t, { name: type.name }, item.pos, `element of '${d.name}'`);
        }
        d.init.type = type;
        d.init.varying = varying;
        this.assignDetail(sym, varying, d.init.pos);
      } else {
        const t = this.valueFor(sym, d.init, type);
        this.convertible(t, type, d.init.pos, `'${d.name}'`);
        this.assignDetail(sym, !!d.init.varying, d.init.pos);
      }
    } else if (this.varyingDepth > 0) this.assignDetail(sym, true, d.pos);
    return sym;
  }

  /** Checks a value stored into `sym`: for a uniform variable, calls take their uniform forms. */
  private valueFor(sym: VarSymbol, value: Expr, expected: RslType): RslType {
    const uniform = sym.detail === 'uniform' || (sym.scope === 'global' && !sym.varying);
    if (uniform) this.uniformWanted++;
    try {
      return this.expr(value, expected);
    } finally {
      if (uniform) this.uniformWanted--;
    }
  }

  /** Records that a value of the given detail is stored into `sym`. */
  private assignDetail(sym: VarSymbol, varying: boolean, pos: SourcePos): void {
    const effective = varying || this.varyingDepth > 0;
    if (!effective) return;
    if (sym.detail === 'uniform' || (sym.scope === 'global' && !sym.varying)) {
      this.error(pos, `cannot assign a varying value to uniform variable '${sym.name}'`);
      return;
    }
    if (!sym.varying) {
      sym.varying = true;
      this.changed = true;
    }
  }

  private lookup(name: string): VarSymbol | FunctionSymbol | undefined {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const found = this.scopes[k]!.get(name);
      if (found) return found;
    }
    if (this.inIlluminance > 0 && this.shader.shaderKind !== 'light') {
      const g = ILLUMINANCE_GLOBALS.find((v) => v.name === name);
      if (g) {
        let sym = this.result.globals.get(name);
        if (!sym) {
          sym = this.symbol(name, { name: g.type }, 'global', this.shader.pos, { detail: 'varying' });
          this.result.globals.set(name, sym);
        }
        return sym;
      }
    }
    return undefined;
  }

  private withScope(fn: () => void): void {
    this.scopes.push(new Map());
    try {
      fn();
    } finally {
      this.scopes.pop();
    }
  }

  private statements(list: Stmt[]): void {
    // Functions may be called before their definition in the same block.
    const scope = this.scopes[this.scopes.length - 1]!;
    for (const s of list) if (s.kind === 'function') scope.set(s.name, this.functionSymbol(s));
    for (const s of list) this.statement(s);
  }

  private condition(e: Expr): boolean {
    const t = this.expr(e);
    if (t.name !== 'bool' && t.name !== 'float') this.error(e.pos, `expected a condition (a relation or float), found ${typeToString(t)}`);
    return !!e.varying;
  }

  private statement(s: Stmt): void {
    switch (s.kind) {
      case 'vardecl':
        for (const d of s.declarators) this.declare(s, d, 'local');
        return;
      case 'function': {
        const fn = this.functionSymbol(s);
        this.withScope(() => {
          const scope = this.scopes[this.scopes.length - 1]!;
          for (const p of fn.params) scope.set(p.name, p);
          this.functionStack.push(fn);
          const savedDepth = this.varyingDepth;
          const savedLoops = this.loopDepth;
          this.varyingDepth = 0;
          this.loopDepth = 0;
          this.statements(s.body);
          this.varyingDepth = savedDepth;
          this.loopDepth = savedLoops;
          this.functionStack.pop();
        });
        return;
      }
      case 'expr':
        this.expr(s.expr);
        return;
      case 'block':
        this.withScope(() => this.statements(s.body));
        return;
      case 'empty':
        return;
      case 'if': {
        const varying = this.condition(s.cond);
        this.underControl(varying, () => {
          this.withScope(() => this.statement(s.then));
          if (s.else) this.withScope(() => this.statement(s.else!));
        });
        return;
      }
      case 'while':
      case 'for': {
        if (s.kind === 'for' && s.init) this.expr(s.init);
        // A loop condition can depend on what the body assigns: check the body first silently.
        const varying = s.cond ? this.condition(s.cond) : false;
        this.loopDepth++;
        this.underControl(varying, () => {
          this.withScope(() => this.statement(s.body));
          if (s.kind === 'for' && s.step) this.expr(s.step);
        });
        this.loopDepth--;
        return;
      }
      case 'break':
      case 'continue':
        if (s.levels > this.loopDepth) this.error(s.pos, `${s.kind} ${s.levels} is not inside ${s.levels} loop${s.levels > 1 ? 's' : ''}`);
        return;
      case 'return': {
        const fn = this.functionStack[this.functionStack.length - 1];
        if (!fn) {
          this.error(s.pos, 'return outside a function');
          return;
        }
        const expected: RslType = { name: fn.def.returnType };
        if (!s.value) {
          if (fn.def.returnType !== 'void') this.error(s.pos, `expected a ${fn.def.returnType} return value in '${fn.def.name}'`);
          return;
        }
        const t = this.expr(s.value, expected);
        if (fn.def.returnType === 'void') this.error(s.value.pos, `function '${fn.def.name}' returns void, found a ${typeToString(t)} value`);
        else this.convertible(t, expected, s.value.pos, `the return value of '${fn.def.name}'`);
        return;
      }
      case 'illuminance': {
        // An imager runs on finished pixels: there are no lights to integrate (RI 3.2 section 12.5).
        if (this.shader.shaderKind === 'light' || this.shader.shaderKind === 'imager') this.error(s.pos, 'illuminance is only allowed in surface and volume shaders');
        if (s.category) this.expectType(s.category, T.string, 'an illuminance category');
        this.expectType(s.position, T.point, 'the illuminance position');
        if (s.axis) this.expectType(s.axis, T.vector, 'the illuminance axis');
        if (s.angle) this.expectType(s.angle, T.float, 'the illuminance angle');
        this.inIlluminance++;
        this.loopDepth++;
        this.underControl(true, () => this.withScope(() => this.statement(s.body)));
        this.loopDepth--;
        this.inIlluminance--;
        return;
      }
      case 'gather': {
        const [category, position, direction, angle, samples, ...pairs] = s.args;
        if (category) this.expectType(category, T.string, 'the gather category');
        if (position) this.expectType(position, T.point, 'the gather position');
        if (direction) this.expectType(direction, T.vector, 'the gather direction');
        if (angle) this.expectType(angle, T.float, 'the gather cone angle');
        if (samples) this.expectType(samples, T.float, 'the gather sample count');
        // Optional "name", output variable pairs: what each hit reports ("surface:Ci", "ray:length", ...).
        for (let k = 0; k < pairs.length; k += 2) {
          const name = pairs[k]!;
          this.expectType(name, T.string, 'a gather output name');
          const target = pairs[k + 1];
          if (!target) this.error(name.pos, 'expected a variable after the gather output name');
          else {
            this.expr(target);
            const sym = this.rootSymbol(target);
            if (!sym || !sym.writable) this.error(target.pos, `expected a writable variable for gather output ${k / 2 + 1}`);
            else this.assignDetail(sym, true, target.pos);
          }
        }
        this.loopDepth++;
        this.underControl(true, () => {
          this.withScope(() => this.statement(s.body));
          if (s.else) this.withScope(() => this.statement(s.else!));
        });
        this.loopDepth--;
        return;
      }
      case 'illuminate':
      case 'solar': {
        this.result.illuminates = true;
        if (this.shader.shaderKind !== 'light') this.error(s.pos, `${s.kind} is only allowed in light shaders`);
        if (s.kind === 'illuminate') this.expectType(s.position, T.point, 'the illuminate position');
        if (s.axis) this.expectType(s.axis, T.vector, `the ${s.kind} axis`);
        if (s.angle) this.expectType(s.angle, T.float, `the ${s.kind} angle`);
        this.underControl(true, () => this.withScope(() => this.statement(s.body)));
        return;
      }
    }
  }

  private underControl(varying: boolean, fn: () => void): void {
    if (varying) this.varyingDepth++;
    try {
      fn();
    } finally {
      if (varying) this.varyingDepth--;
    }
  }

  private expectType(e: Expr, to: RslType, what: string): void {
    const t = this.expr(e, to);
    this.convertible(t, to, e.pos, what);
  }

  private convertible(from: RslType, to: RslType, pos: SourcePos, what: string): boolean {
    if (from.name === 'void' && to.name === 'void') return true;
    if (conversionCost(from, to) !== undefined) return true;
    if (from.name !== 'void' || to.name === 'void') this.error(pos, `cannot convert ${typeToString(from)} to ${typeToString(to)} for ${what}`);
    else this.error(pos, `expected a value for ${what}, found a call of a void function`);
    return false;
  }

  /** Checks an expression and returns its type; `expected` guides overloads by result type. */
  expr(e: Expr, expected?: RslType): RslType {
    const type = this.exprInner(e, expected);
    e.type = type;
    return type;
  }

  private exprInner(e: Expr, expected?: RslType): RslType {
    switch (e.kind) {
      case 'number':
        e.varying = false;
        return T.float;
      case 'string':
        e.varying = false;
        return T.string;
      case 'name': {
        const sym = this.lookup(e.name);
        if (!sym) {
          this.error(e.pos, `undefined variable '${e.name}'`);
          e.varying = false;
          return T.float;
        }
        if (sym.kind === 'function') {
          this.error(e.pos, `expected a variable, found function '${e.name}'`);
          return T.float;
        }
        this.result.names.set(e, sym);
        e.varying = sym.varying;
        return sym.type;
      }
      case 'index': {
        const target = this.expr(e.target);
        const index = this.expr(e.index, T.float);
        if (index.name !== 'float') this.error(e.index.pos, `expected a float array index, found ${typeToString(index)}`);
        e.varying = !!e.target.varying || !!e.index.varying;
        if (target.arrayLength === undefined) {
          if (target.name !== 'string') this.error(e.pos, `expected an array before '[', found ${typeToString(target)}`);
          return target;
        }
        if (e.index.kind === 'number' && (e.index.value < 0 || e.index.value >= target.arrayLength)) {
          this.error(e.index.pos, `array index ${e.index.value} is outside 0..${target.arrayLength - 1}`);
        }
        return { name: target.name };
      }
      case 'unary': {
        const t = this.expr(e.operand);
        e.varying = e.operand.varying;
        if (e.op === '!') {
          if (t.name !== 'bool' && t.name !== 'float') this.error(e.pos, `expected a relation after '!', found ${typeToString(t)}`);
          return T.bool;
        }
        if (t.arrayLength !== undefined || t.name === 'string' || t.name === 'bool' || t.name === 'void') this.error(e.pos, `cannot negate a ${typeToString(t)}`);
        return t;
      }
      case 'binary':
        return this.binary(e);
      case 'ternary': {
        this.condition(e.cond);
        const a = this.expr(e.then, expected);
        const b = this.expr(e.else, expected);
        e.varying = !!e.cond.varying || !!e.then.varying || !!e.else.varying;
        if (conversionCost(b, a) !== undefined) return a;
        if (conversionCost(a, b) !== undefined) return b;
        this.error(e.pos, `the branches of '?:' have different types: ${typeToString(a)} and ${typeToString(b)}`);
        return a;
      }
      case 'assign':
        return this.assign(e);
      case 'cast':
        return this.cast(e);
      case 'tuple':
        for (const item of e.items) this.expectType(item, T.float, 'a component');
        e.varying = e.items.some((item) => item.varying);
        if (e.items.length !== 3 && e.items.length !== 16) this.error(e.pos, `expected 3 or 16 components, found ${e.items.length}`);
        else if (!expected || (e.items.length === 3 && !isTriple(expected.name)) || (e.items.length === 16 && expected.name !== 'matrix')) {
          this.error(e.pos, `a (${e.items.length === 3 ? 'x, y, z' : '16 numbers'}) tuple needs a type cast, e.g. ${e.items.length === 3 ? 'point' : 'matrix'} (...)`);
        }
        return e.items.length === 16 ? T.matrix : expected && isTriple(expected.name) ? { name: expected.name } : T.point;
      case 'array':
        this.error(e.pos, 'an array initializer { ... } is only allowed in a declaration');
        return T.float;
      case 'call':
        return this.call(e, expected);
    }
  }

  private binary(e: ExprOf<'binary'>): RslType {
    const l = this.expr(e.left);
    const r = this.expr(e.right);
    e.varying = !!e.left.varying || !!e.right.varying;
    const bad = (): RslType => {
      this.error(e.pos, `operator '${e.op}' cannot combine ${typeToString(l)} and ${typeToString(r)}`);
      return l.name === 'bool' ? T.float : l;
    };
    if (l.arrayLength !== undefined || r.arrayLength !== undefined) return bad();
    switch (e.op) {
      case '&&':
      case '||':
        if ((l.name !== 'bool' && l.name !== 'float') || (r.name !== 'bool' && r.name !== 'float')) return bad();
        return T.bool;
      case '==':
      case '!=':
        if (l.name === 'string' || r.name === 'string') return l.name === r.name ? T.bool : bad();
        if (conversionCost(l, r) === undefined && conversionCost(r, l) === undefined) return bad();
        return T.bool;
      case '<':
      case '>':
      case '<=':
      case '>=':
        if (l.name !== 'float' || r.name !== 'float') return bad();
        return T.bool;
      case '.':
        if ((isPointLike(l.name) && isPointLike(r.name)) || (l.name === 'color' && r.name === 'color')) return T.float;
        return bad();
      case '^':
        if (isPointLike(l.name) && isPointLike(r.name)) return T.vector;
        return bad();
      default: {
        if (l.name === 'string' || r.name === 'string' || l.name === 'bool' || r.name === 'bool' || l.name === 'void' || r.name === 'void') return bad();
        if (l.name === 'matrix' || r.name === 'matrix') {
          if (l.name === 'matrix' && r.name === 'matrix' && (e.op === '*' || e.op === '/')) return T.matrix;
          if (e.op === '*' && (l.name === 'float' || r.name === 'float')) return T.matrix;
          // 1 / m is the inverse (s / m = s times the inverse); m / s divides every element.
          if (e.op === '/' && (l.name === 'float' || r.name === 'float')) return T.matrix;
          return bad();
        }
        if (l.name === 'float') return r;
        if (r.name === 'float') return l;
        if (l.name === 'color' || r.name === 'color') return l.name === r.name ? T.color : bad();
        // Point-like arithmetic: point - point is a vector; a point with anything stays a point.
        if (l.name === 'point' && r.name === 'point') return e.op === '-' ? T.vector : T.point;
        if (l.name === 'point' || r.name === 'point') return T.point;
        if (l.name === r.name) return l;
        return T.vector;
      }
    }
  }

  private assign(e: ExprOf<'assign'>): RslType {
    const target = this.expr(e.target);
    const sym = this.rootSymbol(e.target);
    const value = sym ? this.valueFor(sym, e.value, target) : this.expr(e.value, target);
    e.varying = !!e.value.varying;
    if (sym) {
      if (!sym.writable) this.error(e.target.pos, `'${sym.name}' is read-only`);
      this.assignDetail(sym, !!e.value.varying || !!(e.target.kind === 'index' && e.target.index.varying), e.pos);
    }
    if (e.op === '=') this.convertible(value, target, e.value.pos, `assignment to ${sym ? `'${sym.name}'` : 'this element'}`);
    else if (target.name === 'string' || target.name === 'matrix' && e.op !== '*=' || conversionCost(value, target) === undefined) {
      this.error(e.pos, `operator '${e.op}' cannot combine ${typeToString(target)} and ${typeToString(value)}`);
    }
    return target;
  }

  /** The user (or prelude) function visible under this name, skipping variables of the same name. */
  private lookupFunction(name: string): FunctionSymbol | undefined {
    for (let k = this.scopes.length - 1; k >= 0; k--) {
      const found = this.scopes[k]!.get(name);
      if (found?.kind === 'function') return found;
    }
    return undefined;
  }

  private rootSymbol(e: Expr): VarSymbol | undefined {
    if (e.kind === 'name') return this.result.names.get(e);
    if (e.kind === 'index') return this.rootSymbol(e.target);
    return undefined;
  }

  private cast(e: ExprOf<'cast'>): RslType {
    const to: RslType = { name: e.to };
    const t = this.expr(e.operand, to);
    e.varying = e.operand.varying;
    if (e.space !== undefined) {
      const spaces = e.to === 'color' ? ['rgb', 'hsv', 'hsl', 'xyz', 'XYZ', 'xyY', 'YIQ'] : undefined;
      if (spaces && !spaces.includes(e.space)) this.error(e.pos, `unknown colour space "${e.space}"; expected one of ${spaces.join(', ')}`);
      if (e.to === 'float' || e.to === 'string') this.error(e.pos, `a ${e.to} cast takes no space name`);
    }
    if (t.name === to.name) return to;
    if (e.to === 'string' || t.name === 'string') this.error(e.pos, `cannot cast ${typeToString(t)} to ${e.to}`);
    else if (e.to === 'float' && t.name !== 'bool') this.error(e.pos, `cannot cast ${typeToString(t)} to float`);
    else if (e.to === 'matrix' && t.name !== 'float') this.error(e.pos, `cannot cast ${typeToString(t)} to matrix`);
    else if (isTriple(e.to) && !isTriple(t.name) && t.name !== 'float') this.error(e.pos, `cannot cast ${typeToString(t)} to ${e.to}`);
    return to;
  }

  private call(e: ExprOf<'call'>, expected?: RslType): RslType {
    // Functions and variables live in separate name spaces: a variable called max does not hide max().
    const user = this.lookupFunction(e.name);
    const argTypes = e.args.map((a, k): RslType => {
      // texture("map"[1], ...): a channel selection on the map name.
      if (k === 0 && a.kind === 'index' && ['texture', 'environment', 'shadow'].includes(e.name)) {
        this.expectType(a.index, T.float, 'a texture channel');
        this.expr(a.target);
        a.type = a.target.type;
        a.varying = false;
        return a.type ?? T.string;
      }
      return this.expr(a);
    });
    e.varying = e.args.some((a) => a.varying);
    if (user) return this.userCall(e, user, argTypes);
    const candidates = BUILTINS.get(e.name);
    if (!candidates) {
      const variable = this.lookup(e.name);
      if (variable?.kind !== 'var') this.error(e.pos, `undefined function '${e.name}'`);
      // point sp (x, y, z): a cast's space must be a literal; transform() takes names known at run time.
      else this.error(e.pos, `'${e.name}' is a ${typeToString(variable.type)} variable, not a function${variable.type.name === 'string' ? `; the space of a type cast must be a string constant (transform(${e.name}, p) looks a space up at run time)` : ''}`);
      return expected ?? T.float;
    }
    let best: BuiltinSignature | undefined;
    let bestCost = Infinity;
    for (const c of candidates) {
      if (argTypes.length < c.params.length || (!c.variadic && argTypes.length > c.params.length)) continue;
      let cost = 0;
      for (let k = 0; k < argTypes.length && cost < Infinity; k++) {
        const param = c.params[Math.min(k, c.params.length - 1)];
        if (!param) {
          cost = Infinity;
          break;
        }
        // Variadic texture arguments are name/value pairs of any type.
        if (k >= c.params.length && (c.impl === '@texture' || c.impl === '@shadow' || c.impl === '@printf' || c.impl === '@format' || c.impl === '@filterstep' || c.impl === '@raytrace')) continue;
        const anyLength = param.type.arrayLength === ANY_LENGTH && argTypes[k]!.arrayLength !== undefined;
        const step = param.output || anyLength ? (argTypes[k]!.name === param.type.name ? 0 : undefined) : conversionCost(argTypes[k]!, param.type);
        cost = step === undefined ? Infinity : cost + step;
      }
      if (cost === Infinity) continue;
      // Prefer the result type the context asks for (e.g. color noise(P)).
      if (expected && c.result.name !== expected.name) cost += conversionCost(c.result, expected) === undefined ? 50 : 10;
      if (cost < bestCost) {
        best = c;
        bestCost = cost;
      }
    }
    if (!best) {
      const arities = [...new Set(candidates.map((c) => c.params.length + (c.variadic ? '+' : '')))].join(' or ');
      const found = argTypes.map(typeToString).join(', ');
      const arityOk = candidates.some((c) => argTypes.length >= c.params.length && (c.variadic || argTypes.length === c.params.length));
      this.error(e.pos, arityOk
        ? `no overload of '${e.name}' takes (${found}); expected one of: ${candidates.map((c) => `${e.name}(${c.params.map((p) => (p.output ? 'output ' : '') + (p.type.arrayLength === ANY_LENGTH ? `${p.type.name}[]` : typeToString(p.type))).join(', ')})`).slice(0, 6).join(', ')}`
        : `'${e.name}' expects ${arities} arguments, found ${argTypes.length}`);
      return expected ?? T.float;
    }
    this.result.calls.set(e, { kind: 'builtin', signature: best });
    const refused = this.shader.shaderKind === 'imager' ? IMAGER_REFUSED[best.impl] : undefined;
    if (refused) this.error(e.pos, `'${e.name}' is not available in imager shaders: ${refused}`);
    best.params.forEach((p, k) => {
      if (!p.output) return;
      const arg = e.args[k]!;
      const sym = this.rootSymbol(arg);
      if (!sym) this.error(arg.pos, `expected a variable for output argument ${k + 1} of '${e.name}'`);
      // option(), attribute(), rendererinfo(), textureinfo() and rayinfo() answer one value per grid:
      // their output may be a uniform variable.
      else this.assignDetail(sym, best!.impl !== '@info' && best!.impl !== '@rayinfo', arg.pos);
    });
    if (best.impl === '@random' && this.uniformWanted > 0 && this.varyingDepth === 0) {
      // A uniform context selects the uniform form: one value per grid.
      this.result.uniformCalls.add(e);
      e.varying = false;
      return best.result;
    }
    if (best.alwaysVarying || best.impl === '@texture' || best.impl === '@shadow' || ['@ambient', '@diffuse', '@specular', '@phong'].includes(best.impl)) e.varying = true;
    if (best.impl === '@message' || best.impl === '@info') e.varying = e.varying || best.impl === '@message';
    return best.result;
  }

  private userCall(e: ExprOf<'call'>, fn: FunctionSymbol, argTypes: RslType[]): RslType {
    this.result.calls.set(e, { kind: 'user', fn });
    if (argTypes.length !== fn.params.length) {
      this.error(e.pos, `'${e.name}' expects ${fn.params.length} arguments, found ${argTypes.length}`);
      return { name: fn.def.returnType };
    }
    fn.params.forEach((p, k) => {
      const arg = e.args[k]!;
      if (p.output) {
        const sym = this.rootSymbol(arg);
        if (!sym) this.error(arg.pos, `expected a variable for output parameter '${p.name}' of '${e.name}'`);
        else {
          if (argTypes[k]!.name !== p.type.name || argTypes[k]!.arrayLength !== p.type.arrayLength) {
            this.error(arg.pos, `output parameter '${p.name}' of '${e.name}' is ${typeToString(p.type)}, found ${typeToString(argTypes[k]!)}`);
          }
          this.assignDetail(sym, true, arg.pos);
        }
      } else this.convertible(argTypes[k]!, p.type, arg.pos, `parameter '${p.name}' of '${e.name}'`);
    });
    // Conservatively, a user function's result varies when any argument does or its body (or a function
    // it calls) reads varying inputs. When random() is the only one, a uniform context selects the
    // uniform form, as for the built-in.
    const inputs = this.functionInputs(fn.def, new Set());
    if (!e.varying && inputs === 'random' && this.uniformWanted > 0 && this.varyingDepth === 0) {
      this.result.uniformUserCalls.add(e);
      return { name: fn.def.returnType };
    }
    e.varying = !!e.varying || inputs !== 'uniform';
    return { name: fn.def.returnType };
  }

  /** bodyInputs of each function, worked out once: every call site asks, and a chain of n functions
   * calling each other would otherwise be walked n times over (n² time). */
  private readonly inputsOf = new Map<FunctionDef, 'varying' | 'random' | 'uniform'>();

  private functionInputs(def: FunctionDef, visited: Set<FunctionDef>): 'varying' | 'random' | 'uniform' {
    let inputs = this.inputsOf.get(def);
    if (inputs === undefined) this.inputsOf.set(def, (inputs = this.bodyInputs(def.body, visited)));
    return inputs;
  }

  /** What varies in a function body: 'varying' inputs, only 'random' calls, or nothing ('uniform'). */
  private bodyInputs(body: Stmt[], visited: Set<FunctionDef>): 'varying' | 'random' | 'uniform' {
    const text = JSON.stringify(body, (key, value) => (key === 'pos' || key === 'type' ? undefined : value));
    for (const [name, sym] of this.result.globals) if (sym.varying && text.includes(`"name":"${name}"`)) return 'varying';
    if (/"name":"(noise|Du|Dv|texture)"/.test(text) || text.includes('"illuminance"')) return 'varying';
    let inputs: 'random' | 'uniform' = text.includes('"name":"random"') ? 'random' : 'uniform';
    for (const [, name] of text.matchAll(/"kind":"call","name":"([A-Za-z_]\w*)"/g)) {
      const callee = this.lookupFunction(name!);
      if (!callee || visited.has(callee.def)) continue;
      visited.add(callee.def);
      const nested = this.functionInputs(callee.def, visited);
      if (nested === 'varying') return 'varying';
      if (nested === 'random') inputs = 'random';
    }
    return inputs;
  }
}

export function baseTypeOf(name: BaseTypeName): RslType {
  return { name };
}

let prelude: FunctionDef[] | undefined;

/** The prelude's function definitions, parsed once (fresh symbols per checked shader). */
export function preludeFunctions(): FunctionDef[] {
  if (!prelude) {
    const diagnostics = new DiagnosticList();
    prelude = parse(lex(LIGHTING_PRELUDE, '<prelude>'), '<prelude>', diagnostics).functions;
    if (diagnostics.hasErrors) throw new Error(`RSL prelude does not parse: ${diagnostics.errors[0]!.message}`);
  }
  return prelude;
}
