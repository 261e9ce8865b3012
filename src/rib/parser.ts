// Groups tokens into requests. Positional arguments are read and type-checked from the request
// table (requests.ts); the parameter list is collected as raw name/value pairs for the scene
// builder to type, because declarations and value counts depend on the graphics state.
// A request with bad arguments is reported and skipped; reading resumes at the next request name.
//
// The methods are generators so that a request may span chunks of a streamed input: where the
// lexer answers 'more', the parser yields, its driver feeds the lexer, and the parser goes on
// where it stopped. Whole input never yields.

import type { DiagnosticSink, SourcePosition } from './diagnostics.ts';
import type { RibLexer, TokenKind } from './lexer.ts';
import { REQUESTS } from './requests.ts';
import type { ArgSpec, RequestDef } from './requests.ts';

export type ArgValue = number | string | number[] | string[];

export interface RawParam {
  /** The name as written, possibly with an inline declaration ("uniform float Kd"). */
  name: string;
  values: number[] | string[];
  pos: SourcePosition;
}

export interface RibRequest {
  name: string;
  def: RequestDef;
  /** One value per ArgSpec of def.args; a left-out optional argument is absent (shorter array). */
  args: ArgValue[];
  params: RawParam[];
  pos: SourcePosition;
}

/** Thrown inside the parser only, caught per request: carries the message and where it points. */
class ArgumentError {
  constructor(readonly message: string, readonly pos: SourcePosition) {}
}

/** What the parser's generators yield: the lexer needs its next chunk (feed() or end()). */
export type NeedInput = void;

export class RibParser {
  private started = false;

  constructor(
    private readonly lexer: RibLexer,
    private readonly diagnostics: DiagnosticSink,
  ) {}

  /** The next token, waiting for input where the lexer needs it. */
  private *advance(): Generator<NeedInput, TokenKind> {
    const lx = this.lexer;
    let kind = lx.next();
    while (kind === 'more') {
      yield;
      kind = lx.next();
    }
    return kind;
  }

  /** The next well-formed request, or null at the end of the stream. */
  *next(): Generator<NeedInput, RibRequest | null> {
    const lx = this.lexer;
    if (!this.started) {
      this.started = true;
      yield* this.advance();
    }
    for (;;) {
      if (lx.kind === 'eof') return null;
      if (lx.kind !== 'name') {
        const what = lx.kind === 'bad' ? lx.text : `expected a request name, found ${lx.describe()}`;
        this.diagnostics.error(lx.position(), null, what);
        yield* this.skipToNextRequest();
        continue;
      }
      const name = lx.text;
      const pos = lx.position();
      const def = REQUESTS.get(name);
      yield* this.advance();
      if (!def) {
        this.diagnostics.warning(pos, name, `unknown request '${name}'; skipped with its arguments`);
        yield* this.skipToNextRequest();
        continue;
      }
      try {
        const args = yield* this.readArgs(def, pos);
        const params = def.params ? yield* this.readParams() : [];
        if (lx.kind !== 'name' && lx.kind !== 'eof') {
          // The request itself is complete: report the stray tokens, drop them, keep the request
          // (dropping a WorldBegin or AttributeEnd for a stray number would unbalance the file).
          const what = lx.kind === 'bad' ? lx.text : def.params
            ? `expected a parameter name (a string), found ${lx.describe()}`
            : `too many arguments: unexpected ${lx.describe()}`;
          this.diagnostics.error(lx.position(), name, `${what}; ignored up to the next request`);
          yield* this.skipToNextRequest();
        }
        return { name, def, args, params, pos };
      } catch (e) {
        if (!(e instanceof ArgumentError)) throw e;
        this.diagnostics.error(e.pos, name, e.message);
        yield* this.skipToNextRequest();
      }
    }
  }

  /** Skips tokens up to the next request name; bad tokens in between are part of the same fault. */
  private *skipToNextRequest(): Generator<NeedInput, void> {
    const lx = this.lexer;
    while (lx.kind !== 'name' && lx.kind !== 'eof') yield* this.advance();
  }

