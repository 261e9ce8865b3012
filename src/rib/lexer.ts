// Streaming tokenizer for RIB. One lexer reads both encodings: ASCII RIB (bytes below 0x80) and
// the binary encoding of the RenderMan Interface 3.2, Appendix C (bytes 0x80 and above), which
// may be mixed freely in one stream. Tokens are pulled one at a time with next(); the current
// token lives in the lexer's fields so that reading millions of numbers allocates nothing.
//
// Input comes whole (the constructor's bytes) or in chunks (feed() … end()). A chunked lexer
// holds only the current chunk plus the token that straddles its end: when a token runs into the
// end of the chunk, next() answers 'more', keeps the token's bytes, and lexes the token again
// from its start once the next chunk is fed. The retry waits until twice the kept bytes are
// there, so a token spanning many small chunks still costs linear time.

import type { SourcePosition } from './diagnostics.ts';

export type TokenKind =
  | 'number' // num, isInteger
  | 'string' // text
  | 'name' // text: a request name (ASCII identifier or binary encoded request)
  | 'open' // [
  | 'close' // ]
  | 'floats' // floats: a binary-encoded float array (already bracketed)
  | 'bad' // text: what is wrong; the offending bytes are consumed
  | 'more' // chunked input only: feed() the next chunk (or end()) and call next() again
  | 'eof';

/** Internal scan results besides tokens: a comment or binary definition was consumed. */
type Scan = TokenKind | 'skip';

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

