// Seeded mutation fuzzing of the two front ends, shared by the CI test (test/rib/fuzz.test.ts)
// and longer campaigns (scripts/fuzz.ts). RIB mutants come from the scenes under scenes/, RSL
// mutants from the standard shaders and the corpus. What counts as a failure:
// - RIB: parsing throws, takes over RIB_TIME_MS, or reports a diagnostic without a position;
// - RSL: compiling throws anything but RslCompileError, takes over RSL_TIME_MS, a diagnostic has
//   no position, or (with a device) Dawn rejects the WGSL of a shader that compiled.
// The same seed gives the same mutants, so a failure reproduces from (kind, seed, index).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRibSync } from '../src/rib/index.ts';
import { compilePipeline } from '../src/rsl/compile.ts';
import { RslCompileError } from '../src/rsl/diagnostics.ts';

export const RIB_TIME_MS = 2000;
export const RSL_TIME_MS = 5000;

export interface Mutant {
  kind: 'rib' | 'rsl';
  /** The source it was made from and how: "ribtools/teapot.rib flip". */
  origin: string;
  /** Its place in the campaign: with the seed, enough to make it again. */
  index: number;
  bytes: Uint8Array;
}

export interface Failure {
  mutant: Mutant;
  /** What went wrong, with the stack where there is one. */
  trace: string;
}

