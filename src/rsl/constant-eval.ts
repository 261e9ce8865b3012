// Evaluates constant expressions on the host: shader parameter defaults must be constants, since
// their values live in a GPU buffer the page edits without recompiling.
import type { Expr } from './ast.ts';

export interface ConstantValue {
  /** Components (1, 3 or 16) or, for strings, the text. */
  value: number[] | string;
  /** The coordinate or colour space of a cast, e.g. "shader" in point "shader" (0,0,0). */
  space?: string;
}

const UNARY_MATH: Record<string, (x: number) => number> = {
  radians: (x) => (x * Math.PI) / 180, degrees: (x) => (x * 180) / Math.PI, sin: Math.sin, cos: Math.cos, tan: Math.tan,
  sqrt: Math.sqrt, abs: Math.abs, exp: Math.exp, log: Math.log, floor: Math.floor, ceil: Math.ceil,
};

export function evaluateConstant(e: Expr): ConstantValue | undefined {
  switch (e.kind) {
    case 'number':
      return { value: [e.value] };
    case 'string':
      return { value: e.value };
    case 'name':
      return e.name === 'PI' ? { value: [Math.PI] } : undefined;
    case 'unary': {
      const a = evaluateConstant(e.operand);
      return a && typeof a.value !== 'string' && e.op === '-' ? { ...a, value: a.value.map((x) => -x) } : undefined;
    }
    case 'tuple': {
      const items = e.items.map(evaluateConstant);
      if (items.some((i) => !i || typeof i.value === 'string' || i.value.length !== 1)) return undefined;
      return { value: items.map((i) => (i!.value as number[])[0]!) };
    }
    case 'cast': {
      const a = evaluateConstant(e.operand);
      if (!a || typeof a.value === 'string') return a;
      let value = a.value;
      if (e.to === 'matrix' && value.length === 1) value = [...Array(16).keys()].map((k) => (k % 5 === 0 ? value[0]! : 0));
      else if (e.to !== 'float' && e.to !== 'matrix' && value.length === 1) value = [value[0]!, value[0]!, value[0]!];
      return { value, ...(e.space !== undefined ? { space: e.space } : a.space !== undefined ? { space: a.space } : {}) };
    }
    case 'binary': {
      const a = evaluateConstant(e.left);
      const b = evaluateConstant(e.right);
      if (!a || !b || typeof a.value === 'string' || typeof b.value === 'string') return undefined;
      const op = e.op;
      const f = op === '+' ? (x: number, y: number) => x + y : op === '-' ? (x: number, y: number) => x - y : op === '*' ? (x: number, y: number) => x * y : op === '/' ? (x: number, y: number) => x / y : undefined;
      if (!f) return undefined;
      const n = Math.max(a.value.length, b.value.length);
      if (n === 16 && (a.value.length === 16) === (b.value.length === 16)) return undefined;
      const av = a.value;
      const bv = b.value;
      return { value: [...Array(n).keys()].map((k) => f(av.length === 1 ? av[0]! : av[k]!, bv.length === 1 ? bv[0]! : bv[k]!)), ...(a.space ? { space: a.space } : {}) };
    }
    case 'call': {
      const fn = UNARY_MATH[e.name];
      const a = e.args[0] ? evaluateConstant(e.args[0]) : undefined;
      if (e.args.length === 1 && fn && a && typeof a.value !== 'string') return { value: a.value.map(fn) };
      return undefined;
    }
    case 'array': {
      const items = e.items.map(evaluateConstant);
      if (items.some((i) => !i || typeof i.value === 'string')) return undefined;
      return { value: items.flatMap((i) => i!.value as number[]) };
    }
    default:
      return undefined;
  }
}
