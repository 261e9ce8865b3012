// One oracle case: an RSL expression over named arguments and the value the RenderMan Interface
// Specification 3.2 defines for it, computed in this folder's plain TypeScript (never from src/rsl).
// Arguments reach the kernel as shader parameters, read from the parameter block at run time, so
// neither the compiler nor the WGSL compiler can fold the expression into a constant.

export type ResultType = 'float' | 'color' | 'point' | 'vector' | 'normal' | 'matrix';

export type ArgValue =
  | number
  | { type: 'point' | 'vector' | 'normal' | 'color'; value: readonly number[] }
  | { type: 'matrix'; value: readonly number[] }
  | { type: 'string'; value: string };

export interface OracleCase {
  /** RSL expression of type `result`; its free names are the keys of `args`. */
  expr: string;
  /** Statements run before `expr` (for functions that return through output arguments). */
  setup?: string;
  result: ResultType;
  args: Record<string, ArgValue>;
  /** The expected components (1, 3 or 16, a matrix by rows). */
  expect: number[];
  /** |actual - expected| <= tolerance * max(1, |expected|) per component. */
  tolerance: number;
}

export const DEFAULT_TOLERANCE = 2e-4;

export const pt = (x: number, y: number, z: number): ArgValue => ({ type: 'point', value: [x, y, z] });
export const vc = (x: number, y: number, z: number): ArgValue => ({ type: 'vector', value: [x, y, z] });
export const nm = (x: number, y: number, z: number): ArgValue => ({ type: 'normal', value: [x, y, z] });
export const col = (r: number, g: number, b: number): ArgValue => ({ type: 'color', value: [r, g, b] });
export const mx = (rows: readonly number[]): ArgValue => ({ type: 'matrix', value: rows });
export const str = (value: string): ArgValue => ({ type: 'string', value });

/** A case; `expect` a number or a list of components. */
export function oc(result: ResultType, expr: string, args: Record<string, ArgValue>, expect: number | readonly number[], tolerance = DEFAULT_TOLERANCE): OracleCase {
  return { expr, result, args, expect: typeof expect === 'number' ? [expect] : [...expect], tolerance };
}

/** A float case whose value is a truth: 1 when `expr` (a relation) holds, else 0. */
export function truth(expr: string, args: Record<string, ArgValue>, expect: boolean): OracleCase {
  return oc('float', `(${expr}) ? 1 : 0`, args, expect ? 1 : 0);
}

export function caseName(c: OracleCase): string {
  const args = Object.entries(c.args).map(([k, v]) => `${k}=${typeof v === 'number' ? v : JSON.stringify(v.value)}`).join(', ');
  return args ? `${c.expr} [${args}]` : c.expr;
}
