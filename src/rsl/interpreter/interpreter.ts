// A reference interpreter for the compiler's IR on the CPU: it shades one small grid the way the
// kernel defines it, with none of the kernel's machinery. Each vertex has its own values and
// variables. The top level of the body runs in lock step (every vertex finishes one top-level
// instruction before the next starts), and so do the loops and ifs that hold derivative groups
// (relocation puts groups only where control is uniform over the grid: every vertex takes the same
// branch and runs the same iterations, which the interpreter checks). A derivative is the kernel's
// finite difference on the grid: forward in u (v), backward on the last column (row), divided by the
// vertex's du (dv) as read at entry, 0 when the grid is one vertex wide in that direction or du (dv)
// is 0.
// Clarity over speed: values are JS numbers, rounded to f32 after every IR instruction.
import { SPACES } from '../../layout/grid-layout.ts';
import type { GridLayout, SpaceName } from '../../layout/grid-layout.ts';
import type { Inst, IrModule, IrType, IrVar, LightFunction } from '../ir.ts';
import { walk } from '../ir.ts';
import { ANY_ACTIVE } from '../passes/mask-varying-loops.ts';
import { hash } from './functions.ts';
import { evaluateTemplate } from './template.ts';
import type { TemplateEnv } from './template.ts';
import type { Value } from './values.ts';
import { arithmetic, bool, cross, dot, equal, identity, inverse, lift, matMul, normalize, num, toF32, vec } from './values.ts';

/** Per-vertex values of grid variables: `grid[name][vertex]` has 1 or 3 components. */
export type GridValues = Record<string, number[][]>;

export interface InterpreterInput {
  nu: number;
  nv: number;
  /** Grid variables (inputs); missing ones read as 0. */
  grid: GridValues;
  /** The packed parameter block (packParameters). */
  params: Float32Array;
  /** Space → camera matrices (column-major, as frameUniformWords takes them); identity when absent.
   * Compiled pipelines read "shader" and "object" space from the parameter block (ParamLayout.spaceMatrices,
   * filled by packParameters), not from here. */
  toCurrent?: Partial<Record<SpaceName, ArrayLike<number>>>;
  time?: number;
  /** Index of the grid in its dispatch: seeds random() as the kernel does. */
  gridIndex?: number;
}

export interface InterpreterResult {
  /** Every grid variable after shading (inputs carried through where the pipeline does not write them). */
  grid: GridValues;
  /** Light-shader evaluations per vertex: `lightEvaluations[vertex][light index]`. */
  lightEvaluations: number[][];
}

/** What a compiled pipeline provides to run: its IR and the grid layout. */
export interface Interpretable {
  ir: IrModule;
  layout: GridLayout;
}

type Signal = { kind: 'break' | 'continue'; loop: number } | undefined;

interface Vertex {
  index: number;
  values: Map<number, Value>;
  globals: Map<number, Value | Value[]>;
  random: number;
  uniformRandom: number;
  du: number;
  dv: number;
  lightEvaluations: number[];
}

/** One activation of the kernel's main function or a light function. */
interface Activation {
  vertex: Vertex;
  locals: Map<number, Value | Value[]>;
  light?: { fn: LightFunction; ok: boolean };
}

const LOOP_LIMIT = 100000;

function zero(type: IrType): Value {
  switch (type) {
    case 'f32':
    case 'u32':
      return 0;
    case 'bool':
      return false;
    case 'vec3':
      return [0, 0, 0];
    case 'mat4':
      return new Array<number>(16).fill(0);
  }
}

function constant(type: IrType, value: number[]): Value {
  switch (type) {
    case 'f32':
    case 'u32':
      return value[0] ?? 0;
    case 'bool':
      return !!value[0];
    case 'vec3':
      return [0, 1, 2].map((k) => value[k] ?? value[0] ?? 0);
    case 'mat4':
      return value.length === 16 ? [...value] : identity().map((x) => x * (value[0] ?? 0));
  }
}

/** Values the kernel gives the frame-level globals (E, ncomps, time, ...). */
function frameGlobal(name: string, time: number): Value | undefined {
  const table: Record<string, Value> = {
    frame_E: [0, 0, 0], frame_ncomps: 3, frame_time: time, frame_dtime: 0, frame_dPdtime: [0, 0, 0], frame_alpha: 1,
  };
  return table[name];
}

