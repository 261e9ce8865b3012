// Streaming tokenizer for RIB. One lexer reads both encodings: ASCII RIB (bytes below 0x80) and
// the binary encoding of the RenderMan Interface 3.2, Appendix C (bytes 0x80 and above), which
// may be mixed freely in one stream. Tokens are pulled one at a time with next(); the current
// token lives in the lexer's fields so that reading millions of numbers allocates nothing.

import type { SourcePosition } from './diagnostics.ts';

export type TokenKind =
  | 'number' // num, isInteger
  | 'string' // text
  | 'name' // text: a request name (ASCII identifier or binary encoded request)
  | 'open' // [
  | 'close' // ]
  | 'floats' // floats: a binary-encoded float array (already bracketed)
  | 'bad' // text: what is wrong; the offending bytes are consumed
  | 'eof';

export type StructureCommentHandler = (text: string, pos: SourcePosition) => void;

// Character classes for the ASCII scanner.
const WHITESPACE = 1;
const DELIMITER = 2; // ends a number or a name
const charClass = new Uint8Array(256);
for (const c of [32, 9, 13, 12, 11, 0]) charClass[c] = WHITESPACE | DELIMITER;
charClass[10] = WHITESPACE | DELIMITER;
for (const c of '[]"#') charClass[c.charCodeAt(0)] = DELIMITER;
for (let c = 0x80; c < 256; c++) charClass[c] = DELIMITER; // a binary token may follow directly

