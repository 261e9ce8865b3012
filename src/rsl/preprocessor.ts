// The C preprocessor subset RSL sources use: #include, #define (constants and function-like
// macros), #undef, #ifdef/#ifndef/#if <constant>/#else/#endif. It works on tokens, so every token
// keeps the file, line and column it came from; expanded macro tokens take the position of the use.
import type { Diagnostics } from './diagnostics.ts';
import { describeToken, lex } from './lexer.ts';
import type { Token } from './lexer.ts';

/** Finds an included file: returns its canonical name and text, or undefined when not found. */
export type IncludeResolver = (name: string, fromFile: string) => { file: string; text: string } | undefined;

interface Macro {
  params?: string[];
  body: Token[];
}

export interface PreprocessOptions {
  resolveInclude?: IncludeResolver;
  defines?: Record<string, string>;
}

const MAX_INCLUDE_DEPTH = 32;
const MAX_EXPANSION_DEPTH = 64;

export function preprocess(source: string, file: string, diagnostics: Diagnostics, options: PreprocessOptions = {}): Token[] {
  const macros = new Map<string, Macro>();
  for (const [name, value] of Object.entries(options.defines ?? {})) {
    macros.set(name, { body: lex(value, '<define>').filter((t) => t.kind !== 'eof') });
  }
  const out: Token[] = [];
  let tooDeepReported = false;

  const expand = (tokens: Token[], depth: number, active: Set<string>): Token[] => {
    const result: Token[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const macro = token.kind === 'ident' && !active.has(token.text) ? macros.get(token.text) : undefined;
      if (!macro || depth > MAX_EXPANSION_DEPTH) {
        if (macro && !tooDeepReported) diagnostics.error(token.pos, `macro '${token.text}' is reached through more than ${MAX_EXPANSION_DEPTH} nested macros; left unexpanded`);
        tooDeepReported ||= macro !== undefined;
        result.push(token);
        continue;
      }
      let body = macro.body;
      if (macro.params) {
        if (tokens[i + 1]?.text !== '(') {
          result.push(token);
          continue;
        }
        // Collect the arguments, splitting at top-level commas.
        const args: Token[][] = [[]];
        let level = 0;
        let j = i + 2;
        for (; j < tokens.length; j++) {
          const t = tokens[j]!;
          if (t.text === '(') level++;
          if (t.text === ')' && level-- === 0) break;
          if (t.text === ',' && level === 0) args.push([]);
          else args[args.length - 1]!.push(t);
        }
        if (j >= tokens.length) {
          diagnostics.error(token.pos, `unterminated arguments of macro '${token.text}'`);
          return result;
        }
        if (macro.params.length !== args.length && !(macro.params.length === 0 && args.length === 1 && args[0]!.length === 0)) {
          diagnostics.error(token.pos, `macro '${token.text}' takes ${macro.params.length} arguments, found ${args.length}`);
        }
        const params = macro.params;
        body = macro.body.flatMap((t) => {
          const k = t.kind === 'ident' ? params.indexOf(t.text) : -1;
          return k >= 0 ? expand(args[k] ?? [], depth + 1, active) : [t];
        });
        i = j;
      }
      const inner = new Set(active).add(token.text);
      append(result, expand(body.map((t) => ({ ...t, pos: token.pos, lineStart: false })), depth + 1, inner));
    }
    return result;
  };

  const run = (text: string, name: string, depth: number): void => {
    const tokens = lex(text, name);
    // Each entry: is this conditional branch taken, and has any branch of it been taken.
    const conditions: { taken: boolean; done: boolean; pos: Token['pos'] }[] = [];
    const skipping = (): boolean => conditions.some((c) => !c.taken);
    let pending: Token[] = [];
    const flush = (): void => {
      append(out, expand(pending, 0, new Set()));
      pending = [];
    };
    let i = 0;
    while (i < tokens.length) {
      const token = tokens[i]!;
      if (token.kind === 'eof') break;
      if (!(token.text === '#' && token.lineStart)) {
        if (!skipping()) pending.push(token);
        i++;
        continue;
      }
      // A directive: the rest of this source line.
      const line: Token[] = [];
      i++;
      while (i < tokens.length && !tokens[i]!.lineStart && tokens[i]!.kind !== 'eof') line.push(tokens[i++]!);
      const directive = line[0]?.text ?? '';
      const arg = line[1];
      switch (directive) {
        case 'ifdef':
        case 'ifndef': {
          const defined = arg !== undefined && macros.has(arg.text);
          conditions.push({ taken: directive === 'ifdef' ? defined : !defined, done: false, pos: token.pos });
          conditions[conditions.length - 1]!.done = conditions[conditions.length - 1]!.taken;
          continue;
        }
        case 'if': {
          const value = evaluateCondition(expand(line.slice(1), 0, new Set()), macros);
          conditions.push({ taken: value, done: value, pos: token.pos });
          continue;
        }
        case 'elif':
        case 'else': {
          const top = conditions[conditions.length - 1];
          if (!top) {
            diagnostics.error(token.pos, `#${directive} without #if`);
            continue;
          }
          const value = directive === 'else' || evaluateCondition(expand(line.slice(1), 0, new Set()), macros);
          top.taken = !top.done && value;
          top.done ||= top.taken;
          continue;
        }
        case 'endif':
          if (!conditions.pop()) diagnostics.error(token.pos, '#endif without #if');
          continue;
      }
      if (skipping()) continue;
      switch (directive) {
        case 'define': {
          if (!arg || arg.kind !== 'ident') {
            diagnostics.error(arg?.pos ?? token.pos, `expected a macro name after #define, found ${arg ? describeToken(arg) : 'end of line'}`);
            break;
          }
          const next = line[2];
          const functionLike = next?.text === '(' && next.pos.line === arg.pos.line && next.pos.column === arg.pos.column + arg.text.length;
          if (functionLike) {
            const close = line.findIndex((t, k) => k > 2 && t.text === ')');
            if (close < 0) {
              diagnostics.error(next.pos, `expected ')' in the parameters of macro '${arg.text}'`);
              break;
            }
            const params = line.slice(3, close).filter((t) => t.text !== ',').map((t) => t.text);
            macros.set(arg.text, { params, body: line.slice(close + 1) });
          } else macros.set(arg.text, { body: line.slice(2) });
          break;
        }
        case 'undef':
          if (arg) macros.delete(arg.text);
          break;
        case 'include': {
          flush();
          const target = arg?.kind === 'string' ? String(arg.value) : line.slice(2, -1).map((t) => t.text).join('');
          if (!arg || (arg.kind !== 'string' && arg.text !== '<')) {
            diagnostics.error(token.pos, 'expected a file name after #include');
            break;
          }
          const found = options.resolveInclude?.(target, name);
          if (!found) diagnostics.error(arg.pos, `cannot find include file "${target}"`);
          else if (depth >= MAX_INCLUDE_DEPTH) diagnostics.error(arg.pos, `#include nested more than ${MAX_INCLUDE_DEPTH} deep`);
          else run(found.text, found.file, depth + 1);
          break;
        }
        case 'pragma':
        case 'line':
        case 'error':
        case 'warning':
        case '':
          if (directive === 'error') diagnostics.error(token.pos, `#error ${line.slice(1).map((t) => t.text).join(' ')}`);
          break;
        default:
          diagnostics.error(token.pos, `unknown preprocessor directive '#${directive}'`);
      }
    }
    flush();
    for (const open of conditions) diagnostics.error(open.pos, 'expected #endif, found end of file');
  };

  run(source, file, 0);
  const last = out[out.length - 1];
  out.push({ kind: 'eof', text: '', pos: last ? { ...last.pos, column: last.pos.column + last.text.length } : { file, line: 1, column: 1 }, lineStart: true });
  return out;
}