/** illuminance("cat") sees lights whose __category lists cat; "-cat" those that do not. */
function seesLight(category: string | undefined, light: LightFunction): boolean {
  if (!category) return true;
  return category.startsWith('-') ? !light.categories.includes(category.slice(1)) : light.categories.includes(category);
}

/** The angle between l and axis is at most `angle` (with the kernel's 1e-6 slack). */
function withinCone(l: number[], axis: number[], angle: number): boolean {
  const c = Math.min(1, Math.max(-1, dot(normalize(l), normalize(axis))));
  return Math.acos(c) <= angle + 1e-6;
}

export function interpret(pipeline: Interpretable, input: InterpreterInput): InterpreterResult {
  return new Interpreter(pipeline, input).run();
}

class Interpreter {
  private readonly module: IrModule;
  private readonly layout: GridLayout;
  private readonly vertices: Vertex[];
  private readonly env: (vertex: Vertex) => TemplateEnv;

  constructor(pipeline: Interpretable, private readonly input: InterpreterInput) {
    this.module = pipeline.ir;
    this.layout = pipeline.layout;
    const count = input.nu * input.nv;
    if (count < 1 || count > this.layout.maxVertices) throw new Error(`a ${input.nu}×${input.nv} grid does not fit ${this.layout.maxVertices} vertices`);
    const toCurrent = SPACES.map((s) => (input.toCurrent?.[s] ? Array.from(input.toCurrent[s]) : identity()));
    // The kernel reads f32 matrices; round them so both see the same numbers.
    const rounded = toCurrent.map((m) => m.map(Math.fround));
    const fromCurrent = rounded.map((m) => inverse(m).map(Math.fround));
    const words = new Uint32Array(input.params.buffer, input.params.byteOffset, input.params.length);
    const time = input.time ?? 0;
    this.env = (vertex) => ({
      toCurrent: rounded, fromCurrent, time,
      paramFloat: (w) => input.params[w] ?? 0,
      paramWord: (w) => words[w] ?? 0,
      nextRandom: () => {
        vertex.random = hash((vertex.random + 0x9e3779b9) >>> 0);
        return vertex.random;
      },
      nextUniformRandom: () => {
        vertex.uniformRandom = hash((vertex.uniformRandom + 0x9e3779b9) >>> 0);
        return vertex.uniformRandom;
      },
    });
    const gi = input.gridIndex ?? 0;
    this.vertices = [...Array(count).keys()].map((k) => ({
      index: k, values: new Map(), globals: new Map(), random: hash((gi * 65536 + k) >>> 0), uniformRandom: hash((gi ^ 0x85ebca6b) >>> 0),
      du: Math.fround(input.grid.du?.[k]?.[0] ?? 0), dv: Math.fround(input.grid.dv?.[k]?.[0] ?? 0),
      lightEvaluations: this.module.lights.map(() => 0),
    }));
  }

  run(): InterpreterResult {
    const globals = [...this.module.vars.values()].filter((v) => v.kind === 'global');
    for (const vertex of this.vertices) {
      for (const g of globals) vertex.globals.set(g.id, this.initialGlobal(g, vertex.index));
    }
    const activations = this.vertices.map((vertex) => ({ vertex, locals: new Map() }));
    const signal = this.lockstep(this.module.main, activations);
    if (signal) throw new Error(`${signal.kind} of loop ${signal.loop} outside its loop`);
    // Write back the grid variables the pipeline assigns, as the kernel does.
    const written = new Set<number>();
    walk(this.module.main, (inst) => {
      if (inst.op === 'store') written.add(inst.variable);
    });
    const grid: GridValues = {};
    for (const variable of this.layout.variables) {
      const g = globals.find((x) => x.name === variable.name && written.has(x.id));
      grid[variable.name] = this.vertices.map((vertex) => {
        if (g) {
          const value = vertex.globals.get(g.id) as Value;
          return typeof value === 'number' ? [Math.fround(value)] : vec(value).map(Math.fround);
        }
        return [...Array(variable.components).keys()].map((c) => Math.fround(this.input.grid[variable.name]?.[vertex.index]?.[c] ?? 0));
      });
    }
    return { grid, lightEvaluations: this.vertices.map((v) => v.lightEvaluations) };
  }

