// Evaluates the WGSL expression templates of IR `call` instructions ("pow($0, vec3f($1))",
// "$0[u32($1)][u32($2)]", "rsl_transform_point(frame.toCurrent[2], $0)"): numbers, $k arguments,
// calls, + - * /, unary minus, indexing, .x/.y/.z and frame.toCurrent / frame.fromCurrent / frame.time.
// Anything else is an error, so a template the interpreter does not know cannot pass silently.
import { FUNCTIONS } from './functions.ts';
import type { CallEnv } from './functions.ts';
import type { Value } from './values.ts';
import { arithmetic, isMatrix, lift, num, vec } from './values.ts';

type Node =
  | { kind: 'number'; value: number }
  | { kind: 'arg'; index: number }
  | { kind: 'call'; name: string; args: Node[] }
  | { kind: 'name'; name: string }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; a: Node; b: Node }
  | { kind: 'neg'; a: Node }
  | { kind: 'index'; target: Node; index: Node }
  | { kind: 'member'; target: Node; name: string };

const TOKEN = /\s*(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?u?|\$\d+|[A-Za-z_]\w*|[-+*/(),[\].])/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`template "${text}": cannot read at ${TOKEN.lastIndex}`);
    tokens.push(m[1]!);
  }
  return tokens;
}

class Parser {
  private k = 0;
  constructor(private readonly tokens: string[], private readonly text: string) {}

  parse(): Node {
    const node = this.additive();
    if (this.k !== this.tokens.length) throw new Error(`template "${this.text}": unexpected '${this.tokens[this.k]}'`);
    return node;
  }

  private peek(): string | undefined {
    return this.tokens[this.k];
  }

  private expect(t: string): void {
    if (this.tokens[this.k] !== t) throw new Error(`template "${this.text}": expected '${t}'`);
    this.k++;
  }

  private additive(): Node {
    let node = this.multiplicative();
    while (this.peek() === '+' || this.peek() === '-') {
      const op = this.tokens[this.k++] as '+' | '-';
      node = { kind: 'binary', op, a: node, b: this.multiplicative() };
    }
    return node;
  }

  private multiplicative(): Node {
    let node = this.unary();
    while (this.peek() === '*' || this.peek() === '/') {
      const op = this.tokens[this.k++] as '*' | '/';
      node = { kind: 'binary', op, a: node, b: this.unary() };
    }
    return node;
  }

  private unary(): Node {
    if (this.peek() === '-') {
      this.k++;
      return { kind: 'neg', a: this.unary() };
    }
    let node = this.primary();
    for (;;) {
      if (this.peek() === '[') {
        this.k++;
        const index = this.additive();
        this.expect(']');
        node = { kind: 'index', target: node, index };
      } else if (this.peek() === '.') {
        this.k++;
        node = { kind: 'member', target: node, name: this.tokens[this.k++] ?? '' };
      } else return node;
    }
  }

  private primary(): Node {
    const t = this.tokens[this.k++];
    if (t === undefined) throw new Error(`template "${this.text}": unexpected end`);
    if (t === '(') {
      const node = this.additive();
      this.expect(')');
      return node;
    }
    if (t.startsWith('$')) return { kind: 'arg', index: Number(t.slice(1)) };
    if (/^\d/.test(t)) return { kind: 'number', value: Number(t.replace(/u$/, '')) };
    if (this.peek() === '(') {
      this.k++;
      const args: Node[] = [];
      while (this.peek() !== ')') {
        args.push(this.additive());
        if (this.peek() === ',') this.k++;
      }
      this.k++;
      return { kind: 'call', name: t, args };
    }
    return { kind: 'name', name: t };
  }
}

const cache = new Map<string, Node>();

function parseTemplate(text: string): Node {
  let node = cache.get(text);
  if (!node) {
    node = new Parser(tokenize(text), text).parse();
    cache.set(text, node);
  }
  return node;
}

export interface TemplateEnv extends CallEnv {
  /** Column-major matrices space k → camera, and their inverses. */
  toCurrent: number[][];
  fromCurrent: number[][];
  time: number;
}

const SWIZZLE: Record<string, number> = { x: 0, y: 1, z: 2, w: 3 };

type Evaluated = Value | number[][];

export function evaluateTemplate(template: string, args: Value[], env: TemplateEnv): Value {
  const result = evaluate(parseTemplate(template), args, env);
  if (Array.isArray(result) && Array.isArray(result[0])) throw new Error(`template "${template}" gives a list of matrices`);
  return result as Value;
}

function evaluate(node: Node, args: Value[], env: TemplateEnv): Evaluated {
  const value = (n: Node): Value => {
    const x = evaluate(n, args, env);
    if (Array.isArray(x) && Array.isArray(x[0])) throw new Error('a list of matrices is not a value');
    return x as Value;
  };
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'arg': {
      const a = args[node.index];
      if (a === undefined) throw new Error(`template argument $${node.index} is missing`);
      return a;
    }
    case 'name':
      throw new Error(`unknown name '${node.name}' in a template`);
    case 'call': {
      const f = FUNCTIONS[node.name];
      if (!f) throw new Error(`the interpreter does not know the function '${node.name}'`);
      return f(node.args.map(value), env);
    }
    case 'binary':
      return arithmetic(node.op, value(node.a), value(node.b));
    case 'neg':
      return lift((x) => -x, value(node.a));
    case 'member': {
      if (node.target.kind === 'name' && node.target.name === 'frame') {
        if (node.name === 'toCurrent') return env.toCurrent;
        if (node.name === 'fromCurrent') return env.fromCurrent;
        if (node.name === 'time') return env.time;
        throw new Error(`unknown frame field '${node.name}'`);
      }
      const k = SWIZZLE[node.name];
      if (k === undefined) throw new Error(`unknown member '.${node.name}'`);
      return num(vec(value(node.target))[k]);
    }
    case 'index': {
      const target = evaluate(node.target, args, env);
      const k = num(value(node.index));
      if (Array.isArray(target) && Array.isArray(target[0])) return (target as number[][])[k] ?? fail(`frame matrix ${k}`);
      const t = target as Value;
      // A matrix index is a column (vec4), as in WGSL.
      if (isMatrix(t)) return t.slice(k * 4, k * 4 + 4);
      const c = vec(t)[k];
      return c ?? fail(`component ${k} of ${JSON.stringify(t)}`);
    }
  }
}

function fail(what: string): never {
  throw new Error(`index out of range: ${what}`);
}