/** `#if` conditions: numbers, defined(NAME), !, && and || (enough for shader headers). */
function evaluateCondition(tokens: Token[], macros: Map<string, Macro>): boolean {
  let i = 0;
  const primary = (): number => {
    const t = tokens[i++];
    if (!t) return 0;
    if (t.text === '!') return primary() ? 0 : 1;
    if (t.text === '(') {
      const v = or();
      i++;
      return v;
    }
    if (t.text === 'defined') {
      const paren = tokens[i]?.text === '(';
      if (paren) i++;
      const name = tokens[i++]?.text ?? '';
      if (paren) i++;
      return macros.has(name) ? 1 : 0;
    }
    return t.kind === 'number' ? Number(t.value) : 0;
  };
  const compare = (): number => {
    let v = primary();
    while (['==', '!=', '<', '>', '<=', '>='].includes(tokens[i]?.text ?? '')) {
      const op = tokens[i++]!.text;
      const r = primary();
      v = Number(op === '==' ? v === r : op === '!=' ? v !== r : op === '<' ? v < r : op === '>' ? v > r : op === '<=' ? v <= r : v >= r);
    }
    return v;
  };
  const and = (): number => {
    let v = compare();
    while (tokens[i]?.text === '&&') {
      i++;
      v = Number(compare() !== 0 && v !== 0);
    }
    return v;
  };
  const or = (): number => {
    let v = and();
    while (tokens[i]?.text === '||') {
      i++;
      v = Number(and() !== 0 || v !== 0);
    }
    return v;
  };
  return or() !== 0;
}

/** target.push(...items) without spreading: a spread of ~100k tokens overflows the call stack. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