  private initialGlobal(g: IrVar, k: number): Value {
    const slot = this.layout.variables.find((x) => x.name === g.name);
    if (slot) {
      const data = this.input.grid[g.name]?.[k] ?? [];
      return slot.components === 1 ? Math.fround(data[0] ?? 0) : [0, 1, 2].map((c) => Math.fround(data[c] ?? 0));
    }
    return frameGlobal(g.name, this.input.time ?? 0) ?? zero(g.type);
  }

  // ---- variables ----

  private variable(id: number): IrVar {
    const v = this.module.vars.get(id);
    if (!v) throw new Error(`unknown IR variable ${id}`);
    return v;
  }

  /** The storage of a variable: globals per vertex, the rest per activation, zero-initialised as WGSL vars are. */
  private storage(a: Activation, v: IrVar): Map<number, Value | Value[]> {
    const map = v.kind === 'global' ? a.vertex.globals : a.locals;
    if (!map.has(v.id)) map.set(v.id, v.arrayLength !== undefined ? [...Array(v.arrayLength).keys()].map(() => zero(v.type)) : zero(v.type));
    return map;
  }

  private elementIndex(v: IrVar, index: number): number {
    const k = Math.trunc(index);
    if (v.arrayLength === undefined || k < 0 || k >= v.arrayLength) throw new Error(`index ${index} out of range for '${v.name}'`);
    return k;
  }

  private load(a: Activation, variableId: number, index: Value | undefined): Value {
    const v = this.variable(variableId);
    const stored = this.storage(a, v).get(v.id)!;
    if (index === undefined) {
      if (v.arrayLength !== undefined) throw new Error(`array '${v.name}' read without an index`);
      return stored as Value;
    }
    return (stored as Value[])[this.elementIndex(v, num(index))]!;
  }

  private store(a: Activation, variableId: number, value: Value, index: Value | undefined): void {
    const v = this.variable(variableId);
    const map = this.storage(a, v);
    if (index === undefined) map.set(v.id, value);
    else (map.get(v.id) as Value[])[this.elementIndex(v, num(index))] = value;
  }

  // ---- instructions ----

  private get(a: Activation, id: number): Value {
    const x = a.vertex.values.get(id);
    if (x === undefined) throw new Error(`value v${id} used before it is defined`);
    return x;
  }

  private define(a: Activation, id: number, value: Value): void {
    a.vertex.values.set(id, toF32(value));
  }

  /** Runs a block on every vertex, one instruction at a time, entering constructs that hold derivative groups together. */
  private lockstep(list: Inst[], activations: Activation[]): Signal {
    const agreed = <T>(results: T[], what: string): T => {
      const key = (x: T): string => JSON.stringify(x ?? null);
      if (results.some((r) => key(r) !== key(results[0]!))) throw new Error(`vertices disagree on ${what} around a derivative group`);
      return results[0]!;
    };
    for (const inst of list) {
      let signal: Signal;
      if (inst.op === 'derivgroup') this.derivGroup(inst);
      else if (inst.op === 'call' && inst.template === ANY_ACTIVE) {
        // A masked loop's test: is any vertex still in the loop (the same answer at every vertex).
        const any = activations.some((a) => num(this.get(a, inst.args[0]!)) !== 0);
        for (const a of activations) this.define(a, inst.id, any);
      } else if (inst.op === 'if' && holdsDerivGroup(inst)) {
        const cond = agreed(activations.map((a) => bool(this.get(a, inst.cond))), `the condition of an if (v${inst.cond})`);
        signal = this.lockstep(cond ? inst.then : inst.else, activations);
      } else if (inst.op === 'loop' && holdsDerivGroup(inst)) {
        for (let n = 0; ; n++) {
          if (n > LOOP_LIMIT) throw new Error(`loop ${inst.loop} ran more than ${LOOP_LIMIT} times`);
          const inBody = this.lockstep(inst.body, activations);
          if (inBody && inBody.loop !== inst.loop) {
            signal = inBody;
            break;
          }
          if (inBody?.kind === 'break') break;
          const after = this.lockstep(inst.continuing, activations);
          if (after) throw new Error(`${after.kind} in the continuing block of loop ${inst.loop}`);
        }
      } else signal = agreed(activations.map((a) => this.exec(inst, a)), `leaving a loop (${inst.op})`);
      if (signal) return signal;
    }
    return undefined;
  }

  private block(list: Inst[], a: Activation): Signal {
    for (const inst of list) {
      const signal = this.exec(inst, a);
      if (signal) return signal;
    }
    return undefined;
  }

