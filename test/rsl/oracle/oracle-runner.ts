// Runs oracle cases through the whole compiler (preprocessor to WGSL) on Dawn. Cases are batched into
// few kernels: one surface shader holds a batch, its arguments are parameters, and grid vertex k
// (whose s is k) evaluates the case that owns output slot k, writing six floats to Ci and Oi.
import type { GpuRuntime } from '../../../src/gpu/runtime.ts';
import { compilePipeline } from '../../../src/rsl/compile.ts';
import type { CompiledPipeline, ShaderRef } from '../../../src/rsl/compile.ts';
import { shadeGrid } from '../grid-runner.ts';
import type { OracleCase } from './oracle-case.ts';

// Small kernels: the software driver's compile time grows faster than linearly with kernel size.
export const SLOTS_PER_KERNEL = 16;
const FLOATS_PER_SLOT = 6;

const slotsOf = (c: OracleCase): number => Math.ceil(c.expect.length / FLOATS_PER_SLOT);

/** Splits cases into batches of at most SLOTS_PER_KERNEL output slots. */
export function batchCases(cases: OracleCase[]): OracleCase[][] {
  const batches: OracleCase[][] = [];
  let current: OracleCase[] = [];
  let used = 0;
  for (const c of cases) {
    if (used + slotsOf(c) > SLOTS_PER_KERNEL) {
      batches.push(current);
      current = [];
      used = 0;
    }
    current.push(c);
    used += slotsOf(c);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function argDeclaration(name: string, value: OracleCase['args'][string]): string {
  if (typeof value === 'number') return `uniform float ${name} = 0`;
  if (value.type === 'string') return `uniform string ${name} = ""`;
  return `uniform ${value.type} ${name} = 0`;
}

/** Renames the case's argument names outside string literals. */
function renameArgs(expr: string, names: string[], prefix: string): string {
  return expr.split(/("[^"]*")/).map((piece, k) => {
    if (k % 2 === 1) return piece;
    return names.reduce((text, name) => text.replace(new RegExp(`\\b${name}\\b`, 'g'), `${prefix}${name}`), piece);
  }).join('');
}

const RESULT = 'oracle_result';

/** The RSL that reads component `k` of the case's result (a float expression), or 0 past its end. */
function component(c: OracleCase, k: number): string {
  if (k >= c.expect.length) return '0';
  if (c.result === 'float') return RESULT;
  if (c.result === 'matrix') return `comp(${RESULT}, ${Math.floor(k / 4)}, ${k % 4})`;
  if (c.result === 'color') return `comp(${RESULT}, ${k})`;
  return `${['x', 'y', 'z'][k]!}comp(${RESULT})`;
}

export interface BatchSource {
  source: string;
  overrides: Record<string, number[] | string>;
  /** First slot of each case. */
  firstSlot: number[];
  slots: number;
}

export function batchSource(cases: OracleCase[]): BatchSource {
  const params: string[] = [];
  const blocks: string[] = [];
  const overrides: Record<string, number[] | string> = {};
  const firstSlot: number[] = [];
  let slot = 0;
  cases.forEach((c, i) => {
    const prefix = `o${i}_`;
    const names = Object.keys(c.args);
    for (const name of names) {
      const value = c.args[name]!;
      params.push(argDeclaration(prefix + name, value));
      overrides[`surface.${prefix}${name}`] = typeof value === 'number' ? [value] : value.type === 'string' ? value.value : [...value.value];
    }
    const expr = renameArgs(c.expr, names, prefix);
    const setup = c.setup ? `${renameArgs(c.setup, names, prefix)}\n    ` : '';
    firstSlot.push(slot);
    for (let j = 0; j < slotsOf(c); j++, slot++) {
      const comps = [...Array(FLOATS_PER_SLOT).keys()].map((k) => component(c, j * FLOATS_PER_SLOT + k));
      blocks.push(`  if (s == ${slot}) {\n    ${setup}${c.result} ${RESULT} = ${expr};\n    Ci = color(${comps.slice(0, 3).join(', ')});\n    Oi = color(${comps.slice(3).join(', ')});\n  }`);
    }
  });
  return { source: `surface oracle(${params.join(';\n  ')}) {\n${blocks.join('\n')}\n}\n`, overrides, firstSlot, slots: slot };
}

/** The compile error of one case alone, or undefined when it compiles. */
export function compileError(c: OracleCase, lights: ShaderRef[] = []): string | undefined {
  try {
    compilePipeline({ surface: { source: batchSource([c]).source, file: 'oracle.sl' }, lights, maxVertices: SLOTS_PER_KERNEL });
    return undefined;
  } catch (error) {
    return String(error).split('\n').slice(0, 3).join(' / ');
  }
}

export interface CaseResult {
  case: OracleCase;
  actual: number[];
}

/** Compiles and runs one batch; the compiler's warnings come back for the test to inspect. */
export async function runBatch(runtime: GpuRuntime, cases: OracleCase[], lights: ShaderRef[] = []): Promise<{ results: CaseResult[]; compiled: CompiledPipeline }> {
  const { source, overrides, firstSlot, slots } = batchSource(cases);
  const compiled = compilePipeline({ surface: { source, file: 'oracle.sl' }, lights, maxVertices: SLOTS_PER_KERNEL });
  const grid = await shadeGrid(runtime, compiled, slots, 1, { s: [...Array(slots).keys()].map((k) => [k]) }, overrides);
  const results = cases.map((c, i) => {
    const floats = [...Array(slotsOf(c)).keys()].flatMap((j) => [...grid.Ci![firstSlot[i]! + j]!, ...grid.Oi![firstSlot[i]! + j]!]);
    return { case: c, actual: floats.slice(0, c.expect.length) };
  });
  return { results, compiled };
}

export function agrees(c: OracleCase, actual: number[]): boolean {
  return actual.length === c.expect.length && actual.every((x, k) => Math.abs(x - c.expect[k]!) <= c.tolerance * Math.max(1, Math.abs(c.expect[k]!)));
}
