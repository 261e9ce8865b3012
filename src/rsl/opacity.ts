// What a compiled pipeline does to opacity, from the data flow of its IR: whether Oi is 1 wherever
// Os is 1, so that a primitive with Os = 1 stays opaque and the renderer may take the opaque
// (atomic-depth) sampling path. Checked by evaluating every value stored into Oi under the assumption
// Os = (1, 1, 1): it must then be exactly 1 (Oi = Os, Oi = 1, fog's mix(Oi, color 1, d), ...).
import { walk, type IrModule, type ValueInst } from './ir.ts';

/** True when no shader of the pipeline assigns Oi, or every value it stores is 1 wherever Os is 1. */
export function keepsOpaque(ir: IrModule): boolean {
  const globalId = (name: string): number | undefined => [...ir.vars.values()].find((v) => v.kind === 'global' && v.name === name)?.id;
  const oi = globalId('Oi');
  if (oi === undefined) return true;
  const os = globalId('Os');
  const definitions = new Map<number, ValueInst>();
  const stores = new Map<number, number[]>();
  walk(ir.main, (inst) => {
    if ('id' in inst) definitions.set(inst.id, inst);
    if (inst.op === 'store') stores.set(inst.variable, [...(stores.get(inst.variable) ?? []), inst.value]);
  });

  // Variables assumed to hold 1 while their stores are checked (a loop may store a variable from itself).
  const assumed = new Set<number>();
  const variableIsOne = (variable: number): boolean => {
    if (variable === os) return true;
    const kind = ir.vars.get(variable)?.kind;
    if (kind === 'param') return false;
    const values = stores.get(variable) ?? [];
    // Oi before any store holds Os (the renderer's opacity); a local without stores holds zero.
    if (values.length === 0) return variable === oi;
    if (assumed.has(variable)) return true;
    assumed.add(variable);
    const one = values.every(isOne);
    assumed.delete(variable);
    return one;
  };
  const isOne = (value: number): boolean => {
    const inst = definitions.get(value);
    if (!inst) return false;
    switch (inst.op) {
      case 'const':
        return inst.value.length > 0 && inst.value.every((c) => c === 1);
      case 'load':
        return inst.index === undefined && variableIsOne(inst.variable);
      case 'convert':
        return isOne(inst.a);
      case 'binary':
        return (inst.operator === '*' || inst.operator === '/') && isOne(inst.a) && isOne(inst.b);
      case 'select':
        return isOne(inst.a) && isOne(inst.b);
      case 'call':
        // mix(a, b, t) = a + (b - a) t: 1 when both ends are; a colour built from three 1s.
        if (/^mix\(/.test(inst.template)) return inst.args.length === 3 && isOne(inst.args[0]!) && isOne(inst.args[1]!);
        return /^vec3f\(\$0, \$1, \$2\)$/.test(inst.template) && inst.args.every(isOne);
      default:
        return false;
    }
  };
  return variableIsOne(oi);
}
