// Derivative relocation. WGSL allows workgroupBarrier() only in uniform control flow, and derivatives
// need one, so every derivative moves to a block where a barrier may run: the kernel body, the body of
// a loop whose exits are uniform over the grid (every point runs the same iterations, whether the trip
// count is a constant, a parameter or any uniform value), or a branch of an if whose condition is
// uniform, nested as deep as those go (the back end broadcasts their conditions, so WGSL's uniformity
// analysis agrees: see wgsl.ts). Innermost blocks first; a derivative that cannot be placed in its
// innermost such block is tried in the enclosing one. In its block it moves before the construct that
// contains it, together with the pure computation of its operand (speculated: it has no side effects,
// and what it reads is not written in the construct). Identical derivatives merge, and the derivatives
// of a block are grouped so that the number of distinct barrier positions is minimal: each derivative
// may sit anywhere in an interval of positions, two are compatible when their intervals overlap, and a
// minimum clique cover of that graph gives the groups. Loops with a varying trip count, and ifs with
// a varying condition, that take derivatives of what they compute at the top level of their body
// first run masked (mask-varying-loops.ts). What still cannot be placed (an operand assigned in an
// illuminance loop, or under a varying loop or if that cannot run masked: a derivative nested deeper
// in it, an exit to an enclosing loop) is an error that names that construct and its line.
import type { Diagnostics, SourcePos } from '../diagnostics.ts';
import type { Inst, IrModule, ValueInst } from '../ir.ts';
import { children, isPure, mapOperands, operands, storedVars, walk } from '../ir.ts';
import { minimumCliqueCover } from './clique-cover.ts';
import { derivativeReadsAssigned, maskBranch, maskLoop } from './mask-varying-loops.ts';
import { analyzeUniformity, containsVaryingExit } from './uniformity.ts';

type Deriv = Extract<Inst, { op: 'deriv' }>;

interface Candidate {
  inst: Deriv;
  earliest: number;
  latest: number;
  slice: Inst[];
  duplicates: Deriv[];
  /** Identifies the operand's value: loads of one variable that see the same store are the same. */
  key: string;
}

export interface RelocationReport {
  /** Distinct barrier positions after relocation. */
  barrierPositions: number;
  /** Derivatives (after merging duplicates). */
  derivatives: number;
  /** Derivatives that could not be relocated (reported as errors). */
  failed: number;
}

export function relocateDerivatives(module: IrModule, diagnostics?: Diagnostics): RelocationReport {
  for (const light of module.lights) {
    walk(light.body, (inst) => {
      if (inst.op === 'deriv') {
        diagnostics?.error(inst.pos ?? { file: `${light.name}.sl`, line: 1, column: 1 }, `derivatives in light shaders are not supported yet (light '${light.name}')`);
      }
    });
  }
  const { varyingValues } = analyzeUniformity(module);
  const barrierBlocks = (inst: Inst): Inst[][] => {
    if (inst.op === 'if' && !varyingValues.has(inst.cond)) return [inst.then, inst.else];
    if (inst.op === 'loop' && !containsVaryingExit([...inst.body, ...inst.continuing], varyingValues)) return [inst.body];
    return [];
  };
  const report: RelocationReport = { barrierPositions: 0, derivatives: 0, failed: 0 };
  const failed = relocateInBlock(module.main, { module, barrierBlocks, report, markVarying: (v) => varyingValues.add(v) });
  report.failed = failed.length;
  for (const d of failed) {
    diagnostics?.error(d.pos ?? { file: 'shader', line: 1, column: 1 }, failureMessage(module.main, d, barrierBlocks));
  }
  return report;
}

interface BlockContext {
  module: IrModule;
  barrierBlocks: (inst: Inst) => Inst[][];
  report: RelocationReport;
  markVarying: (value: number) => void;
}