  private *readArgs(def: RequestDef, requestPos: SourcePosition): Generator<NeedInput, ArgValue[]> {
    const lx = this.lexer;
    const args: ArgValue[] = [];
    for (let i = 0; i < def.args.length; i++) {
      const spec = def.args[i]!;
      // A string where an argument is expected starts the parameter list, unless the argument
      // takes a string; an optional array argument must be bracketed to count.
      const startsParams = def.params && lx.kind === 'string' && (spec.optional ? spec.kind !== 'string' : !this.stringCanBeArg(spec));
      const atEnd = lx.kind === 'name' || lx.kind === 'eof' || startsParams;
      if (atEnd) {
        if (spec.optional) break;
        const names = def.args.filter((a) => !a.optional).map((a) => a.name).join(' ');
        throw new ArgumentError(`expected ${def.args.filter((a) => !a.optional).length} arguments (${names}), got ${i}`, requestPos);
      }
      if ((spec.kind === 'int' || spec.kind === 'float') && (lx.kind === 'open' || lx.kind === 'floats')) {
        // RIB lets the numbers of consecutive numeric arguments come as one array
        // (`DetailRange [0 0 20 30]`, `Rotate 90 [0 0 1]`): the array fills them in order.
        const numbers = yield* this.readNumericRun(def.args, i);
        args.push(...numbers);
        i += numbers.length - 1;
        continue;
      }
      args.push(yield* this.readArg(spec, i === def.args.length - 1 || def.args[i + 1]!.optional));
    }
    return args;
  }

  /** An array standing for the numeric arguments from `first` on: as many as it holds, at least one. */
  private *readNumericRun(specs: readonly ArgSpec[], first: number): Generator<NeedInput, number[]> {
    const pos = this.lexer.position();
    let end = first;
    while (end < specs.length && (specs[end]!.kind === 'int' || specs[end]!.kind === 'float')) end++;
    const names = specs.slice(first, end).map((s) => s.name);
    const values = yield* this.readArray();
    if (values.length === 0 || typeof values[0] !== 'number') {
      throw new ArgumentError(`argument '${names[0]}' must be a number or an array of numbers (${names.join(' ')}), found ${values.length === 0 ? 'an empty array' : 'strings'}`, pos);
    }
    if (values.length > names.length) {
      throw new ArgumentError(`an array of ${values.length} numbers where ${names.length} numeric argument${names.length > 1 ? 's' : ''} (${names.join(' ')}) ${names.length > 1 ? 'are' : 'is'} expected`, pos);
    }
    const numbers = values as number[];
    numbers.forEach((value, k) => {
      const spec = specs[first + k]!;
      if (spec.kind === 'int' && !Number.isInteger(value)) throw new ArgumentError(`argument '${spec.name}' must be an integer, found ${value}`, pos);
    });
    return numbers;
  }

  /** In a request with a parameter list, a string starts that list unless the argument is a string. */
  private stringCanBeArg(spec: ArgSpec): boolean {
    return spec.kind === 'string' || spec.kind === 'basis' || spec.kind === 'handle' || spec.kind === 'string[]';
  }

