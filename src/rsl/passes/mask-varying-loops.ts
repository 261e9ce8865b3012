// Loops whose trip count varies over the grid but take derivatives of values they compute (a
// fractal loop that stops when its octaves get finer than a pixel and takes a filter width per
// octave) run as SIMD Reyes shaders run them: every point goes round while any point of the grid is
// still in the loop, and a point that has left (or continued) is masked: its statements are skipped
// for the rest of the iteration, and a derivative taken in the loop sees, at such a point, the value
// it left with. The loop then has a uniform trip count, so relocation can put barriers in its body.
//
//   loop { body } continuing { step }
// becomes
//   active = 1
//   loop {
//     if (!rsl_any_active(active)) break;      uniform: a workgroup-wide "or"
//     skip = 0
//     if (active && !skip) { segment 1 }        break → active = 0, continue → skip = 1, and what
//     Du(...)                                   follows an exit in a segment is guarded again
//     if (active && !skip) { segment 2 } ...
//   } continuing { if (active) { step } }
//
// Only derivatives at the top level of the body split it into segments; values that cross from
// one segment to another (or to a derivative) pass through variables, since a segment is a scope.
// An if whose condition varies and whose branches take derivatives of what they assign is split the
// same way, without a loop: `if (c) { segment 1 } Du(...) if (c) { segment 2 }`, then the else
// branch under !c; at a point where the branch does not run, the derivative's operand is whatever
// its variable held.
import type { Inst, IrModule, IrType, IrVar, ValueInst } from '../ir.ts';
import { isPure, mapOperands, operands, storedVars, walk } from '../ir.ts';

/** The call template of the workgroup-wide "is any point still in the loop" (a uniform bool). */
export const ANY_ACTIVE = 'rsl_any_active($0)';

type Loop = Extract<Inst, { op: 'loop' }>;

/** True when a derivative at the top level of `block` reads a value that `scope` assigns. */
export function derivativeReadsAssigned(block: Inst[], scope: Inst): boolean {
  const stored = storedVars([scope]);
  const defs = new Map<number, ValueInst>();
  walk(block, (inst) => {
    if ('id' in inst) defs.set(inst.id, inst);
  });
  const seen = new Set<number>();
  const readsStored = (value: number): boolean => {
    if (seen.has(value)) return false;
    seen.add(value);
    const def = defs.get(value);
    if (!def) return false;
    if (def.op === 'load' && stored.has(def.variable)) return true;
    return !isPure(def) || operands(def).some(readsStored);
  };
  return block.some((inst) => inst.op === 'deriv' && readsStored(inst.a));
}

/**
 * Rewrites the loop in place (see above) and returns the instructions to put before it, or undefined
 * (the loop untouched) when it has an exit that leaves more than this loop or an exit in its
 * continuing block. `markVarying` receives the mask conditions.
 */