/** Why a derivative could not be placed: the innermost construct around it where no barrier may run. */
function failureMessage(main: Inst[], d: Deriv, barrierBlocks: (inst: Inst) => Inst[][]): string {
  const path = pathTo(main, d) ?? [];
  let blocker: Inst | undefined;
  for (const { inst, block } of path) if (!barrierBlocks(inst).includes(block)) blocker = inst;
  const at = (pos: SourcePos | undefined): string => (pos ? ` at line ${pos.line}` : '');
  const head = 'this derivative cannot be computed: its operand is assigned under the';
  switch (blocker?.op) {
    case 'loop':
      return `${head} ${blocker.origin ?? 'loop'}${at(blocker.pos)}, whose exit condition varies over the grid, where no barrier can run (a loop that also leaves an enclosing loop, or a derivative nested in a branch of it, cannot run masked); take the derivative at the top level of the loop's body or after the loop`;
    case 'if':
      return `${head} if${at(blocker.pos)}, whose condition varies over the grid, where no barrier can run (a branch that leaves a loop, or a derivative nested in a branch of it, cannot run masked); take the derivative at the top level of the branch, or before or after the if`;
    case 'illuminance':
      return `${head} illuminance loop${at(blocker.pos)} (which lights reach a point varies over the grid), where no barrier can run; take the derivative outside the loop`;
    default:
      return 'this derivative cannot be computed: its operand depends on a value that cannot be recomputed at a barrier (such as random())';
  }
}

/** The constructs around an instruction, outermost first, with the nested block taken in each. */
function pathTo(block: Inst[], target: Inst): { inst: Inst; block: Inst[] }[] | undefined {
  for (const inst of block) {
    if (inst === target) return [];
    for (const child of children(inst)) {
      const rest = pathTo(child, target);
      if (rest) return [{ inst, block: child }, ...rest];
    }
  }
  return undefined;
}

/**
 * Places the derivatives of a block where barriers may run (nested blocks first) and returns those it
 * could not place, for the enclosing block to try.
 */
