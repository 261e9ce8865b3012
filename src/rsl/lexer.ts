// RSL tokens. The lexer never fails: an unknown character becomes an 'error' token that the
// parser reports with its position.
import type { SourcePos } from './diagnostics.ts';

export type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'directive' | 'eof' | 'error';

export interface Token {
  kind: TokenKind;
  text: string;
  /** For strings: the unescaped contents. For numbers: the value. */
  value?: string | number;
  pos: SourcePos;
  /** True when this is the first token on its source line (the preprocessor needs it). */
  lineStart: boolean;
}

// Longest first, so '+=' wins over '+'.
const PUNCTUATION = [
  '+=', '-=', '*=', '/=', '==', '!=', '<=', '>=', '&&', '||',
  '+', '-', '*', '/', '=', '<', '>', '!', '?', ':', ';', ',', '.', '^', '(', ')', '{', '}', '[', ']', '#',
];

export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return 'end of file';
    case 'string':
      return `string "${String(token.value)}"`;
    case 'number':
      return `number ${token.text}`;
    case 'ident':
      return `'${token.text}'`;
    default:
      return `'${token.text}'`;
  }
}

export function lex(source: string, file: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineBegin = 0;
  let lineStart = true;
  const pos = (at: number): SourcePos => ({ file, line, column: at - lineBegin + 1 });
  const push = (kind: TokenKind, text: string, at: number, value?: string | number): void => {
    tokens.push({ kind, text, pos: pos(at), lineStart, ...(value !== undefined ? { value } : {}) });
    lineStart = false;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineBegin = i;
      lineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    // A backslash-newline continues a line (for #define bodies).
    if (c === '\\' && (source[i + 1] === '\n' || (source[i + 1] === '\r' && source[i + 2] === '\n'))) {
      i += source[i + 1] === '\n' ? 2 : 3;
      line++;
      lineBegin = i;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      i += 2;
      while (i < source.length && !(source[i] === '*' && source[i + 1] === '/')) {
        if (source[i] === '\n') {
          line++;
          lineBegin = i + 1;
        }
        i++;
      }
      i += 2;
      continue;
    }
    const start = i;
    if (/[A-Za-z_]/.test(c)) {
      while (i < source.length && /[A-Za-z0-9_]/.test(source[i]!)) i++;
      push('ident', source.slice(start, i), start);
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const match = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(source.slice(i, i + 64));
      const text = match![0];
      i += text.length;
      // Allow C-style suffixes such as 1.0f.
      if (source[i] === 'f' || source[i] === 'F') i++;
      push('number', text, start, Number(text));
      continue;
    }
    if (c === '"') {
      i++;
      let value = '';
      while (i < source.length && source[i] !== '"' && source[i] !== '\n') {
        if (source[i] === '\\' && i + 1 < source.length) {
          const e = source[i + 1]!;
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          i += 2;
        } else value += source[i++];
      }
      if (source[i] !== '"') {
        push('error', source.slice(start, i), start, 'unterminated string');
        continue;
      }
      i++;
      push('string', source.slice(start, i), start, value);
      continue;
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, i));
    if (punct) {
      i += punct.length;
      push('punct', punct, start);
      continue;
    }
    i++;
    push('error', c, start, `unexpected character '${c}'`);
  }
  tokens.push({ kind: 'eof', text: '', pos: pos(i), lineStart: true });
  return tokens;
}