export function maskLoop(module: IrModule, loop: Loop, markVarying: (value: number) => void): Inst[] | undefined {
  const inner = innerLoops(loop.body);
  let unsupported = false;
  walk(loop.body, (inst) => {
    if ((inst.op === 'break' || inst.op === 'continue') && inst.loop !== loop.loop && !inner.has(inst.loop)) unsupported = true;
  });
  walk(loop.continuing, (inst) => {
    if (inst.op === 'break' || inst.op === 'continue') unsupported = true;
  });
  if (unsupported) return undefined;

  const { newVar, value } = irBuilder(module);
  const active = newVar(`active${loop.loop}`, 'f32');
  const skip = newVar(`skip${loop.loop}`, 'f32');
  const constant = (x: number): ValueInst => value({ op: 'const', type: 'f32', value: [x] });

  /** Instructions computing "still running this iteration" (the last one's id is the condition). */
  const running = (withSkip: boolean): { insts: Inst[]; cond: number } => {
    const a = value({ op: 'load', type: 'f32', variable: active.id });
    const zero = constant(0);
    const isActive = value({ op: 'binary', type: 'bool', operator: '!=', a: a.id, b: zero.id });
    if (!withSkip) {
      markVarying(isActive.id);
      return { insts: [a, zero, isActive], cond: isActive.id };
    }
    const s = value({ op: 'load', type: 'f32', variable: skip.id });
    const notSkipped = value({ op: 'binary', type: 'bool', operator: '==', a: s.id, b: zero.id });
    const both = value({ op: 'binary', type: 'bool', operator: '&&', a: isActive.id, b: notSkipped.id });
    markVarying(both.id);
    return { insts: [a, zero, isActive, s, notSkipped, both], cond: both.id };
  };
  const store = (variable: IrVar, x: number): Inst[] => {
    const c = constant(x);
    return [c, { op: 'store', variable: variable.id, value: c.id }];
  };

  /** Exits become mask stores; whatever follows an instruction holding one is guarded again. */
  const guard = (list: Inst[]): Inst[] => {
    const out: Inst[] = [];
    for (let k = 0; k < list.length; k++) {
      const inst = list[k]!;
      if ((inst.op === 'break' || inst.op === 'continue') && inst.loop === loop.loop) {
        out.push(...store(inst.op === 'break' ? active : skip, inst.op === 'break' ? 0 : 1));
        return out;
      }
      if (inst.op === 'if' && exitsThisLoop(inst)) {
        inst.then = guard(inst.then);
        inst.else = guard(inst.else);
        out.push(inst);
        const rest = list.slice(k + 1);
        if (rest.length > 0) {
          const r = running(true);
          out.push(...r.insts, { op: 'if', cond: r.cond, then: guard(rest), else: [] });
        }
        return out;
      }
      out.push(inst);
    }
    return out;
  };
  const exitsThisLoop = (inst: Inst): boolean => {
    let found = false;
    walk([inst], (x) => {
      if ((x.op === 'break' || x.op === 'continue') && x.loop === loop.loop) found = true;
    });
    return found;
  };

  const body: Inst[] = [];
  const activeNow = value({ op: 'load', type: 'f32', variable: active.id });
  const any = value({ op: 'call', type: 'bool', template: ANY_ACTIVE, args: [activeNow.id] });
  body.push(activeNow, any, { op: 'if', cond: any.id, then: [], else: [{ op: 'break', loop: loop.loop }] }, ...store(skip, 0));
  const split = splitAtDerivatives(loop.body, loop.continuing, { newVar, value }, () => running(true), guard);
  const stillActive = running(false);
  loop.body = [...body, ...split.out];
  loop.continuing = loop.continuing.length > 0 ? [...stillActive.insts, { op: 'if', cond: stillActive.cond, then: [...split.afterLoads, ...loop.continuing], else: [] }] : [];
  return store(active, 1);
}

/**
 * An if whose condition varies over the grid and whose branches take derivatives of values they
 * assign, as instructions that replace it: each branch split at its top-level derivatives into pieces
 * under the branch's condition, the derivatives between them taken at every point. Undefined (the if
 * untouched) when a branch leaves a loop (break, continue, or a return of an inlined function).
 */
export function maskBranch(module: IrModule, branch: Extract<Inst, { op: 'if' }>, markVarying: (value: number) => void): Inst[] | undefined {
  const inner = innerLoops([branch]);
  let exits = false;
  walk([branch], (inst) => {
    exits ||= (inst.op === 'break' || inst.op === 'continue') && !inner.has(inst.loop);
  });
  if (exits) return undefined;
  const builder = irBuilder(module);
  const otherwise = builder.value({ op: 'unary', type: 'bool', operator: '!', a: branch.cond });
  markVarying(otherwise.id);
  const then = splitAtDerivatives(branch.then, [], builder, () => ({ insts: [], cond: branch.cond }), (piece) => piece);
  const other = splitAtDerivatives(branch.else, [], builder, () => ({ insts: [], cond: otherwise.id }), (piece) => piece);
  return [...then.out, otherwise, ...other.out];
}

