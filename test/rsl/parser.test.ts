import { describe, expect, it } from 'vitest';
import type { Expr, Stmt } from '../../src/rsl/ast.ts';
import { Diagnostics } from '../../src/rsl/diagnostics.ts';
import { parseSource } from '../../src/rsl/frontend.ts';
import { lex } from '../../src/rsl/lexer.ts';
import { preprocess } from '../../src/rsl/preprocessor.ts';

function parseBody(body: string, params = ''): Stmt[] {
  const { ast, diagnostics } = parseSource(`surface s(${params}) {\n${body}\n}`, 't.sl');
  expect(diagnostics.list).toEqual([]);
  return ast.shaders[0]!.body;
}

function parseExpr(text: string): Expr {
  const stmt = parseBody(`${text};`)[0]!;
  if (stmt.kind !== 'expr') throw new Error('not an expression');
  return stmt.expr;
}

/** The expression as a fully parenthesised string, to check precedence. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'number': return String(e.value);
    case 'string': return JSON.stringify(e.value);
    case 'name': return e.name;
    case 'index': return `${show(e.target)}[${show(e.index)}]`;
    case 'call': return `${e.name}(${e.args.map(show).join(', ')})`;
    case 'unary': return `(${e.op}${show(e.operand)})`;
    case 'binary': return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'ternary': return `(${show(e.cond)} ? ${show(e.then)} : ${show(e.else)})`;
    case 'assign': return `(${show(e.target)} ${e.op} ${show(e.value)})`;
    case 'cast': return `(${e.to}${e.space !== undefined ? ` "${e.space}"` : ''} ${show(e.operand)})`;
    case 'tuple': return `(${e.items.map(show).join(', ')})`;
    case 'array': return `{${e.items.map(show).join(', ')}}`;
  }
}

describe('lexer', () => {
  it('reads numbers, strings, operators and positions', () => {
    const tokens = lex('a += 1.5e2 /* c */ "s\\"x"\n  .5 // end', 'f.sl');
    expect(tokens.map((t) => [t.kind, t.text, t.pos.line, t.pos.column])).toEqual([
      ['ident', 'a', 1, 1], ['punct', '+=', 1, 3], ['number', '1.5e2', 1, 6], ['string', '"s\\"x"', 1, 20], ['number', '.5', 2, 3], ['eof', '', 2, 12],
    ]);
    expect(tokens[3]!.value).toBe('s"x');
  });
});

describe('preprocessor', () => {
  const run = (text: string, files: Record<string, string> = {}): { text: string; diagnostics: Diagnostics } => {
    const diagnostics = new Diagnostics();
    const tokens = preprocess(text, 'main.sl', diagnostics, { resolveInclude: (name) => (name in files ? { file: name, text: files[name]! } : undefined) });
    return { text: tokens.filter((t) => t.kind !== 'eof').map((t) => t.text).join(' '), diagnostics };
  };
  it('expands constants and function-like macros', () => {
    expect(run('#define K 2\n#define SQ(x) ((x)*(x))\nK + SQ(a+1)').text).toBe('2 + ( ( a + 1 ) * ( a + 1 ) )');
  });
  it('takes #ifdef/#ifndef/#else/#endif branches', () => {
    expect(run('#define A\n#ifdef A\nyes\n#else\nno\n#endif\n#ifndef A\nno2\n#endif').text).toBe('yes');
  });
  it('includes files, keeping their positions', () => {
    const diagnostics = new Diagnostics();
    const tokens = preprocess('#include "lib.h"\nb', 'main.sl', diagnostics, { resolveInclude: () => ({ file: 'lib.h', text: '\n  a' }) });
    expect(tokens.slice(0, 2).map((t) => [t.text, t.pos.file, t.pos.line, t.pos.column])).toEqual([['a', 'lib.h', 2, 3], ['b', 'main.sl', 2, 1]]);
  });
  it('reports a missing include and an unterminated #if', () => {
    const { diagnostics } = run('#include "nope.h"\n#ifdef X\n');
    expect(diagnostics.list.map((d) => [d.line, d.message])).toEqual([[1, 'cannot find include file "nope.h"'], [2, 'expected #endif, found end of file']]);
  });
});