function relocateInBlock(top: Inst[], context: BlockContext): Deriv[] {
  const { barrierBlocks, report } = context;
  // Loops with a varying trip count that take derivatives of what they compute run masked, with a
  // uniform trip count, and then hold barriers like any uniform loop; ifs with a varying condition
  // that do run as pieces under their condition with the derivatives between (mask-varying-loops.ts).
  for (let k = 0; k < top.length; k++) {
    const inst = top[k]!;
    if (inst.op === 'loop' && barrierBlocks(inst).length === 0 && derivativeReadsAssigned(inst.body, inst)) {
      const before = maskLoop(context.module, inst, context.markVarying);
      if (before) {
        top.splice(k, 0, ...before);
        k += before.length;
      }
    } else if (inst.op === 'if' && barrierBlocks(inst).length === 0 && (derivativeReadsAssigned(inst.then, inst) || derivativeReadsAssigned(inst.else, inst))) {
      const replacement = maskBranch(context.module, inst, context.markVarying);
      if (replacement) {
        top.splice(k, 1, ...replacement);
        k += replacement.length - 1;
      }
    }
  }
  for (const inst of top) for (const nested of barrierBlocks(inst)) relocateInBlock(nested, context);
  const defIndex = new Map<number, number>();
  const defInst = new Map<number, ValueInst>();
  const order = new Map<Inst, number>();
  const stores: Set<number>[] = [];
  let counter = 0;
  top.forEach((inst, i) => {
    walk([inst], (x) => {
      order.set(x, counter++);
      if ('id' in x) {
        defIndex.set(x.id, i);
        defInst.set(x.id, x);
      }
      if (x.op === 'derivgroup') for (const d of x.derivs) defIndex.set(d.id, i);
    });
    stores.push(storedVars([inst]));
  });
  const lastStoreBefore = (variable: number, i: number): number => {
    for (let j = i - 1; j >= 0; j--) if (stores[j]!.has(variable)) return j;
    return -1;
  };

  const candidates: Candidate[] = [];
  const failed: Deriv[] = [];
  top.forEach((container, i) => {
    walk([container], (x) => {
      if (x.op !== 'deriv') return;
      const slice = new Set<Inst>();
      let earliest = 0;
      let ok = true;
      const visit = (value: number): void => {
        const at = defIndex.get(value);
        if (at === undefined) return;
        if (at < i || (at === i && x === container)) {
          earliest = Math.max(earliest, at + 1);
          return;
        }
        const def = defInst.get(value);
        if (!def || def === x || !isPure(def) || (def.op === 'call' && def.varying)) {
          ok = false;
          return;
        }
        if (def.op === 'load') {
          if (stores[i]!.has(def.variable)) {
            ok = false;
            return;
          }
          earliest = Math.max(earliest, lastStoreBefore(def.variable, i) + 1);
        }
        if (slice.has(def)) return;
        slice.add(def);
        for (const o of operands(def)) visit(o);
      };
      if (x === container) visit(x.a);
      else visit(x.a);
      if (!ok) {
        failed.push(x);
        return;
      }
      const def = defInst.get(x.a);
      const at = defIndex.get(x.a) ?? i;
      const key = def?.op === 'load' && def.index === undefined
        ? `${x.axis}:load ${def.variable} after ${lastStoreBefore(def.variable, at === i && x !== container ? i : at)}`
        : `${x.axis}:value ${x.a}`;
      candidates.push({ inst: x, earliest, latest: i, slice: [...slice].sort((a, b) => order.get(a)! - order.get(b)!), duplicates: [], key });
    });
  });

  // Merge identical derivatives whose intervals meet.
  const merged: Candidate[] = [];
  for (const c of candidates) {
    const same = merged.find((m) => m.key === c.key && Math.max(m.earliest, c.earliest) <= Math.min(m.latest, c.latest));
    if (same) {
      same.earliest = Math.max(same.earliest, c.earliest);
      same.latest = Math.min(same.latest, c.latest);
      same.duplicates.push(c.inst);
      for (const s of c.slice) if (!same.slice.includes(s)) same.slice.push(s);
      same.slice.sort((a, b) => order.get(a)! - order.get(b)!);
    } else merged.push(c);
  }
  const groups = minimumCliqueCover(merged.length, (a, b) => {
    const x = merged[a]!;
    const y = merged[b]!;
    return Math.max(x.earliest, y.earliest) <= Math.min(x.latest, y.latest);
  });

  // Where each group goes, and where each moved operand instruction goes (its earliest use).
  const inserts = new Map<number, Inst[]>();
  const sliceAt = new Map<Inst, number>();
  const groupAt: { position: number; members: Candidate[] }[] = groups.map((g) => {
    const members = g.map((k) => merged[k]!);
    const position = Math.max(...members.map((m) => m.earliest));
    for (const m of members) for (const s of m.slice) sliceAt.set(s, Math.min(sliceAt.get(s) ?? Infinity, position));
    return { position, members };
  });
  const removed = new Set<Inst>([...sliceAt.keys(), ...candidates.map((c) => c.inst)]);
  const removeFrom = (block: Inst[]): void => {
    for (let k = block.length - 1; k >= 0; k--) {
      const inst = block[k]!;
      if (removed.has(inst)) block.splice(k, 1);
      else for (const child of children(inst)) removeFrom(child);
    }
  };
  const sorted = [...sliceAt.entries()].sort((a, b) => order.get(a[0])! - order.get(b[0])!);
  for (const [inst, position] of sorted) {
    const list = inserts.get(position) ?? [];
    list.push(inst);
    inserts.set(position, list);
  }
  // Groups at the same position share one barrier.
  const byPosition = new Map<number, Candidate[]>();
  for (const g of groupAt) byPosition.set(g.position, [...(byPosition.get(g.position) ?? []), ...g.members]);
  for (const [position, members] of byPosition) {
    const list = inserts.get(position) ?? [];
    list.push({ op: 'derivgroup', derivs: members.map((m) => ({ id: m.inst.id, type: m.inst.type, axis: m.inst.axis, a: m.inst.a })) });
    inserts.set(position, list);
  }
  const original = [...top];
  for (const inst of original) removeFrom([inst]);
  const rebuilt: Inst[] = [];
  original.forEach((inst, i) => {
    rebuilt.push(...(inserts.get(i) ?? []));
    if (!removed.has(inst)) rebuilt.push(inst);
  });
  rebuilt.push(...(inserts.get(original.length) ?? []));
  top.length = 0;
  top.push(...rebuilt);
  // Uses of merged duplicates read the surviving derivative.
  const replace = new Map<number, number>();
  for (const m of merged) for (const d of m.duplicates) replace.set(d.id, m.inst.id);
  if (replace.size > 0) {
    const f = (v: number): number => replace.get(v) ?? v;
    walk(top, (inst) => mapOperands(inst, f));
  }
  report.barrierPositions += byPosition.size;
  report.derivatives += merged.length;
  return failed;
}
