// The uniform/varying split in code generation. A value the uniformity analysis proves uniform whose
// whole expression tree is pure and position-independent (constants, parameter-block reads, frame
// uniforms and arithmetic on them: no variable loads, no per-vertex state, no random()) is the same
// for every vertex of a grid wherever it is computed. The kernel computes the worthwhile ones once
// per grid, in invocation 0 before the body, into workgroup memory behind one barrier; where the
// value is defined (in main or in a light function, inside loops and illuminance included) every
// invocation then reads it from workgroup memory. Cheap values (a constant, a parameter read, one
// arithmetic operation) stay where they are: a workgroup read costs about as much.
import type { Inst, IrModule, IrType, ValueInst } from '../ir.ts';
import { allBodies, isPure, operands, walk } from '../ir.ts';
import { analyzeUniformity } from './uniformity.ts';

export interface UniformPlan {
  /** Values computed once per grid: value id → slot in the workgroup array of its type. */
  roots: Map<number, { type: IrType; slot: number }>;
  /** Values only roots use: not emitted in the body at all. */
  skipped: Set<number>;
  /** The instructions the prologue evaluates, in program order (roots and what they need). */
  prologue: ValueInst[];
  /** Slots used per type. */
  slots: Record<'f32' | 'vec3' | 'mat4' | 'u32', number>;
  /** Workgroup bytes the slots take (vec3f has a 16-byte stride). */
  bytes: number;
}

/** Per-vertex state a template may reach: such calls are not position-independent. */
const PER_VERTEX = /rsl_grid|rsl_deriv|rsl_random|rsl_wg|\bg_/;
const STRIDE: Record<string, number> = { f32: 4, u32: 4, vec3: 16, mat4: 64 };
/** A root's tree must cost at least this (a math call 4, an arithmetic operation 1). */
const MIN_COST = 4;

export function planUniformHoisting(module: IrModule, maxBytes: number): UniformPlan {
  const defs = new Map<number, ValueInst>();
  const order: ValueInst[] = [];
  const varying = new Set<number>();
  for (const body of allBodies(module)) {
    for (const v of analyzeUniformity(module, body).varyingValues) varying.add(v);
    walk(body, (inst) => {
      if ('id' in inst) {
        defs.set(inst.id, inst as ValueInst);
        order.push(inst as ValueInst);
      }
    });
  }
  const eligible = new Map<number, boolean>();
  const isEligible = (id: number): boolean => {
    const known = eligible.get(id);
    if (known !== undefined) return known;
    const inst = defs.get(id);
    let ok = !!inst && isPure(inst) && inst.op !== 'load' && !varying.has(id);
    if (ok && inst!.op === 'call') ok = !inst!.varying && !PER_VERTEX.test(inst!.template);
    eligible.set(id, false);
    if (ok) ok = operands(inst!).every(isEligible);
    eligible.set(id, ok);
    return ok;
  };
  const costs = new Map<number, number>();
  const cost = (id: number): number => {
    const known = costs.get(id);
    if (known !== undefined) return known;
    const inst = defs.get(id)!;
    let own = 1;
    if (inst.op === 'const') own = 0;
    else if (inst.op === 'call') own = inst.args.length === 0 && inst.template.startsWith('rsl_param_') ? 0 : 4;
    const c = own + operands(inst).reduce((s, o) => s + cost(o), 0);
    costs.set(id, c);
    return c;
  };
  // Uses by instructions that stay per vertex.
  const usedOutside = new Set<number>();
  for (const body of allBodies(module)) {
    walk(body, (inst) => {
      if ('id' in inst && isEligible(inst.id)) return;
      for (const o of operands(inst)) usedOutside.add(o);
    });
  }
  const slots = { f32: 0, vec3: 0, mat4: 0, u32: 0 };
  let bytes = 0;
  const roots = new Map<number, { type: IrType; slot: number }>();
  for (const inst of order) {
    const id = inst.id;
    if (!usedOutside.has(id) || !isEligible(id) || inst.type === 'bool' || cost(id) < MIN_COST) continue;
    const stride = STRIDE[inst.type]!;
    if (bytes + stride > maxBytes) continue;
    const type = inst.type as keyof typeof slots;
    roots.set(id, { type, slot: slots[type]++ });
    bytes += stride;
  }
  // Eligible values computed per vertex after all: used outside and not roots, and their operands.
  const inBody = new Set<number>();
  const need = (id: number): void => {
    if (inBody.has(id) || roots.has(id)) return;
    inBody.add(id);
    for (const o of operands(defs.get(id)!)) if (isEligible(o)) need(o);
  };
  for (const id of usedOutside) if (isEligible(id)) need(id);
  const skipped = new Set<number>();
  for (const [id, ok] of eligible) if (ok && !roots.has(id) && !inBody.has(id)) skipped.add(id);
  // The prologue: the roots and their operand trees, in program order.
  const inPrologue = new Set<number>();
  const pull = (id: number): void => {
    if (inPrologue.has(id)) return;
    inPrologue.add(id);
    for (const o of operands(defs.get(id)!)) pull(o);
  };
  for (const id of roots.keys()) pull(id);
  const prologue = order.filter((inst) => inPrologue.has(inst.id));
  return { roots, skipped, prologue, slots, bytes };
}

/** An empty plan (hoisting off). */
export function noUniformPlan(): UniformPlan {
  return { roots: new Map(), skipped: new Set(), prologue: [], slots: { f32: 0, vec3: 0, mat4: 0, u32: 0 }, bytes: 0 };
}

export type { Inst };
