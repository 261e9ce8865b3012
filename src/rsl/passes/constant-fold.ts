// Constant folding and propagation over values: arithmetic, comparisons, conversions and selects of
// constants become constants, and an if on a constant condition keeps only the branch taken.
import type { Inst, IrModule, IrType } from '../ir.ts';
import { allBodies, children, mapOperands, walk } from '../ir.ts';

type Const = { type: IrType; value: number[] };

function arithmetic(op: string, a: number, b: number): number | undefined {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return b === 0 ? undefined : a / b;
    case '<': return Number(a < b);
    case '>': return Number(a > b);
    case '<=': return Number(a <= b);
    case '>=': return Number(a >= b);
    case '&&': return Number(!!a && !!b);
    case '||': return Number(!!a || !!b);
    default: return undefined;
  }
}

export function foldConstants(module: IrModule): number {
  let folded = 0;
  for (const body of allBodies(module)) {
    const consts = new Map<number, Const>();
    const valueTypes = new Map<number, string>();
    walk(body, (inst) => {
      if ('id' in inst) valueTypes.set(inst.id, inst.type);
      if (inst.op === 'derivgroup') for (const d of inst.derivs) valueTypes.set(d.id, d.type);
    });
    const replace = new Map<number, number>();
    const fold = (inst: Inst): Const | undefined => {
      const c = (id: number): Const | undefined => consts.get(id);
      switch (inst.op) {
        case 'binary': {
          const a = c(inst.a);
          const b = c(inst.b);
          if (!a || !b || a.type === 'mat4' || b.type === 'mat4' || a.type === 'u32') return undefined;
          if (inst.operator === '==' || inst.operator === '!=') {
            const same = a.value.every((x, k) => x === b.value[k]);
            return { type: 'bool', value: [Number(inst.operator === '==' ? same : !same)] };
          }
          if (inst.operator === 'dot') return { type: 'f32', value: [a.value.reduce((s, x, k) => s + x * b.value[k]!, 0)] };
          if (inst.operator === 'cross') {
            const [x1, y1, z1] = a.value as [number, number, number];
            const [x2, y2, z2] = b.value as [number, number, number];
            return { type: 'vec3', value: [y1 * z2 - z1 * y2, z1 * x2 - x1 * z2, x1 * y2 - y1 * x2] };
          }
          const n = Math.max(a.value.length, b.value.length);
          const out: number[] = [];
          for (let k = 0; k < n; k++) {
            const r = arithmetic(inst.operator, a.value[a.value.length === 1 ? 0 : k]!, b.value[b.value.length === 1 ? 0 : k]!);
            if (r === undefined || !Number.isFinite(r)) return undefined;
            out.push(inst.type === 'f32' || inst.type === 'vec3' ? Math.fround(r) : r);
          }
          return { type: inst.type, value: out };
        }
        case 'unary': {
          const a = c(inst.a);
          if (!a || a.type === 'mat4' || a.type === 'u32') return undefined;
          return { type: inst.type, value: a.value.map((x) => (inst.operator === '-' ? -x : Number(!x))) };
        }
        case 'convert': {
          const a = c(inst.a);
          if (!a) return undefined;
          if (inst.type === 'vec3' && a.type === 'f32') return { type: 'vec3', value: [a.value[0]!, a.value[0]!, a.value[0]!] };
          if (inst.type === 'f32' && a.type === 'bool') return { type: 'f32', value: [a.value[0] ? 1 : 0] };
          if (inst.type === 'bool' && a.type === 'f32') return { type: 'bool', value: [a.value[0] !== 0 ? 1 : 0] };
          return undefined;
        }
        default:
          return undefined;
      }
    };
    const run = (block: Inst[]): void => {
      for (let k = 0; k < block.length; k++) {
        const inst = block[k]!;
        mapOperands(inst, (v) => replace.get(v) ?? v);
        if (inst.op === 'const') consts.set(inst.id, { type: inst.type, value: inst.value });
        else if (inst.op === 'select' && consts.has(inst.cond)) {
          replace.set(inst.id, consts.get(inst.cond)!.value[0] ? inst.a : inst.b);
          block.splice(k--, 1);
          folded++;
          continue;
        } else if (inst.op === 'binary' && inst.operator === '*' && (inst.type === 'f32' || inst.type === 'vec3')) {
          // x * 1 is x exactly (IEEE): e.g. (1 - __nondiffuse) * Cl when no light has __nondiffuse.
          const one = (id: number): boolean => consts.get(id)?.value.every((x) => x === 1) ?? false;
          const typeOf = (id: number): string | undefined => valueTypes.get(id);
          const other = one(inst.a) && typeOf(inst.b) === inst.type ? inst.b : one(inst.b) && typeOf(inst.a) === inst.type ? inst.a : undefined;
          if (other !== undefined) {
            replace.set(inst.id, other);
            block.splice(k--, 1);
            folded++;
            continue;
          }
          const r = fold(inst);
          if (r) {
            block[k] = { op: 'const', id: inst.id, type: r.type, value: r.value };
            consts.set(inst.id, r);
            folded++;
          }
        } else if ('id' in inst) {
          const r = fold(inst);
          if (r) {
            block[k] = { op: 'const', id: inst.id, type: r.type, value: r.value };
            consts.set(inst.id, r);
            folded++;
          }
        }
        if (inst.op === 'if' && consts.has(inst.cond)) {
          const taken = consts.get(inst.cond)!.value[0] ? inst.then : inst.else;
          block.splice(k, 1, ...taken);
          k--;
          folded++;
          continue;
        }
        for (const child of children(inst)) run(child);
      }
    };
    run(body);
    walk(body, (inst) => mapOperands(inst, (v) => replace.get(v) ?? v));
  }
  return folded;
}
