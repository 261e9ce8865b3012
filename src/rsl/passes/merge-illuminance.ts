// Illuminance merging. Loops with equivalent receiver configurations (same position, axis, angle and
// category) are fused into one, so each light shader runs once per vertex however many loops the
// surface has (diffuse() and specular() are two loops). A later loop I2 moves up to an earlier loop
// I1 when: neither body writes what the other reads or writes; no body breaks out of its own loop;
// and the instructions between them split into those that depend on I1 (they move after the fused
// loop) and the rest (they stay before it), with I2 depending on none of the former.
import type { Inst, IrModule, ValueInst } from '../ir.ts';
import { children, loadedVars, operands, storedVars, walk } from '../ir.ts';

type Illuminance = Extract<Inst, { op: 'illuminance' }>;

interface Effects {
  defs: Set<number>;
  uses: Set<number>;
  reads: Set<number>;
  writes: Set<number>;
}

function effects(inst: Inst): Effects {
  const defs = new Set<number>();
  const uses = new Set<number>();
  walk([inst], (x) => {
    if ('id' in x) defs.add(x.id);
    if (x.op === 'derivgroup') for (const d of x.derivs) defs.add(d.id);
    for (const o of operands(x)) uses.add(o);
  });
  for (const d of defs) uses.delete(d);
  const writes = storedVars([inst]);
  if (inst.op === 'illuminance') for (const v of [inst.lVar, inst.clVar, inst.olVar]) writes.add(v);
  return { defs, uses, reads: loadedVars([inst]), writes };
}

const meets = (a: Set<number>, b: Set<number>): boolean => [...a].some((x) => b.has(x));

function conflict(x: Effects, y: Effects): boolean {
  return meets(x.defs, y.uses) || meets(y.defs, x.uses) || meets(x.writes, y.reads) || meets(x.writes, y.writes) || meets(y.writes, x.reads);
}

function exitsItself(loop: Illuminance): boolean {
  let found = false;
  walk(loop.body, (x) => {
    if ((x.op === 'break' || x.op === 'continue') && x.loop === loop.loop) found = true;
  });
  return found;
}

export function mergeIlluminance(module: IrModule): number {
  const defs = new Map<number, ValueInst>();
  walk(module.main, (x) => {
    if ('id' in x) defs.set(x.id, x);
  });
  let merged = 0;

  /** Structural equivalence of two values in `block`, where loads must see no store in between. */
  const equivalent = (a: number | undefined, b: number | undefined, block: Inst[], depth = 0): boolean => {
    if (a === b) return true;
    if (a === undefined || b === undefined || depth > 32) return false;
    const x = defs.get(a);
    const y = defs.get(b);
    if (!x || !y || x.op !== y.op || x.type !== y.type) return false;
    switch (x.op) {
      case 'const':
        return x.value.every((v, k) => v === (y as typeof x).value[k]);
      case 'load': {
        const yl = y as typeof x;
        if (x.variable !== yl.variable || x.index !== undefined || yl.index !== undefined) return false;
        const i = block.indexOf(x);
        const j = block.indexOf(yl);
        if (i < 0 || j < 0) return false;
        return !storedVars(block.slice(Math.min(i, j), Math.max(i, j))).has(x.variable);
      }
      case 'call':
      case 'unary':
      case 'binary':
      case 'convert':
      case 'select': {
        if (JSON.stringify({ ...x, id: 0, a: 0, b: 0, cond: 0, args: 0 }) !== JSON.stringify({ ...y, id: 0, a: 0, b: 0, cond: 0, args: 0 })) return false;
        const ox = operands(x);
        const oy = operands(y);
        return ox.length === oy.length && ox.every((o, k) => equivalent(o, oy[k], block, depth + 1));
      }
      default:
        return false;
    }
  };

  const sameReceiver = (p: Illuminance, q: Illuminance, block: Inst[]): boolean =>
    p.category === q.category && equivalent(p.position, q.position, block) && (p.axis === undefined) === (q.axis === undefined) &&
    (p.axis === undefined || equivalent(p.axis, q.axis, block)) && (p.angle === undefined || equivalent(p.angle, q.angle, block));

  const tryMerge = (block: Inst[]): boolean => {
    for (let a = 0; a < block.length; a++) {
      const first = block[a]!;
      if (first.op !== 'illuminance' || exitsItself(first)) continue;
      for (let b = a + 1; b < block.length; b++) {
        const second = block[b]!;
        if (second.op !== 'illuminance' || exitsItself(second) || !sameReceiver(first, second, block)) continue;
        const e1 = effects(first);
        const e2 = effects(second);
        const bodies1 = effects({ ...first, position: -1, axis: -1, angle: -1 } as Inst);
        const bodies2 = effects({ ...second, position: -1, axis: -1, angle: -1 } as Inst);
        // The data-dependence check between the two loop bodies (L, Cl, Ol are per light and shared).
        const shared = new Set([first.lVar, first.clVar, first.olVar]);
        const strip = (s: Set<number>): Set<number> => new Set([...s].filter((v) => !shared.has(v)));
        if (meets(strip(bodies1.writes), bodies2.reads) || meets(strip(bodies1.writes), bodies2.writes) || meets(strip(bodies2.writes), bodies1.reads)) continue;
        // Split the instructions in between into those after I1 must stay after (D) and the rest.
        const dependent: Effects[] = [e1];
        const after: Inst[] = [];
        const before: Inst[] = [];
        for (const inst of block.slice(a + 1, b)) {
          const e = effects(inst);
          if (dependent.some((d) => conflict(d, e))) {
            dependent.push(e);
            after.push(inst);
          } else before.push(inst);
        }
        const e2Operands: Effects = { ...e2, defs: new Set(), writes: strip(e2.writes) };
        if (dependent.slice(1).some((d) => conflict(d, e2Operands)) || meets(strip(e1.writes), e2.reads)) continue;
        const fused: Illuminance = { ...first, body: [...first.body, ...second.body] };
        block.splice(a, b - a + 1, ...before, fused, ...after);
        merged++;
        return true;
      }
    }
    for (const inst of block) for (const child of children(inst)) if (tryMerge(child)) return true;
    return false;
  };
  while (tryMerge(module.main));
  return merged;
}