interface IrBuilder {
  newVar(name: string, type: IrType): IrVar;
  value<T extends Record<string, unknown>>(inst: T): ValueInst;
}

function irBuilder(module: IrModule): IrBuilder {
  return {
    newVar: (name, type) => {
      const id = Math.max(-1, ...module.vars.keys()) + 1;
      const v: IrVar = { id, name, type, kind: 'local' };
      module.vars.set(id, v);
      return v;
    },
    value: (inst) => ({ ...inst, id: module.nextValue++ }) as unknown as ValueInst,
  };
}

/**
 * A block split at its top-level derivatives: each run of other instructions goes (through `inside`)
 * under an if on the condition `guard` computes; the derivatives stay at the top level. Values that
 * cross from one piece to another, or to `after` (instructions run after the block that may read its
 * values), go through variables: a piece is a scope. `afterLoads` are the loads `after` needs first.
 */
function splitAtDerivatives(list: Inst[], after: Inst[], builder: IrBuilder, guard: () => { insts: Inst[]; cond: number }, inside: (piece: Inst[]) => Inst[]): { out: Inst[]; afterLoads: Inst[] } {
  const { newVar, value } = builder;
  const pieces: (Inst[] | Extract<Inst, { op: 'deriv' }>)[] = [];
  for (const inst of list) {
    if (inst.op === 'deriv') pieces.push(inst);
    else if (Array.isArray(pieces[pieces.length - 1])) (pieces[pieces.length - 1] as Inst[]).push(inst);
    else pieces.push([inst]);
  }
  // (A derivative stays at the top level, so its value is in scope everywhere after it.)
  const pieceOf = new Map<number, number>();
  const defs = new Map<number, ValueInst>();
  pieces.forEach((piece, k) => {
    if (!Array.isArray(piece)) return;
    for (const inst of piece) {
      if (!('id' in inst)) continue;
      pieceOf.set(inst.id, k);
      defs.set(inst.id, inst);
    }
  });
  const carried = new Map<number, IrVar>();
  const carry = (reader: number | undefined) => (inst: Inst): void => {
    for (const o of operands(inst)) {
      const from = pieceOf.get(o);
      if (from !== undefined && from !== reader && !carried.has(o)) carried.set(o, newVar(`carried${o}`, defs.get(o)!.type));
    }
  };
  pieces.forEach((piece, k) => walk(Array.isArray(piece) ? piece : [piece], carry(k)));
  walk(after, carry(undefined));
  /** Loads of the carried values that instructions outside piece `k` read, which then read them. */
  const reload = (insts: Inst[], k: number | undefined): Inst[] => {
    const loads = new Map<number, ValueInst>();
    walk(insts, (inst) => {
      for (const o of operands(inst)) {
        const variable = carried.get(o);
        if (variable && pieceOf.get(o) !== k && !loads.has(o)) loads.set(o, value({ op: 'load', type: variable.type, variable: variable.id }));
      }
    });
    if (loads.size > 0) walk(insts, (inst) => mapOperands(inst, (o) => (pieceOf.get(o) !== k ? loads.get(o)?.id ?? o : o)));
    return [...loads.values()];
  };
  const out: Inst[] = [];
  pieces.forEach((piece, k) => {
    if (!Array.isArray(piece)) {
      out.push(...reload([piece], k), piece);
      return;
    }
    const insts: Inst[] = [];
    for (const inst of piece) {
      insts.push(inst);
      if ('id' in inst && carried.has(inst.id)) insts.push({ op: 'store', variable: carried.get(inst.id)!.id, value: inst.id });
    }
    const loads = reload(insts, k);
    const g = guard();
    out.push(...g.insts, { op: 'if', cond: g.cond, then: [...loads, ...inside(insts)], else: [] });
  });
  return { out, afterLoads: reload(after, undefined) };
}

function innerLoops(block: Inst[]): Set<number> {
  const out = new Set<number>();
  walk(block, (inst) => {
    if (inst.op === 'loop' || inst.op === 'illuminance') out.add(inst.loop);
  });
  return out;
}