  private exec(inst: Inst, a: Activation): Signal {
    const get = (id: number): Value => this.get(a, id);
    switch (inst.op) {
      case 'const':
        this.define(a, inst.id, constant(inst.type, inst.value));
        return undefined;
      case 'load':
        this.define(a, inst.id, this.load(a, inst.variable, inst.index !== undefined ? get(inst.index) : undefined));
        return undefined;
      case 'store':
        this.store(a, inst.variable, get(inst.value), inst.index !== undefined ? get(inst.index) : undefined);
        return undefined;
      case 'unary':
        this.define(a, inst.id, inst.operator === '!' ? !bool(get(inst.a)) : lift((x) => -x, get(inst.a)));
        return undefined;
      case 'binary':
        this.define(a, inst.id, this.binary(inst.operator, get(inst.a), get(inst.b)));
        return undefined;
      case 'convert':
        this.define(a, inst.id, this.convert(inst.type, get(inst.a)));
        return undefined;
      case 'select':
        this.define(a, inst.id, bool(get(inst.cond)) ? get(inst.a) : get(inst.b));
        return undefined;
      case 'call':
        this.define(a, inst.id, evaluateTemplate(inst.template, inst.args.map(get), this.env(a.vertex)));
        return undefined;
      case 'deriv':
        // Relocation reports an error for a derivative it cannot place; the kernel then reads 0.
        this.define(a, inst.id, zero(inst.type));
        return undefined;
      case 'derivgroup':
        throw new Error('a derivative group under control flow that is not uniform over the grid');
      case 'if':
        return this.block(bool(get(inst.cond)) ? inst.then : inst.else, a);
      case 'loop':
        for (let n = 0; ; n++) {
          if (n > LOOP_LIMIT) throw new Error(`loop ${inst.loop} ran more than ${LOOP_LIMIT} times`);
          const signal = this.block(inst.body, a);
          if (signal && signal.loop !== inst.loop) return signal;
          if (signal?.kind === 'break') return undefined;
          const after = this.block(inst.continuing, a);
          if (after) throw new Error(`${after.kind} in the continuing block of loop ${inst.loop}`);
        }
      case 'break':
      case 'continue':
        return { kind: inst.op, loop: inst.loop };
      case 'illuminance':
        return this.illuminance(inst, a);
      case 'illuminate':
        return this.illuminate(inst, a);
      case 'ambient': {
        const p = [...this.module.vars.values()].find((x) => x.kind === 'global' && x.name === 'P');
        const position = p ? (this.load(a, p.id, undefined) as number[]) : [0, 0, 0];
        let sum = [0, 0, 0];
        for (const light of this.module.lights.filter((l) => l.ambient)) sum = arithmetic('+', sum, this.callLight(light, position, a.vertex).Cl) as number[];
        this.define(a, inst.id, sum);
        return undefined;
      }
      case 'nop':
        return undefined;
    }
  }

  private binary(op: Extract<Inst, { op: 'binary' }>['operator'], x: Value, y: Value): Value {
    switch (op) {
      case '+':
      case '-':
      case '*':
      case '/':
        return arithmetic(op, x, y);
      case 'dot':
        return dot(vec(x), vec(y));
      case 'cross':
        return cross(vec(x), vec(y));
      // RSL's a * b with row vectors is the kernel's column-major b * a; a / b is a * inverse(b).
      case 'matmul':
        return matMul(vec(y), vec(x));
      case 'matdiv':
        return matMul(inverse(vec(y)), vec(x));
      case '==':
        return equal(x, y);
      case '!=':
        return !equal(x, y);
      case '<':
        return num(x) < num(y);
      case '>':
        return num(x) > num(y);
      case '<=':
        return num(x) <= num(y);
      case '>=':
        return num(x) >= num(y);
      case '&&':
        return bool(x) && bool(y);
      case '||':
        return bool(x) || bool(y);
    }
  }

  private convert(to: IrType, x: Value): Value {
    if (to === 'vec3' && typeof x === 'number') return [x, x, x];
    if (to === 'mat4' && typeof x === 'number') return identity().map((c) => c * x);
    if (to === 'f32' && typeof x === 'boolean') return x ? 1 : 0;
    if (to === 'bool' && typeof x === 'number') return x !== 0;
    return x;
  }

