// Store-to-load forwarding: a load of a variable whose value is known (stored earlier on every path
// to the load, with no store in between) reads the stored value directly. This turns most local
// variables into plain SSA values, which lets folding, DCE and derivative relocation see through them.
import type { Inst, IrModule } from '../ir.ts';
import { allBodies, mapOperands, storedVars, walk } from '../ir.ts';

export function forwardStores(module: IrModule): number {
  let forwarded = 0;
  for (const body of allBodies(module)) {
    // illuminate and solar set the light's L before their body runs: an implicit store.
    const light = module.lights.find((l) => l.body === body);
    const replace = new Map<number, number>();
    const run = (block: Inst[], known: Map<number, number>): void => {
      for (let k = 0; k < block.length; k++) {
        const inst = block[k]!;
        mapOperands(inst, (v) => replace.get(v) ?? v);
        switch (inst.op) {
          case 'store':
            if (inst.index === undefined && !module.vars.get(inst.variable)?.arrayLength) known.set(inst.variable, inst.value);
            else known.delete(inst.variable);
            break;
          case 'load': {
            const value = inst.index === undefined ? known.get(inst.variable) : undefined;
            if (value !== undefined) {
              replace.set(inst.id, value);
              block.splice(k--, 1);
              forwarded++;
            }
            break;
          }
          case 'if': {
            run(inst.then, new Map(known));
            run(inst.else, new Map(known));
            for (const v of storedVars([inst])) known.delete(v);
            break;
          }
          case 'loop':
          case 'illuminance':
          case 'illuminate': {
            const changed = storedVars([inst]);
            if (inst.op === 'illuminance') for (const v of [inst.lVar, inst.clVar, inst.olVar]) changed.add(v);
            if (inst.op === 'illuminate' && light) changed.add(light.lVar);
            for (const v of changed) known.delete(v);
            if (inst.op === 'loop') {
              run(inst.body, new Map(known));
              run(inst.continuing, new Map(known));
            } else run(inst.body, new Map(known));
            for (const v of changed) known.delete(v);
            break;
          }
        }
      }
    };
    run(body, new Map());
    // Uses inside nested blocks that were visited before the replacement was recorded.
    walk(body, (inst) => mapOperands(inst, (v) => replace.get(v) ?? v));
  }
  return forwarded;
}