/** The longest string the lexer reads; a longer one is reported as unterminated at its start. */
export const MAX_STRING_BYTES = 1 << 20;

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

  // The bytes at hand: buf[pos..] is unread; buf[0] is at absolute offset `base` in the file.
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  private base = 0;
  /** True once no more chunks will come (always for whole input). */
  private final: boolean;
  private curLine = 1;
  /** Absolute offset of the first byte of the current line. */
  private lineStart = 0;
  // Where the token being scanned began, to rescan it when its chunk ends too early.
  private tokStart = 0;
  private tokLine = 1;
  private tokLineStart = 0;
  /** After a 'more', how many unread bytes to gather before trying again. */
  private wanted = 0;
  /** Reused buffer for a straddling token plus the chunk after it. */
  private spare: Uint8Array | null = null;
  // Binary encoding tables: defined strings and defined requests (RI 3.2 Appendix C).
  private readonly definedStrings = new Map<number, string>();
  private readonly definedRequests = new Map<number, string>();

  /**
   * `bytes` is the whole input, or with `chunked` the first chunk of it (may be empty): then
   * give the rest with feed() whenever next() answers 'more', and call end() after the last.
   */
  constructor(
    bytes: Uint8Array,
    readonly file: string,
    private readonly onStructureComment?: StructureCommentHandler,
    chunked = false,
  ) {
    this.buf = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.final = !chunked;
  }

  /** Appends the next chunk of a chunked input. The lexer keeps no reference to it once read. */
  feed(chunk: Uint8Array): void {
    if (this.final) throw new Error('RibLexer.feed after end()');
    const carry = this.buf.length - this.pos;
    if (carry === 0) {
      this.base += this.buf.length;
      this.setBuffer(chunk);
      return;
    }
    // A token straddles the chunks: copy its bytes and the new chunk into the spare buffer.
    const need = carry + chunk.length;
    let target = this.spare;
    if (target === null || target.length < need || target.length > 4 * need + 65536) {
      target = new Uint8Array(need + (need >> 2));
    }
    if (target.buffer === this.buf.buffer) target.copyWithin(0, this.buf.byteOffset + this.pos, this.buf.byteOffset + this.buf.length);
    else target.set(this.buf.subarray(this.pos), 0);
    target.set(chunk, carry);
    this.spare = target;
    this.base += this.pos;
    this.setBuffer(target.subarray(0, need));
  }

  /** Marks the end of a chunked input: what is left is lexed as the end of the file. */
  end(): void {
    this.final = true;
  }

  private setBuffer(bytes: Uint8Array): void {
    this.buf = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
  }

  position(): SourcePosition {
    return { file: this.file, line: this.line, column: this.column };
  }

  /** Bytes consumed so far: lets callers prove progress. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** Bytes held for the token in progress and the unread rest of the chunk (for tests of the bound). */
  get buffered(): number {
    return Math.max(this.buf.length, this.spare?.length ?? 0);
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
      case 'more': return 'end of the data read so far';
      case 'eof': return 'end of file';
    }
  }

  next(): TokenKind {
    for (;;) {
      const b = this.buf;
      const end = b.length;
      if (!this.final && end - this.pos < this.wanted) return (this.kind = 'more');
      let p = this.pos;
      for (;;) {
        if (p >= end) break;
        const c = b[p]!;
        if (c === 10) {
          p++;
          this.curLine++;
          this.lineStart = this.base + p;
        } else if (charClass[c]! & WHITESPACE) p++;
        else break;
      }
      this.pos = p;
      this.line = this.curLine;
      this.column = this.base + p - this.lineStart + 1;
      if (p >= end) {
        this.wanted = 0;
        return (this.kind = this.final ? 'eof' : 'more');
      }
      this.tokStart = p;
      this.tokLine = this.curLine;
      this.tokLineStart = this.lineStart;
      const kind = this.scan(b[p]!);
      if (kind !== 'more') this.wanted = 0;
      if (kind === 'skip') continue;
      if (kind === 'more') {
        // Rescan this token from its start when there is more input.
        this.pos = this.tokStart;
        this.curLine = this.tokLine;
        this.lineStart = this.tokLineStart;
        this.wanted = 2 * (end - this.tokStart);
        return (this.kind = 'more');
      }
      return (this.kind = kind);
    }
  }

  /**
   * The hot path of numeric arrays: appends the plain numbers that follow ([-]digits[.digits],
   * space- or newline-separated, complete within the chunk) to `out` without making tokens of
   * them, then reads the next token as next() does (which may still be a number in another form).
   */
  readNumbers(out: number[]): TokenKind {
    const b = this.buf;
    const end = b.length;
    let p = this.pos;
    for (;;) {
      let c = 0;
      while (p < end) {
        c = b[p]!;
        if (c === 32) p++;
        else if (c === 10) { p++; this.curLine++; this.lineStart = this.base + p; }
        else break;
      }
      const start = p;
      const negative = c === 45;
      if (negative) p++;
      let mantissa = 0;
      let digits = 0;
      let fraction = 0;
      while (p < end && (c = b[p]! - 48) >= 0 && c <= 9) { mantissa = mantissa * 10 + c; p++; digits++; }
      if (p < end && b[p] === 46) {
        p++;
        while (p < end && (c = b[p]! - 48) >= 0 && c <= 9) { mantissa = mantissa * 10 + c; p++; digits++; fraction++; }
      }
      // Anything else (exponents, long mantissas, a chunk end, bad input) is next()'s.
      const after = p < end ? b[p]! : -1;
      if (digits === 0 || digits > 15 || fraction > 22 || (after !== 32 && after !== 10 && after !== 93)) {
        this.pos = start;
        return this.next();
      }
      const value = fraction === 0 ? mantissa : mantissa / POW10[fraction]!;
      out.push(negative ? -value : value);
    }
  }

  private scan(c: number): Scan {
    if (c === 35) return this.skipComment();
    if (c === 34) return this.lexString();
    if (c === 91) { this.pos++; return 'open'; }
    if (c === 93) { this.pos++; return 'close'; }
    if (c >= 0x80) return this.lexBinary();
    if (isDigit(c) || c === 45 || c === 43 || c === 46) return this.lexNumber();
    if (isNameStart(c)) return this.lexName();
    return this.badWord('unexpected characters');
  }

  private bad(message: string): 'bad' {
    this.text = message;
    return 'bad';
  }

  private latin1(from: number, to: number): string {
    let s = '';
    for (let i = from; i < to; i++) s += String.fromCharCode(this.buf[i]!);
    return s;
  }

  /** Consumes the word at pos (up to the next delimiter, at least one byte) as a bad token. */
  private badWord(what: string): Scan {
    const b = this.buf;
    const start = this.pos;
    let p = start + 1;
    while (p < b.length && !(charClass[b[p]!]! & DELIMITER)) p++;
    if (p >= b.length && !this.final) return 'more';
    this.pos = p;
    const word = this.latin1(start, Math.min(p, start + 40));
    return this.bad(`${what} '${p - start > 40 ? word + '...' : word}'`);
  }

  private skipComment(): Scan {
    const b = this.buf;
    const start = this.pos;
    let eol = start;
    while (eol < b.length && b[eol] !== 10) eol++;
    if (eol >= b.length && !this.final) return 'more';
    if (this.onStructureComment && b[start + 1] === 35) {
      const text = utf8.decode(b.subarray(start + 2, eol)).replace(/\r$/, '');
      this.onStructureComment(text, this.position());
    }
    this.pos = eol;
    return 'skip';
  }

  private lexName(): Scan {
    const b = this.buf;
    const start = this.pos;
    let p = start;
    while (p < b.length && isNameChar(b[p]!)) p++;
    if (p >= b.length && !this.final) return 'more';
    if (p < b.length && !(charClass[b[p]!]! & DELIMITER)) return this.badWord('bad request name');
    this.text = this.latin1(start, p);
    this.pos = p;
    return 'name';
  }

  private lexNumber(): Scan {
    const b = this.buf;
    const end = b.length;
    const start = this.pos;
    let p = start;
    let negative = false;
    if (b[p] === 45 || b[p] === 43) negative = b[p++] === 45;
    let mantissa = 0;
    let digits = 0;
    let fractionDigits = 0;
    let integer = true;
    let c = 0;
    while (p < end && (c = b[p]! - 48) >= 0 && c <= 9) { mantissa = mantissa * 10 + c; digits++; p++; }
    if (b[p] === 46) {
      integer = false;
      p++;
      while (p < end && (c = b[p]! - 48) >= 0 && c <= 9) { mantissa = mantissa * 10 + c; digits++; fractionDigits++; p++; }
    }
    let exponent = 0;
    let exponentOk = true;
    if (digits > 0 && (b[p] === 101 || b[p] === 69)) {
      integer = false;
      p++;
      let expNegative = false;
      if (b[p] === 45 || b[p] === 43) expNegative = b[p++] === 45;
      exponentOk = p < end && isDigit(b[p]!);
      while (p < end && isDigit(b[p]!)) { if (exponent < 100000) exponent = exponent * 10 + (b[p]! - 48); p++; }
      if (expNegative) exponent = -exponent;
    }
    // A number ends at a delimiter; at the end of a chunk it may go on in the next one.
    if (p >= end && !this.final) return 'more';
    if (digits === 0 || !exponentOk || (p < end && !(charClass[b[p]!]! & DELIMITER))) return this.badWord('bad number');
    this.pos = p;
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
    return 'number';
  }

  private lexString(): Scan {
    const b = this.buf;
    let p = this.pos + 1;
    // Fast path: plain ASCII with no escapes and no newlines.
    let q = p;
    while (q < b.length && b[q] !== 34 && b[q] !== 92 && b[q] !== 10 && b[q]! < 0x80) q++;
    if (q < b.length && b[q] === 34) {
      this.text = this.latin1(p, q);
      this.pos = q + 1;
      return 'string';
    }
    const out: number[] = [];
    let line = this.curLine;
    let lineStart = this.lineStart;
    while (p < b.length) {
      const c = b[p]!;
      if (c === 34) {
        this.text = utf8.decode(new Uint8Array(out));
        this.pos = p + 1;
        this.curLine = line;
        this.lineStart = lineStart;
        return 'string';
      }
      if (c === 10) {
        line++;
        lineStart = this.base + p + 1;
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
        line++;
        lineStart = this.base + p + 2;
        p += 2;
      } else if (e >= 48 && e <= 55) {
        // Up to three octal digits; at a chunk end the next digit may be in the next chunk.
        let value = 0;
        let n = 0;
        p++;
        while (n < 3 && p < b.length && b[p]! >= 48 && b[p]! <= 55) { value = value * 8 + (b[p]! - 48); p++; n++; }
        if (n < 3 && p >= b.length) break;
        out.push(value & 0xff);
      } else {
        out.push(escapes[e] ?? e);
        p += 2;
      }
    }
    // No string is this long: rather than holding (and rescanning) the rest of a big file for a
    // quote that never comes, call it unterminated now.
    const tooLong = p - this.pos > MAX_STRING_BYTES;
    if (!this.final && !tooLong) return 'more';
    // Unterminated: report at the opening quote and resume on the line after it, so one stray
    // quote does not swallow the rest of the file.
    let eol = this.pos;
    while (eol < b.length && b[eol] !== 10) eol++;
    this.pos = Math.min(eol + 1, b.length);
    if (eol < b.length) {
      this.curLine++;
      this.lineStart = this.base + this.pos;
    }
    return this.bad(tooLong ? `unterminated string (no closing quote within ${MAX_STRING_BYTES >> 20} MiB)` : 'unterminated string');
  }

  // ---- Binary encoding (RI 3.2 Appendix C) ----

  /** Reads an unsigned big-endian integer of n bytes, or -1 when the input ends first. */
  private readUnsigned(n: number): number {
    if (this.pos + n > this.buf.length) return -1;
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + this.buf[this.pos + i]!;
    this.pos += n;
    return v;
  }

  /** The token needs bytes past the end of what is here: more input, or a truncated file. */
  private short(): Scan {
    if (!this.final) return 'more';
    this.pos = this.buf.length;
    return this.bad('truncated binary RIB');
  }

  /** The string operand of a definition, a binary or quoted ASCII string, into `text`. */
  private stringOperand(what: string): Scan {
    const b = this.buf;
    let p = this.pos;
    for (;;) {
      if (p >= b.length) break;
      const c = b[p]!;
      if (c === 10) { p++; this.curLine++; this.lineStart = this.base + p; }
      else if (charClass[c]! & WHITESPACE) p++;
      else break;
    }
    this.pos = p;
    if (p >= b.length) return this.final ? this.bad(`${what} lacks its string`) : 'more';
    const c = b[p]!;
    const kind = c === 34 ? this.lexString() : c >= 0x80 ? this.lexBinary() : 'none';
    return kind === 'string' || kind === 'more' || kind === 'bad' ? kind : this.bad(`${what} lacks its string`);
  }

  private lexBinary(): Scan {
    const b = this.buf;
    const code = b[this.pos++]!;
    if (code <= 0x8f) {
      // 0200 + 4d + w: a number of w + 1 big-endian bytes, d of them after the binary point.
      // The bytes form a 32-bit integer (RtInt), so only the 4-byte form can be negative;
      // shorter forms are zero-extended, as writers emit them for small non-negative values.
      const size = (code & 3) + 1;
      const fractionBytes = (code >> 2) & 3;
      const raw = this.readUnsigned(size);
      if (raw < 0) return this.short();
      const value = size === 4 ? raw | 0 : raw;
      this.num = value / 2 ** (8 * fractionBytes);
      this.isInteger = fractionBytes === 0;
      return 'number';
    }
    if (code <= 0x9f) return this.binaryString(code - 0x90);
    if (code <= 0xa3) {
      const length = this.readUnsigned(code - 0xa0 + 1);
      if (length < 0) return this.short();
      return this.binaryString(length);
    }
    if (code === 0xa4 || code === 0xa5) {
      const size = code === 0xa4 ? 4 : 8;
      if (this.pos + size > b.length) return this.short();
      this.num = size === 4 ? this.view.getFloat32(this.pos) : this.view.getFloat64(this.pos);
      this.pos += size;
      this.isInteger = false;
      return 'number';
    }
    if (code === 0xa6) {
      const id = this.readUnsigned(1);
      if (id < 0) return this.short();
      const name = this.definedRequests.get(id);
      if (name === undefined) return this.bad(`binary request code ${id} was never defined`);
      this.text = name;
      return 'name';
    }
    if (code >= 0xc8 && code <= 0xcb) {
      const count = this.readUnsigned(code - 0xc8 + 1);
      if (count < 0 || this.pos + count * 4 > b.length) return this.short();
      const floats = new Array<number>(count);
      for (let i = 0; i < count; i++) floats[i] = this.view.getFloat32(this.pos + i * 4);
      this.pos += count * 4;
      this.floats = floats;
      return 'floats';
    }
    if (code === 0xcc) {
      const id = this.readUnsigned(1);
      if (id < 0) return this.short();
      const operand = this.stringOperand('binary request definition');
      if (operand !== 'string') return operand;
      if (this.text === '') return this.bad('binary request definition with an empty name');
      this.definedRequests.set(id, this.text);
      return 'skip';
    }
    if (code === 0xcd || code === 0xce) {
      const id = this.readUnsigned(code - 0xcd + 1);
      if (id < 0) return this.short();
      const operand = this.stringOperand('binary string definition');
      if (operand !== 'string') return operand;
      this.definedStrings.set(id, this.text);
      return 'skip';
    }
    if (code === 0xcf || code === 0xd0) {
      const id = this.readUnsigned(code - 0xcf + 1);
      if (id < 0) return this.short();
      const text = this.definedStrings.get(id);
      if (text === undefined) return this.bad(`binary string ${id} was never defined`);
      this.text = text;
      return 'string';
    }
    return this.bad(`reserved binary code 0x${code.toString(16)}`);
  }

  private binaryString(length: number): Scan {
    if (this.pos + length > this.buf.length) return this.short();
    this.text = utf8.decode(this.buf.subarray(this.pos, this.pos + length));
    this.pos += length;
    return 'string';
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

/**
 * All tokens of `input`: whole bytes, or a sequence of chunks fed one by one (which must give
 * the same tokens and positions however the input is cut).
 */
export function tokenize(input: Uint8Array | Iterable<Uint8Array>, file = '<input>'): Token[] {
  const chunks = input instanceof Uint8Array ? null : input[Symbol.iterator]();
  const lexer = new RibLexer(input instanceof Uint8Array ? input : new Uint8Array(0), file, undefined, chunks !== null);
  const tokens: Token[] = [];
  for (;;) {
    const kind = lexer.next();
    if (kind === 'more') {
      const step = chunks!.next();
      if (step.done) lexer.end();
      else lexer.feed(step.value);
      continue;
    }
    const token: Token = { kind, line: lexer.line, column: lexer.column };
    if (kind === 'number') { token.value = lexer.num; token.isInteger = lexer.isInteger; }
    else if (kind === 'string' || kind === 'name' || kind === 'bad') token.value = lexer.text;
    else if (kind === 'floats') token.value = lexer.floats;
    tokens.push(token);
    if (kind === 'eof') return tokens;
  }
}
