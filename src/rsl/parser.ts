// Recursive-descent parser for RSL (RenderMan Interface 3.2). Binary operators are parsed by
// precedence climbing over one table; errors are reported with what was found and what was
// expected, and the parser resynchronises at the next ';' or '}' to find further errors.
import type { AssignOp, BaseTypeName, BinaryOp, Declarator, Detail, Expr, FunctionDef, ShaderDef, ShaderKind, SourceFile, Stmt, TypeSpec, VarDecl } from './ast.ts';
import type { Diagnostics, SourcePos } from './diagnostics.ts';
import { evaluateConstant } from './constant-eval.ts';
import { describeToken } from './lexer.ts';
import type { Token } from './lexer.ts';

/** Binary operator precedence, higher binds tighter. '.' is dot product, '^' cross product. */
export const BINARY_PRECEDENCE: Record<BinaryOp, number> = {
  '||': 1,
  '&&': 2,
  '==': 3, '!=': 3,
  '<': 4, '>': 4, '<=': 4, '>=': 4,
  '+': 5, '-': 5,
  '^': 6,
  '*': 7, '/': 7,
  '.': 8,
};

const TYPE_NAMES = new Set<string>(['float', 'point', 'vector', 'normal', 'color', 'matrix', 'string', 'void']);
const SHADER_KINDS = new Set<string>(['surface', 'displacement', 'light', 'volume', 'imager', 'atmosphere']);
const ASSIGN_OPS = new Set<string>(['=', '+=', '-=', '*=', '/=']);

/** Deepest nesting of statements (an else-if chain nests too; a block as the body of an if or a
 * loop adds nothing): WGSL allows 127 levels of braces and chained ifs, and the kernel wraps some
 * RSL statements in more than one (the WGSL emitter checks what inlining adds). */
export const MAX_STATEMENT_DEPTH = 48;
/** Deepest nesting of expressions (a chain of binary operators counts one level per operator):
 * every compiler pass walks them recursively, a few stack frames per level. */
export const MAX_EXPRESSION_DEPTH = 256;

class ParseError extends Error {}

export function parse(tokens: Token[], file: string, diagnostics: Diagnostics): SourceFile {
  return new Parser(tokens, diagnostics).file(file);
}