describe('parser', () => {
  it('follows the precedence table: . over * over ^ over +, relations, && and ||', () => {
    expect(show(parseExpr('a + b * c . d ^ e'))).toBe('(a + ((b * (c . d)) ^ e))');
    expect(show(parseExpr('a < b + 1 && c == d || !e'))).toBe('(((a < (b + 1)) && (c == d)) || (!e))');
    expect(show(parseExpr('x = y += c ? 1 : d ? 2 : 3'))).toBe('(x = (y += (c ? 1 : (d ? 2 : 3))))');
    expect(show(parseExpr('-a * b'))).toBe('((-a) * b)');
  });
  it('parses casts with spaces, tuples, channel selection and arrays', () => {
    expect(show(parseExpr('point "world" (0, 1, 2)'))).toBe('(point "world" (0, 1, 2))');
    expect(show(parseExpr('color "hsv" (h, 1, 1)'))).toBe('(color "hsv" (h, 1, 1))');
    expect(show(parseExpr('x = float texture("map"[1], s, t)'))).toBe('(x = (float texture("map"[1], s, t)))');
    expect(show(parseExpr('a[i + 1]'))).toBe('a[(i + 1)]');
  });
  it('parses declarations with details, arrays and initialisers', () => {
    const [decl] = parseBody('uniform float a[3] = {1, 2, 3}, b;');
    expect(decl).toMatchObject({ kind: 'vardecl', type: { base: 'float', detail: 'uniform' }, declarators: [{ name: 'a', arrayLength: 3, init: { kind: 'array' } }, { name: 'b' }] });
  });
  it('parses shader parameters with defaults and output', () => {
    const { ast } = parseSource('light l(float intensity = 1; output varying color c = 0; point from = point "shader" (0,0,0)) { }', 'l.sl');
    const params = ast.shaders[0]!.params;
    expect(params.map((p) => [p.type.base, p.type.output, p.type.detail, p.declarators.map((d) => d.name)])).toEqual([
      ['float', false, undefined, ['intensity']], ['color', true, 'varying', ['c']], ['point', false, undefined, ['from']],
    ]);
  });
  it('parses control flow: if/else, for, while, break n, continue n, return', () => {
    const body = parseBody('for (i = 0; i < 3; i += 1) { while (1) { break 2; } continue; } if (a) b = 1; else { b = 2; }');
    expect(body.map((s) => s.kind)).toEqual(['for', 'if']);
    const loop = body[0]!;
    if (loop.kind !== 'for' || loop.body.kind !== 'block') throw new Error('shape');
    expect(loop.body.body.map((s) => s.kind)).toEqual(['while', 'continue']);
    const inner = loop.body.body[0]!;
    if (inner.kind !== 'while' || inner.body.kind !== 'block') throw new Error('shape');
    expect(inner.body.body[0]).toMatchObject({ kind: 'break', levels: 2 });
  });
  it('parses illuminance with and without cone and category, illuminate and solar', () => {
    const body = parseBody('illuminance(P) {} illuminance(P, N, PI/2) {} illuminance("spec", P, N, 1) {}');
    expect(body.map((s) => [s.kind, 'category' in s && !!s.category, 'axis' in s && !!s.axis])).toEqual([
      ['illuminance', false, false], ['illuminance', false, true], ['illuminance', true, true],
    ]);
    const { ast } = parseSource('light l() { illuminate(P) {} illuminate(P, N, 1) {} solar() {} solar(N, 0) {} }', 'l.sl');
    expect(ast.shaders[0]!.body.map((s) => s.kind)).toEqual(['illuminate', 'illuminate', 'solar', 'solar']);
  });
  it('parses functions: nested definitions, output parameters, untyped void functions', () => {
    const { ast, diagnostics } = parseSource('float f(float a, b; output color c) { return a; }\nsurface s() { void g() { } h(float x) { } float k(float y) { return y; } }', 'f.sl');
    expect(diagnostics.list).toEqual([]);
    expect(ast.functions[0]).toMatchObject({ name: 'f', returnType: 'float', params: [{ declarators: [{ name: 'a' }, { name: 'b' }] }, { type: { output: true } }] });
    expect(ast.shaders[0]!.body.map((s) => (s.kind === 'function' ? `${s.returnType} ${s.name}` : s.kind))).toEqual(['void g', 'void h', 'float k']);
  });
  it('parses every shader type', () => {
    for (const kind of ['surface', 'displacement', 'light', 'volume', 'imager']) {
      expect(parseSource(`${kind} x() { }`, 'k.sl').ast.shaders[0]!.shaderKind).toBe(kind);
    }
  });
});