const POW10: number[] = [];
for (let i = 0, p = 1; i <= 22; i++, p *= 10) POW10.push(p);

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isNameChar(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

const utf8 = new TextDecoder('utf-8');
const escapes: Record<number, number> = { 110: 10, 116: 9, 114: 13, 98: 8, 102: 12 }; // n t r b f

export class RibLexer {
  kind: TokenKind = 'eof';
  num = 0;
  isInteger = false;
  text = '';
  floats: number[] = [];
  /** Position of the current token. */
  line = 1;
  column = 1;

  private pos = 0;
  private curLine = 1;
  private lineStart = 0;
  private readonly view: DataView;
  // Binary encoding tables: defined strings and defined requests (RI 3.2 Appendix C).
  private readonly definedStrings = new Map<number, string>();
  private readonly definedRequests = new Map<number, string>();

  constructor(
    private readonly bytes: Uint8Array,
    readonly file: string,
    private readonly onStructureComment?: StructureCommentHandler,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  position(): SourcePosition {
    return { file: this.file, line: this.line, column: this.column };
  }

  /** Bytes consumed so far: lets callers prove progress. */
  get offset(): number {
    return this.pos;
  }

  /** A short description of the current token for messages. */
  describe(): string {
    switch (this.kind) {
      case 'number': return `number ${this.num}`;
      case 'string': return `string "${this.text.length > 40 ? this.text.slice(0, 40) + '...' : this.text}"`;
      case 'name': return `request name ${this.text}`;
      case 'open': return "'['";
      case 'close': return "']'";
      case 'floats': return `binary float array of ${this.floats.length}`;
      case 'bad': return this.text;
      case 'eof': return 'end of file';
    }
  }

  next(): TokenKind {
    const b = this.bytes;
    const end = b.length;
    for (;;) {
      if (this.pos >= end) {
        this.line = this.curLine;
        this.column = this.pos - this.lineStart + 1;
        return this.set('eof');
      }
      const c = b[this.pos]!;
      if (c === 10) {
        this.pos++;
        this.curLine++;
        this.lineStart = this.pos;
        continue;
      }
      if (charClass[c]! & WHITESPACE) {
        this.pos++;
        continue;
      }
      this.line = this.curLine;
      this.column = this.pos - this.lineStart + 1;
      if (c === 35) {
        this.skipComment();
        continue;
      }
      if (c === 34) return this.lexString();
      if (c === 91) { this.pos++; return this.set('open'); }
      if (c === 93) { this.pos++; return this.set('close'); }
      if (c >= 0x80) return this.lexBinary();
      if (isDigit(c) || c === 45 || c === 43 || c === 46) return this.lexNumber();
      if (isNameStart(c)) return this.lexName();
      const word = this.skipWord();
      return this.bad(`unexpected characters '${word}'`);
    }
  }

  private set(kind: TokenKind): TokenKind {
    this.kind = kind;
    return kind;
  }

  private bad(message: string): TokenKind {
    this.text = message;
    return this.set('bad');
  }

  private latin1(from: number, to: number): string {
    let s = '';
    for (let i = from; i < to; i++) s += String.fromCharCode(this.bytes[i]!);
    return s;
  }

  /** Consumes up to the next delimiter (at least one byte) and returns what was consumed. */
  private skipWord(): string {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.bytes.length && !(charClass[this.bytes[this.pos]!]! & DELIMITER)) this.pos++;
    const word = this.latin1(start, Math.min(this.pos, start + 40));
    return this.pos - start > 40 ? word + '...' : word;
  }

  private atDelimiter(): boolean {
    return this.pos >= this.bytes.length || (charClass[this.bytes[this.pos]!]! & DELIMITER) !== 0;
  }

  private skipComment(): void {
    const b = this.bytes;
    const start = this.pos;
    let eol = start;
    while (eol < b.length && b[eol] !== 10) eol++;
    if (this.onStructureComment && b[start + 1] === 35) {
      const text = utf8.decode(b.subarray(start + 2, eol)).replace(/\r$/, '');
      this.onStructureComment(text, this.position());
    }
    this.pos = eol;
  }

  private lexName(): TokenKind {
    const start = this.pos;
    while (this.pos < this.bytes.length && isNameChar(this.bytes[this.pos]!)) this.pos++;
    if (!this.atDelimiter()) {
      this.pos = start;
      return this.bad(`bad request name '${this.skipWord()}'`);
    }
    this.text = this.latin1(start, this.pos);
    return this.set('name');
  }

  private lexNumber(): TokenKind {
    const b = this.bytes;
    const start = this.pos;
    let p = start;
    let negative = false;
    if (b[p] === 45 || b[p] === 43) negative = b[p++] === 45;
    let mantissa = 0;
    let digits = 0;
    let fractionDigits = 0;
    let integer = true;
    while (p < b.length && isDigit(b[p]!)) { mantissa = mantissa * 10 + (b[p++]! - 48); digits++; }
    if (b[p] === 46) {
      integer = false;
      p++;
      while (p < b.length && isDigit(b[p]!)) { mantissa = mantissa * 10 + (b[p++]! - 48); digits++; fractionDigits++; }
    }
    let exponent = 0;
    let exponentOk = true;
    if (digits > 0 && (b[p] === 101 || b[p] === 69)) {
      integer = false;
      p++;
      let expNegative = false;
      if (b[p] === 45 || b[p] === 43) expNegative = b[p++] === 45;
      exponentOk = p < b.length && isDigit(b[p]!);
      while (p < b.length && isDigit(b[p]!)) { if (exponent < 100000) exponent = exponent * 10 + (b[p]! - 48); p++; }
      if (expNegative) exponent = -exponent;
    }
    this.pos = p;
    if (digits === 0 || !exponentOk || !this.atDelimiter()) {
      this.pos = start;
      return this.bad(`bad number '${this.skipWord()}'`);
    }
    // Exact fast path (both operands exactly representable, one rounding); otherwise the
    // platform's correctly rounded parser.
    const e10 = exponent - fractionDigits;
    let value: number;
    if (digits <= 15 && e10 >= -22 && e10 <= 22) {
      value = e10 >= 0 ? mantissa * POW10[e10]! : mantissa / POW10[-e10]!;
      if (negative) value = -value;
    } else {
      value = Number.parseFloat(this.latin1(start, p));
    }
    this.num = value;
    this.isInteger = integer;
    return this.set('number');
  }

  private lexString(): TokenKind {
    const b = this.bytes;
    const quoteLine = this.curLine;
    let p = this.pos + 1;
    // Fast path: plain ASCII with no escapes and no newlines.
    let q = p;
    while (q < b.length && b[q] !== 34 && b[q] !== 92 && b[q] !== 10 && b[q]! < 0x80) q++;
    if (q < b.length && b[q] === 34) {
      this.text = this.latin1(p, q);
      this.pos = q + 1;
      return this.set('string');
    }
    const out: number[] = [];
    while (p < b.length) {
      const c = b[p]!;
      if (c === 34) {
        this.text = utf8.decode(new Uint8Array(out));
        this.pos = p + 1;
        return this.set('string');
      }
      if (c === 10) {
        this.curLine++;
        this.lineStart = p + 1;
        out.push(c);
        p++;
        continue;
      }
      if (c !== 92) {
        out.push(c);
        p++;
        continue;
      }
      // Escape sequence.
      const e = b[p + 1];
      if (e === undefined) break;
      if (e === 10) {
        // Line continuation: backslash-newline vanishes.
        this.curLine++;
        this.lineStart = p + 2;
        p += 2;
      } else if (e >= 48 && e <= 55) {
        let value = 0;
        let n = 0;
        p++;
        while (n < 3 && p < b.length && b[p]! >= 48 && b[p]! <= 55) { value = value * 8 + (b[p]! - 48); p++; n++; }
        out.push(value & 0xff);
      } else {
        out.push(escapes[e] ?? e);
        p += 2;
      }
    }
    // Unterminated: report at the opening quote and resume on the line after it, so one stray
    // quote does not swallow the rest of the file.
    let eol = this.pos;
    while (eol < b.length && b[eol] !== 10) eol++;
    this.pos = Math.min(eol + 1, b.length);
    this.curLine = quoteLine + (eol < b.length ? 1 : 0);
    this.lineStart = this.pos;
    return this.bad('unterminated string');
  }

  // ---- Binary encoding ----

  /** Reads an unsigned big-endian integer of n bytes, or -1 when the file ends first. */
  private readUnsigned(n: number): number {
    if (this.pos + n > this.bytes.length) return -1;
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + this.bytes[this.pos + i]!;
    this.pos += n;
    return v;
  }

  private truncated(): TokenKind {
    this.pos = this.bytes.length;
    return this.bad('truncated binary RIB');
  }

  /** Reads a string token of any encoding (binary or quoted ASCII) for definitions. */
  private readStringOperand(): string | null {
    while (this.pos < this.bytes.length && charClass[this.bytes[this.pos]!]! & WHITESPACE) this.pos++;
    const kind = this.next();
    return kind === 'string' ? this.text : null;
  }

  private lexBinary(): TokenKind {
    const b = this.bytes;
    const code = b[this.pos++]!;
    if (code <= 0x8f) {
      // Integer (d = 0) or fixed-point with d fraction bytes; w + 1 bytes, signed big-endian.
      const size = (code & 3) + 1;
      const fractionBytes = (code >> 2) & 3;
      const raw = this.readUnsigned(size);
      if (raw < 0) return this.truncated();
      const signed = raw >= 2 ** (8 * size - 1) ? raw - 2 ** (8 * size) : raw;
      this.num = signed / 2 ** (8 * fractionBytes);
      this.isInteger = fractionBytes === 0;
      return this.set('number');
    }
    if (code <= 0x9f) return this.binaryString(code - 0x90);
    if (code <= 0xa3) {
      const length = this.readUnsigned(code - 0xa0 + 1);
      if (length < 0) return this.truncated();
      return this.binaryString(length);
    }
    if (code === 0xa4 || code === 0xa5) {
      const size = code === 0xa4 ? 4 : 8;
      if (this.pos + size > b.length) return this.truncated();
      this.num = size === 4 ? this.view.getFloat32(this.pos) : this.view.getFloat64(this.pos);
      this.pos += size;
      this.isInteger = false;
      return this.set('number');
    }
    if (code === 0xa6) {
      const id = this.readUnsigned(1);
      if (id < 0) return this.truncated();
      const name = this.definedRequests.get(id);
      if (name === undefined) return this.bad(`binary request code ${id} was never defined`);
      this.text = name;
      return this.set('name');
    }
    if (code >= 0xc8 && code <= 0xcb) {
      const count = this.readUnsigned(code - 0xc8 + 1);
      if (count < 0 || this.pos + count * 4 > b.length) return this.truncated();
      const floats = new Array<number>(count);
      for (let i = 0; i < count; i++) floats[i] = this.view.getFloat32(this.pos + i * 4);
      this.pos += count * 4;
      this.floats = floats;
      return this.set('floats');
    }
    if (code === 0xcc) {
      const id = this.readUnsigned(1);
      if (id < 0) return this.truncated();
      const name = this.readStringOperand();
      if (name === null) return this.kind === 'bad' ? 'bad' : this.bad('binary request definition lacks its name');
      this.definedRequests.set(id, name);
      return this.next();
    }
    if (code === 0xcd || code === 0xce) {
      const id = this.readUnsigned(code - 0xcd + 1);
      if (id < 0) return this.truncated();
      const text = this.readStringOperand();
      if (text === null) return this.kind === 'bad' ? 'bad' : this.bad('binary string definition lacks its string');
      this.definedStrings.set(id, text);
      return this.next();
    }
    if (code === 0xcf || code === 0xd0) {
      const id = this.readUnsigned(code - 0xcf + 1);
      if (id < 0) return this.truncated();
      const text = this.definedStrings.get(id);
      if (text === undefined) return this.bad(`binary string ${id} was never defined`);
      this.text = text;
      return this.set('string');
    }
    return this.bad(`reserved binary code 0x${code.toString(16)}`);
  }

  private binaryString(length: number): TokenKind {
    if (this.pos + length > this.bytes.length) return this.truncated();
    this.text = utf8.decode(this.bytes.subarray(this.pos, this.pos + length));
    this.pos += length;
    return this.set('string');
  }
}

/** A token as a plain object: for tests and tools, not the hot path. */
export interface Token {
  kind: TokenKind;
  value?: number | string | number[];
  isInteger?: boolean;
  line: number;
  column: number;
}

export function tokenize(bytes: Uint8Array, file = '<input>'): Token[] {
  const lexer = new RibLexer(bytes, file);
  const tokens: Token[] = [];
  for (;;) {
    const kind = lexer.next();
    const token: Token = { kind, line: lexer.line, column: lexer.column };
    if (kind === 'number') { token.value = lexer.num; token.isInteger = lexer.isInteger; }
    else if (kind === 'string' || kind === 'name' || kind === 'bad') token.value = lexer.text;
    else if (kind === 'floats') token.value = lexer.floats;
    tokens.push(token);
    if (kind === 'eof') return tokens;
  }
}