class Parser {
  private i = 0;
  private statementDepth = 0;
  private expressionDepth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly diagnostics: Diagnostics,
  ) {}

  private get token(): Token {
    return this.tokens[Math.min(this.i, this.tokens.length - 1)]!;
  }

  private peek(offset = 1): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }

  private is(text: string): boolean {
    const t = this.token;
    return (t.kind === 'punct' || t.kind === 'ident') && t.text === text;
  }

  private accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.i++;
    return true;
  }

  private fail(expected: string, at: Token = this.token): never {
    const found = at.kind === 'error' ? `${String(at.value)}` : describeToken(at);
    this.diagnostics.error(at.pos, at.kind === 'error' ? `${found}; expected ${expected}` : `expected ${expected}, found ${found}`);
    throw new ParseError(expected);
  }

  private expect(text: string): Token {
    if (!this.is(text)) this.fail(`'${text}'`);
    return this.tokens[this.i++]!;
  }

  private ident(what = 'a name'): Token {
    if (this.token.kind !== 'ident') this.fail(what);
    return this.tokens[this.i++]!;
  }

  /** Skips to just after the next ';' or to the next '}' at this nesting level. */
  private synchronize(): void {
    let depth = 0;
    while (this.token.kind !== 'eof') {
      const t = this.token.text;
      if (this.token.kind === 'punct') {
        if (t === '{') depth++;
        if (t === '}') {
          if (depth === 0) return;
          depth--;
          if (depth === 0) {
            this.i++;
            return;
          }
        }
        if (t === ';' && depth === 0) {
          this.i++;
          return;
        }
      }
      this.i++;
    }
  }

  file(file: string): SourceFile {
    const result: SourceFile = { file, functions: [], shaders: [] };
    while (this.token.kind !== 'eof') {
      const start = this.i;
      try {
        if (this.token.kind === 'ident' && SHADER_KINDS.has(this.token.text)) result.shaders.push(this.shader());
        else result.functions.push(this.functionDef());
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        this.synchronize();
        if (this.is('}')) this.i++;
        if (this.i === start) this.i++;
      }
    }
    return result;
  }

  private shader(): ShaderDef {
    const kindToken = this.tokens[this.i++]!;
    const name = this.ident('a shader name');
    this.expect('(');
    const params = this.formals(true);
    this.expect(')');
    const body = this.blockBody();
    const kind = (kindToken.text === 'atmosphere' ? 'volume' : kindToken.text) as ShaderKind;
    return { kind: 'shader', pos: kindToken.pos, shaderKind: kind, name: name.text, params, body };
  }

  private functionDef(): FunctionDef {
    const pos = this.token.pos;
    let returnType: BaseTypeName = 'void';
    if (this.token.kind === 'ident' && TYPE_NAMES.has(this.token.text) && this.peek().kind === 'ident') {
      returnType = this.tokens[this.i++]!.text as BaseTypeName;
    } else if (this.token.kind !== 'ident' || this.peek().text !== '(') {
      this.fail('a shader or function definition');
    }
    const name = this.ident('a function name');
    this.expect('(');
    const params = this.formals(false);
    this.expect(')');
    const body = this.blockBody();
    return { kind: 'function', pos, name: name.text, returnType, params, body };
  }

  /** Formal parameters: groups separated by ';' (or ',' before a new type), each a typed declarator list. */
  private formals(isShader: boolean): VarDecl[] {
    const groups: VarDecl[] = [];
    while (!this.is(')')) {
      const pos = this.token.pos;
      const type = this.typeSpec(true);
      if (!type) this.fail('a parameter type');
      const declarators: Declarator[] = [];
      do {
        if (this.startsTypeSpec()) break;
        declarators.push(this.declarator(isShader));
      } while (this.accept(','));
      groups.push({ kind: 'vardecl', pos, type, declarators });
      if (!this.accept(';') && !this.is(')') && !this.startsTypeSpec()) this.fail("';' or ')'");
    }
    return groups;
  }

  private startsTypeSpec(): boolean {
    const t = this.token;
    return t.kind === 'ident' && (TYPE_NAMES.has(t.text) || ['output', 'uniform', 'varying', 'extern'].includes(t.text));
  }

  /** [extern] [output] [uniform|varying] type, or undefined when no type starts here. */
  private typeSpec(required: boolean): TypeSpec | undefined {
    const start = this.i;
    let output = false;
    let extern = false;
    let detail: Detail | undefined;
    for (;;) {
      if (this.accept('output')) output = true;
      else if (this.accept('extern')) extern = true;
      else if (this.is('uniform') || this.is('varying')) detail = this.tokens[this.i++]!.text as Detail;
      else break;
    }
    const t = this.token;
    if (t.kind === 'ident' && TYPE_NAMES.has(t.text)) {
      this.i++;
      return { base: t.text as BaseTypeName, output, extern, ...(detail ? { detail } : {}) };
    }
    if (required || this.i !== start) this.fail('a type (float, point, vector, normal, color, matrix or string)');
    return undefined;
  }

  private declarator(allowDefault: boolean): Declarator {
    const name = this.ident('a variable name');
    const declarator: Declarator = { name: name.text, pos: name.pos };
    let unsized: SourcePos | undefined;
    if (this.accept('[')) {
      // The length may be any constant expression, e.g. float a[(1+1+1)] or a[2*N] after #define;
      // float a[] = {1, 2, 3} takes its length from the initializer, as PRMan's compiler does.
      if (this.is(']')) unsized = this.token.pos;
      else {
        const size = this.expression();
        const value = evaluateConstant(size)?.value;
        const length = Array.isArray(value) && value.length === 1 ? value[0]! : undefined;
        if (length === undefined || !Number.isInteger(length) || length <= 0) {
          this.diagnostics.error(size.pos, `expected a positive integer constant for the length of array '${name.text}'${length !== undefined ? `, found ${length}` : ''}`);
        } else declarator.arrayLength = length;
      }
      this.expect(']');
    }
    if (this.is('=')) {
      this.i++;
      declarator.init = this.is('{') ? this.arrayLiteral() : this.assignment();
    }
    if (unsized) {
      const init = declarator.init;
      if (init?.kind === 'array' && init.items.length > 0) declarator.arrayLength = init.items.length;
      else this.diagnostics.error(unsized, `array '${name.text}' has no length: give one, or an initializer {...} to size it`);
    }
    void allowDefault;
    return declarator;
  }

  private arrayLiteral(): Expr {
    const pos = this.expect('{').pos;
    const items: Expr[] = [];
    if (!this.is('}')) {
      do items.push(this.ternary());
      while (this.accept(','));
    }
    this.expect('}');
    return { kind: 'array', pos, items };
  }

  private blockBody(): Stmt[] {
    this.expect('{');
    const body: Stmt[] = [];
    while (!this.is('}')) {
      if (this.token.kind === 'eof') this.fail("'}'");
      const start = this.i;
      try {
        body.push(this.statement());
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        this.synchronize();
        if (this.i === start) this.i++;
      }
    }
    this.i++;
    return body;
  }

  /** One statement, refused past MAX_STATEMENT_DEPTH with an error at its first token. */
  private statement(): Stmt {
    if (this.statementDepth >= MAX_STATEMENT_DEPTH) this.tooDeep('statements', MAX_STATEMENT_DEPTH);
    this.statementDepth++;
    try {
      return this.statementInner();
    } finally {
      this.statementDepth--;
    }
  }

  /** The body of a control statement: a block there nests no deeper than the statement itself. */
  private body(): Stmt {
    return this.is('{') ? { kind: 'block', pos: this.token.pos, body: this.blockBody() } : this.statement();
  }

  private tooDeep(what: string, limit: number): never {
    this.diagnostics.error(this.token.pos, `${what} nested deeper than ${limit} levels; split the shader into functions or simpler expressions`);
    throw new ParseError(what);
  }

  /** `parse` one expression level deeper, refused past MAX_EXPRESSION_DEPTH. */
  private deeper<T>(parse: () => T, levels = 1): T {
    if (this.expressionDepth + levels > MAX_EXPRESSION_DEPTH) this.tooDeep('expressions', MAX_EXPRESSION_DEPTH);
    this.expressionDepth += levels;
    try {
      return parse();
    } finally {
      this.expressionDepth -= levels;
    }
  }

  private statementInner(): Stmt {
    const t = this.token;
    const pos = t.pos;
    if (t.kind === 'punct') {
      if (t.text === '{') return { kind: 'block', pos, body: this.blockBody() };
      if (t.text === ';') {
        this.i++;
        return { kind: 'empty', pos };
      }
    }
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'if': {
          this.i++;
          const cond = this.parenExpr();
          const then = this.body();
          const otherwise = this.accept('else') ? this.body() : undefined;
          return { kind: 'if', pos, cond, then, ...(otherwise ? { else: otherwise } : {}) };
        }
        case 'while': {
          this.i++;
          const cond = this.parenExpr();
          return { kind: 'while', pos, cond, body: this.body() };
        }
        case 'for': {
          this.i++;
          this.expect('(');
          const init = this.is(';') ? undefined : this.expression();
          this.expect(';');
          const cond = this.is(';') ? undefined : this.expression();
          this.expect(';');
          const step = this.is(')') ? undefined : this.expression();
          this.expect(')');
          return { kind: 'for', pos, ...(init ? { init } : {}), ...(cond ? { cond } : {}), ...(step ? { step } : {}), body: this.body() };
        }
        case 'break':
        case 'continue': {
          this.i++;
          let levels = 1;
          if (this.token.kind === 'number') {
            const n = this.tokens[this.i++]!;
            if (!Number.isInteger(n.value) || Number(n.value) < 1) this.fail('a positive loop count', n);
            levels = Number(n.value);
          }
          this.expect(';');
          return { kind: t.text, pos, levels };
        }
        case 'return': {
          this.i++;
          const value = this.is(';') ? undefined : this.expression();
          this.expect(';');
          return { kind: 'return', pos, ...(value ? { value } : {}) };
        }
        case 'illuminance': {
          this.i++;
          const args = this.argumentList();
          let category: Expr | undefined;
          if (args[0]?.kind === 'string') category = args.shift();
          if (args.length !== 1 && args.length < 3) this.diagnostics.error(pos, `illuminance expects (position) or (position, axis, angle), found ${args.length} arguments`);
          const [position, axis, angle] = args;
          if (!position) this.fail('an illuminance position');
          return { kind: 'illuminance', pos, ...(category ? { category } : {}), position, ...(axis && angle ? { axis, angle } : {}), body: this.body() };
        }
        case 'illuminate': {
          this.i++;
          const args = this.argumentList();
          if (args.length !== 1 && args.length !== 3) this.diagnostics.error(pos, `illuminate expects (position) or (position, axis, angle), found ${args.length} arguments`);
          const [position, axis, angle] = args;
          if (!position) this.fail('an illuminate position');
          return { kind: 'illuminate', pos, position, ...(axis && angle ? { axis, angle } : {}), body: this.body() };
        }
        case 'solar': {
          this.i++;
          const args = this.argumentList();
          if (args.length !== 0 && args.length !== 2) this.diagnostics.error(pos, `solar expects () or (axis, angle), found ${args.length} arguments`);
          const [axis, angle] = args;
          return { kind: 'solar', pos, ...(axis && angle ? { axis, angle } : {}), body: this.body() };
        }
        case 'gather': {
          this.i++;
          const args = this.argumentList();
          if (args.length < 5) this.diagnostics.error(pos, `gather expects (category, position, direction, angle, samples, ...), found ${args.length} arguments`);
          const body = this.body();
          const otherwise = this.accept('else') ? this.body() : undefined;
          return { kind: 'gather', pos, args, body, ...(otherwise ? { else: otherwise } : {}) };
        }
      }
      if (this.startsTypeSpec() && !(TYPE_NAMES.has(t.text) && this.peek().kind !== 'ident')) {
        // A nested function definition or a variable declaration.
        if (TYPE_NAMES.has(t.text) && this.peek().kind === 'ident' && this.peek(2).text === '(') return this.functionDef();
        const type = this.typeSpec(true)!;
        const declarators: Declarator[] = [];
        do declarators.push(this.declarator(true));
        while (this.accept(','));
        this.expect(';');
        return { kind: 'vardecl', pos, type, declarators };
      }
      // A void function without a return type: name ( ... ) {
      if (this.isUntypedFunctionDef()) return this.functionDef();
    }
    const expr = this.expression();
    this.expect(';');
    return { kind: 'expr', pos, expr };
  }

  /** `name(...) {` at statement level is a nested function definition without a return type. */
  private isUntypedFunctionDef(): boolean {
    if (this.token.kind !== 'ident' || this.peek().text !== '(') return false;
    let depth = 0;
    for (let k = this.i + 1; k < this.tokens.length; k++) {
      const text = this.tokens[k]!.text;
      if (text === '(') depth++;
      else if (text === ')' && --depth === 0) return this.tokens[k + 1]?.text === '{';
    }
    return false;
  }

  private parenExpr(): Expr {
    this.expect('(');
    const e = this.expression();
    this.expect(')');
    return e;
  }

  private argumentList(): Expr[] {
    this.expect('(');
    const args: Expr[] = [];
    if (!this.is(')')) {
      do args.push(this.assignment());
      while (this.accept(','));
    }
    this.expect(')');
    return args;
  }

  expression(): Expr {
    return this.assignment();
  }

  private assignment(): Expr {
    const target = this.ternary();
    const t = this.token;
    if (t.kind === 'punct' && ASSIGN_OPS.has(t.text)) {
      this.i++;
      if (target.kind !== 'name' && target.kind !== 'index') {
        this.diagnostics.error(t.pos, `expected a variable or array element before '${t.text}', found an expression`);
      }
      const value = this.deeper(() => this.assignment());
      return { kind: 'assign', pos: t.pos, op: t.text as AssignOp, target, value };
    }
    return target;
  }

  private ternary(): Expr {
    const cond = this.binary(1);
    if (!this.is('?')) return cond;
    const pos = this.tokens[this.i++]!.pos;
    const then = this.assignment();
    this.expect(':');
    const otherwise = this.deeper(() => this.ternary());
    return { kind: 'ternary', pos, cond, then, else: otherwise };
  }

  private binary(minPrecedence: number): Expr {
    let left = this.unary();
    // Each operator of a left-associative chain nests the chain so far one level deeper.
    for (let chain = 1; ; chain++) {
      const t = this.token;
      const precedence = t.kind === 'punct' ? BINARY_PRECEDENCE[t.text as BinaryOp] : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      this.i++;
      const right = this.deeper(() => this.binary(precedence + 1), chain);
      left = { kind: 'binary', pos: t.pos, op: t.text as BinaryOp, left, right };
    }
  }

  private unary(): Expr {
    return this.deeper(() => this.unaryInner());
  }

  private unaryInner(): Expr {
    const t = this.token;
    if (t.kind === 'punct' && (t.text === '-' || t.text === '!' || t.text === '+')) {
      this.i++;
      const operand = this.unary();
      return t.text === '+' ? operand : { kind: 'unary', pos: t.pos, op: t.text as '-' | '!', operand };
    }
    if (t.kind === 'ident' && TYPE_NAMES.has(t.text) && t.text !== 'void') {
      // A type cast: type ["space"] expression, e.g. point "world" (0,0,0) or color noise(P).
      this.i++;
      let space: string | undefined;
      if (this.token.kind === 'string') space = String(this.tokens[this.i++]!.value);
      const operand = this.unary();
      return { kind: 'cast', pos: t.pos, to: t.text as BaseTypeName, ...(space !== undefined ? { space } : {}), operand };
    }
    return this.postfix(this.primary());
  }

  private postfix(expr: Expr): Expr {
    while (this.is('[')) {
      const pos = this.tokens[this.i++]!.pos;
      const index = this.expression();
      this.expect(']');
      expr = { kind: 'index', pos, target: expr, index };
    }
    return expr;
  }

  private primary(): Expr {
    const t = this.token;
    const pos: SourcePos = t.pos;
    if (t.kind === 'number') {
      this.i++;
      return { kind: 'number', pos, value: Number(t.value) };
    }
    if (t.kind === 'string') {
      this.i++;
      return { kind: 'string', pos, value: String(t.value) };
    }
    if (t.kind === 'ident') {
      this.i++;
      if (this.is('(')) return { kind: 'call', pos, name: t.text, args: this.argumentList() };
      return { kind: 'name', pos, name: t.text };
    }
    if (t.kind === 'punct' && t.text === '(') {
      this.i++;
      const items = [this.expression()];
      while (this.accept(',')) items.push(this.expression());
      this.expect(')');
      if (items.length === 1) return items[0]!;
      return { kind: 'tuple', pos, items };
    }
    return this.fail('an expression');
  }
}