/** mulberry32: a small seeded generator, so campaigns reproduce. */
export function random(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Mutation = (b: Uint8Array, r: () => number, vocabulary: readonly string[]) => Uint8Array;
const at = (b: Uint8Array, r: () => number): number => Math.floor(r() * b.length);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function splice(b: Uint8Array, from: number, to: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(from + insert.length + b.length - to);
  out.set(b.subarray(0, from), 0);
  out.set(insert, from);
  out.set(b.subarray(to), from + insert.length);
  return out;
}

/** Byte and token damage, the same for both languages; `vocabulary` holds words worth inserting. */
const MUTATIONS: Record<string, Mutation> = {
  flip(b, r) {
    const out = b.slice();
    for (let i = 0; i < 1 + Math.floor(r() * 8); i++) out[at(b, r)] = Math.floor(r() * 256);
    return out;
  },
  cut(b, r) {
    return b.slice(0, at(b, r));
  },
  duplicate(b, r) {
    const from = at(b, r);
    const to = Math.min(b.length, from + Math.floor(r() * 2000));
    const p = at(b, r);
    return splice(b, p, p, b.slice(from, to));
  },
  swapTokens(b, r) {
    const tokens = decoder.decode(b).split(/(\s+)/);
    for (let k = 0; k < 4; k++) {
      const i = Math.floor(r() * tokens.length), j = Math.floor(r() * tokens.length);
      [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
    }
    return encoder.encode(tokens.join(''));
  },
  insertWord(b, r, vocabulary) {
    let out = b;
    for (let k = 0; k < 1 + Math.floor(r() * 3); k++) {
      const p = at(out, r);
      out = splice(out, p, p, encoder.encode(` ${vocabulary[Math.floor(r() * vocabulary.length)]!} `));
    }
    return out;
  },
  numbers(b, r) {
    // Numbers replaced by ones at the edges of what a 32-bit float holds.
    const edges = ['1e40', '-1e39', '0', '-0', '1e-50', '65536', '3.4028235e38', '16777217', '0.000001', '4294967296'];
    return encoder.encode(decoder.decode(b).replace(/\b\d+(\.\d*)?\b/g, (n) => (r() < 0.2 ? edges[Math.floor(r() * edges.length)]! : n)));
  },
  lines(b, r) {
    // A line copied elsewhere, or wrapped in a loop or a condition: still mostly valid code.
    const lines = decoder.decode(b).split('\n');
    const i = Math.floor(r() * lines.length), j = Math.floor(r() * lines.length);
    const wraps = [(l: string) => l, (l: string) => `if (s < 0.5) { ${l} }`, (l: string) => `while (1) { ${l} }`, (l: string) => `for (;;) { ${l} break; }`];
    lines.splice(j, 0, wraps[Math.floor(r() * wraps.length)]!(lines[i]!));
    return encoder.encode(lines.join('\n'));
  },
  repeat(b, r) {
    // A span repeated many times: deep nesting, long sums, many requests.
    const from = at(b, r);
    const span = b.subarray(from, Math.min(b.length, from + 1 + Math.floor(r() * 12)));
    const times = 10 + Math.floor(r() * 3000);
    const out = new Uint8Array(span.length * times);
    for (let k = 0; k < times; k++) out.set(span, k * span.length);
    return splice(b, from, from, out);
  },
};

const RIB_WORDS = [
  '[', ']', '"', 'AttributeBegin', 'AttributeEnd', 'TransformBegin', 'WorldBegin', 'WorldEnd', 'FrameBegin 1', 'FrameEnd',
  'ObjectBegin 1', 'ObjectEnd', 'ObjectInstance 1', 'MotionBegin [0 1]', 'MotionEnd', 'SolidBegin "union"', 'SolidEnd',
  'ReadArchive "x.rib"', 'Sphere 1 -1 1 360', 'Scale 1e30 1e30 1e30', 'Translate 1e999 0 0', 'Format 100000 100000 1',
  '"P"', '"uniform float Kd"', 'nan', 'inf', '-0', '1e-45', '1e39', '99999999999', '#', '\\', '\n', '"\\', '\u0080', '\u00ff',
  'Declare "x" "varying float"', 'Option "limits" "gpumemory" [-1]', 'Option "searchpath" "archive" ["/"]', 'PixelSamples 0 0',
];

const RSL_WORDS = [
  '{', '}', '(', ')', ';', ',', '=', '+', '-', '*', '/', '.', '^', '?', ':', '[', ']', '"', '#', '#define X X', '#include "x.h"',
  'if (s < 0.5)', 'else', 'while (1)', 'for (;;)', 'break', 'continue', 'break 2', 'return', 'illuminance (P)', 'Du(s)',
  'float', 'color', 'point', 'matrix', 'string', 'uniform', 'varying', 'output', 'extern', 'float a[70000];', '1e40', '-1e39',
  '0x7f', 'nan', '1e-50', 'Ci', 'Oi', 'P', 'N', 'L', 'Cl', 'noise(P)', 'texture("x")', 'transform("nowhere", P)', 'sqrt(-1)',
];

export interface Source {
  name: string;
  bytes: Uint8Array;
}

/** The scenes mutants are made from: each cut to its first 40 kB (damage matters, size does not). */
export function ribSources(root = 'scenes'): Source[] {
  const out: Source[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.rib')) out.push({ name: path.relative(root, file), bytes: new Uint8Array(readFileSync(file)).subarray(0, 40_000) });
    }
  };
  walk(root);
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The shaders RSL mutants are made from: the standard shaders and the corpus. */
export function rslSources(root = 'shaders'): Source[] {
  const read = (dir: string): Source[] => readdirSync(dir).filter((f) => f.endsWith('.sl')).sort()
    .map((f) => ({ name: path.join(path.relative(root, dir), f), bytes: new Uint8Array(readFileSync(path.join(dir, f))) }));
  return [...read(root), ...read(path.join(root, 'corpus'))];
}

/** Mutant `index` of a campaign with `seed`: the same arguments give the same bytes. */
export function mutant(kind: 'rib' | 'rsl', sources: readonly Source[], seed: number, index: number): Mutant {
  const r = random((seed * 0x9e3779b1) ^ (index * 0x85ebca6b) ^ (kind === 'rib' ? 0 : 0x5bd1e995));
  // Half the shader mutants are mild (numbers, lines), so that many still compile and reach Dawn.
  const names = kind === 'rsl' && r() < 0.5 ? ['numbers', 'lines'] : Object.keys(MUTATIONS);
  const source = sources[Math.floor(r() * sources.length)]!;
  const name = names[Math.floor(r() * names.length)]!;
  const bytes = MUTATIONS[name]!(source.bytes, r, kind === 'rib' ? RIB_WORDS : RSL_WORDS);
  return { kind, origin: `${source.name} ${name}`, index, bytes };
}

function stack(error: unknown): string {
  return error instanceof Error ? error.stack ?? `${error.name}: ${error.message}` : String(error);
}

/** Why a RIB mutant fails, or undefined when the parser handled it. */
export function checkRib(m: Mutant): string | undefined {
  const fileName = `mutant-${m.index}.rib`;
  const start = performance.now();
  let scene;
  try {
    scene = parseRibSync(m.bytes, { fileName });
  } catch (error) {
    return `parseRibSync threw: ${stack(error)}`;
  }
  const ms = performance.now() - start;
  if (ms > RIB_TIME_MS) return `parsing took ${ms.toFixed(0)} ms (limit ${RIB_TIME_MS})`;
  for (const d of [...scene.errors, ...scene.warnings]) {
    if (d.file === undefined || !(d.line >= 1) || !(d.column >= 1) || d.message.length === 0) return `diagnostic without a position: ${JSON.stringify(d)}`;
  }
  return undefined;
}

/** The WGSL errors Dawn reports for `code` (its front end only: no pipeline is built). */
export async function dawnErrors(device: GPUDevice, code: string): Promise<string[]> {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const scoped = await device.popErrorScope();
  const errors = info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`);
  if (errors.length === 0 && scoped) errors.push(scoped.message);
  return errors;
}

/** Why an RSL mutant fails (trace), or nothing when the compiler handled it; with a device, Dawn
 * checks the WGSL of what compiled. */
export async function checkRsl(m: Mutant, device?: GPUDevice): Promise<{ trace?: string; compiled: boolean }> {
  const source = decoder.decode(m.bytes);
  const start = performance.now();
  let code: string;
  try {
    code = compilePipeline({ surface: { source, file: `mutant-${m.index}.sl` }, lights: ['pointlight'] }).code;
  } catch (error) {
    const ms = performance.now() - start;
    if (!(error instanceof RslCompileError)) return { trace: `compilePipeline threw ${stack(error)}`, compiled: false };
    if (ms > RSL_TIME_MS) return { trace: `compiling took ${ms.toFixed(0)} ms (limit ${RSL_TIME_MS})`, compiled: false };
    const unplaced = error.diagnostics.find((d) => !(d.line >= 1) || !(d.column >= 1));
    return unplaced ? { trace: `diagnostic without a position: ${JSON.stringify(unplaced)}`, compiled: false } : { compiled: false };
  }
  const ms = performance.now() - start;
  if (ms > RSL_TIME_MS) return { trace: `compiling took ${ms.toFixed(0)} ms (limit ${RSL_TIME_MS})`, compiled: true };
  if (!device) return { compiled: true };
  const errors = await dawnErrors(device, code);
  return errors.length > 0 ? { trace: `Dawn rejects the compiled WGSL:\n${errors.join('\n')}`, compiled: true } : { compiled: true };
}

export interface CampaignReport {
  rib: number;
  rsl: number;
  /** RSL mutants that compiled (and whose WGSL Dawn checked, with a device). */
  compiled: number;
  failures: Failure[];
}

/** Runs `rib` RIB and `rsl` RSL mutants of `seed` from index `first`, stopping early when `until` (a time) passes. */
export async function runCampaign(options: {
  seed: number; rib: number; rsl: number; first?: number; device?: GPUDevice; until?: number; onFailure?: (f: Failure) => void;
  /** Called before each mutant is checked (a watchdog notes what is running). */
  onMutant?: (m: Mutant) => void;
}): Promise<CampaignReport> {
  const report: CampaignReport = { rib: 0, rsl: 0, compiled: 0, failures: [] };
  const fail = (mutant: Mutant, trace: string): void => {
    const failure = { mutant, trace };
    report.failures.push(failure);
    options.onFailure?.(failure);
  };
  const first = options.first ?? 0;
  const ribs = ribSources();
  for (let i = first; i < first + options.rib && !(options.until && performance.now() > options.until); i++) {
    const m = mutant('rib', ribs, options.seed, i);
    options.onMutant?.(m);
    const trace = checkRib(m);
    if (trace) fail(m, trace);
    report.rib++;
  }
  const shaders = rslSources();
  for (let i = first; i < first + options.rsl && !(options.until && performance.now() > options.until); i++) {
    const m = mutant('rsl', shaders, options.seed, i);
    options.onMutant?.(m);
    const { trace, compiled } = await checkRsl(m, options.device);
    if (trace) fail(m, trace);
    if (compiled) report.compiled++;
    report.rsl++;
  }
  return report;
}