  /** Every vertex has computed the operands: each derivative reads its neighbours'. */
  private derivGroup(inst: Extract<Inst, { op: 'derivgroup' }>): void {
    const { nu, nv } = this.input;
    for (const d of inst.derivs) {
      const results = this.vertices.map((vertex) => {
        const k = vertex.index;
        const [n, along, step, delta] = d.axis === 'u' ? [nu, k % nu, 1, vertex.du] : [nv, Math.floor(k / nu), nu, vertex.dv];
        if (n < 2 || delta === 0) return zero(d.type);
        const [from, to] = along + 1 >= n ? [k - step, k] : [k, k + step];
        const value = (i: number): Value => {
          const x = this.vertices[i]!.values.get(d.a);
          if (x === undefined) throw new Error(`derivative operand v${d.a} is not defined at vertex ${i}`);
          return x;
        };
        return lift((b, a) => (b - a) / delta, value(to), value(from));
      });
      this.vertices.forEach((vertex, k) => vertex.values.set(d.id, toF32(results[k]!)));
    }
  }

  private illuminance(inst: Extract<Inst, { op: 'illuminance' }>, a: Activation): Signal {
    const position = vec(this.get(a, inst.position));
    for (const light of this.module.lights) {
      if (light.ambient || !seesLight(inst.category, light)) continue;
      const r = this.callLight(light, position, a.vertex);
      if (!r.ok) continue;
      this.store(a, inst.lVar, r.L, undefined);
      this.store(a, inst.clVar, r.Cl, undefined);
      this.store(a, inst.olVar, r.Ol, undefined);
      this.module.messages.forEach((m, k) => {
        const value = r.messages[k];
        this.store(a, m.valueVar, value ?? zero(m.type), undefined);
        this.store(a, m.hasVar, value === undefined ? 0 : 1, undefined);
      });
      if (inst.axis !== undefined && inst.angle !== undefined && !withinCone(r.L, vec(this.get(a, inst.axis)), num(this.get(a, inst.angle)))) continue;
      const signal = this.block(inst.body, a);
      if (signal && signal.loop !== inst.loop) return signal;
      if (signal?.kind === 'break') return undefined;
    }
    return undefined;
  }

  /** Runs a light shader for a surface point: its Cl, Ol, the direction L towards the light, and whether it shone. */
  private callLight(light: LightFunction, ps: number[], vertex: Vertex): { Cl: number[]; L: number[]; Ol: number[]; ok: boolean; messages: (Value | undefined)[] } {
    vertex.lightEvaluations[light.index] = (vertex.lightEvaluations[light.index] ?? 0) + 1;
    const a: Activation = { vertex, locals: new Map(), light: { fn: light, ok: false } };
    this.store(a, light.psVar, ps, undefined);
    const signal = this.block(light.body, a);
    if (signal) throw new Error(`${signal.kind} of loop ${signal.loop} outside its loop in light '${light.name}'`);
    const read = (id: number): number[] => vec(this.load(a, id, undefined));
    // The light's L points from the light to the surface; illuminance sees the opposite.
    // lightsource() messages: the light's parameter variables as the light left them.
    const messages = this.module.messages.map((m) => {
      const source = m.sources[light.index];
      return source === undefined ? undefined : this.load(a, source, undefined);
    });
    return { Cl: read(light.clVar), L: read(light.lVar).map((x) => -x), Ol: read(light.olVar), ok: a.light!.ok, messages };
  }

  private illuminate(inst: Extract<Inst, { op: 'illuminate' }>, a: Activation): Signal {
    if (!a.light) throw new Error('illuminate outside a light shader');
    const { fn } = a.light;
    const ps = vec(this.load(a, fn.psVar, undefined));
    const l = inst.position !== undefined ? ps.map((x, k) => x - vec(this.get(a, inst.position!))[k]!) : inst.axis !== undefined ? vec(this.get(a, inst.axis)) : [0, 0, 0];
    this.store(a, fn.lVar, toF32(l), undefined);
    const cone = inst.position !== undefined && inst.axis !== undefined && inst.angle !== undefined;
    if (cone && !withinCone(l, vec(this.get(a, inst.axis!)), num(this.get(a, inst.angle!)))) return undefined;
    a.light.ok = true;
    return this.block(inst.body, a);
  }
}

function holdsDerivGroup(inst: Inst): boolean {
  let found = false;
  walk([inst], (x) => {
    found ||= x.op === 'derivgroup';
  });
  return found;
}