  private *readArg(spec: ArgSpec, isLast: boolean): Generator<NeedInput, ArgValue> {
    const lx = this.lexer;
    const pos = lx.position();
    const wrongType = (expected: string): ArgumentError =>
      new ArgumentError(lx.kind === 'bad' ? lx.text : `argument '${spec.name}' must be ${expected}, found ${lx.describe()}`, pos);
    switch (spec.kind) {
      case 'int':
      case 'float': {
        let value: number;
        // Arrays are taken by readNumericRun before this.
        if (lx.kind === 'number') {
          value = lx.num;
          yield* this.advance();
        } else throw wrongType(spec.kind === 'int' ? 'an integer' : 'a number');
        if (spec.kind === 'int' && !Number.isInteger(value)) throw new ArgumentError(`argument '${spec.name}' must be an integer, found ${value}`, pos);
        return value;
      }
      case 'string': {
        if (lx.kind === 'string') {
          const text = lx.text;
          yield* this.advance();
          return text;
        }
        if (lx.kind === 'open') {
          const values = yield* this.readArray();
          if (values.length === 1 && typeof values[0] === 'string') return values[0];
        }
        throw wrongType('a string');
      }
      case 'handle': {
        if (lx.kind === 'string' || lx.kind === 'number') {
          const value = lx.kind === 'string' ? lx.text : lx.num;
          yield* this.advance();
          return value;
        }
        throw wrongType('a number or a string');
      }
      case 'basis': {
        if (lx.kind === 'string') {
          const text = lx.text;
          yield* this.advance();
          return text;
        }
        if (lx.kind === 'open' || lx.kind === 'floats') {
          const values = yield* this.readArray();
          if (values.length === 16 && typeof values[0] === 'number') return values;
          throw new ArgumentError(`argument '${spec.name}' must be a basis name or 16 numbers, found ${values.length} values`, pos);
        }
        throw wrongType('a basis name or 16 numbers');
      }
      case 'int[]':
      case 'float[]':
      case 'string[]': {
        const wantStrings = spec.kind === 'string[]';
        let values: number[] | string[];
        if (lx.kind === 'open' || lx.kind === 'floats') values = yield* this.readArray();
        else if (!wantStrings && lx.kind === 'number' && (spec.length !== null || isLast)) values = yield* this.readLooseNumbers(spec.length);
        else if (wantStrings && lx.kind === 'string') { values = [lx.text]; yield* this.advance(); }
        else throw wrongType(wantStrings ? 'an array of strings' : 'an array of numbers');
        if (values.length > 0 && (typeof values[0] === 'string') !== wantStrings) {
          throw new ArgumentError(`argument '${spec.name}' must be an array of ${wantStrings ? 'strings' : 'numbers'}`, pos);
        }
        if (spec.length !== null && values.length !== spec.length) {
          throw new ArgumentError(`argument '${spec.name}' must have ${spec.length} values, found ${values.length}`, pos);
        }
        if (spec.kind === 'int[]' && !(values as number[]).every(Number.isInteger)) {
          throw new ArgumentError(`argument '${spec.name}' must hold integers`, pos);
        }
        return values;
      }
    }
  }

  /** Numbers written without brackets: exactly `length` of them, or all that follow. */
  private *readLooseNumbers(length: number | null): Generator<NeedInput, number[]> {
    const lx = this.lexer;
    const values: number[] = [];
    while (lx.kind === 'number' && (length === null || values.length < length)) {
      values.push(lx.num);
      yield* this.advance();
    }
    return values;
  }

  /** Reads [ ... ] (or a binary float array); the lexer is left on the token after it. */
  private *readArray(): Generator<NeedInput, number[] | string[]> {
    const lx = this.lexer;
    if (lx.kind === 'floats') {
      const floats = lx.floats;
      yield* this.advance();
      return floats;
    }
    const open = lx.position();
    const numbers: number[] = [];
    const strings: string[] = [];
    for (;;) {
      // The hot loop of numeric scenes: numbers are taken straight from the lexer, and only a
      // chunk end (rare) goes through the generator.
      let kind = lx.readNumbers(numbers);
      if (kind === 'number') { numbers.push(lx.num); continue; }
      while (kind === 'more') {
        yield;
        kind = lx.next();
      }
      if (kind === 'number') numbers.push(lx.num);
      else if (kind === 'string') strings.push(lx.text);
      else if (kind === 'floats') for (const f of lx.floats) numbers.push(f);
      else if (kind === 'close') break;
      else if (kind === 'name' || kind === 'eof') throw new ArgumentError(`unterminated array: '[' without ']' before ${lx.describe()}`, open);
      else if (kind === 'open') throw new ArgumentError('arrays cannot be nested', lx.position());
      else throw new ArgumentError(lx.text, lx.position());
    }
    yield* this.advance();
    if (numbers.length > 0 && strings.length > 0) throw new ArgumentError('array mixes numbers and strings', open);
    return strings.length > 0 ? strings : numbers;
  }

  private *readParams(): Generator<NeedInput, RawParam[]> {
    const lx = this.lexer;
    const params: RawParam[] = [];
    while (lx.kind === 'string') {
      const name = lx.text;
      const pos = lx.position();
      const kind = yield* this.advance();
      let values: number[] | string[];
      if (kind === 'number') { values = [lx.num]; yield* this.advance(); }
      else if (kind === 'string') { values = [lx.text]; yield* this.advance(); }
      else if (kind === 'open' || kind === 'floats') values = yield* this.readArray();
      else throw new ArgumentError(kind === 'bad' ? lx.text : `parameter '${name}' has no value (found ${lx.describe()})`, kind === 'bad' ? lx.position() : pos);
      params.push({ name, values, pos });
    }
    return params;
  }
}
