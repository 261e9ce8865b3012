// Dead-code elimination: pure instructions whose value nobody reads, and stores to local variables
// nobody loads. Grid variables are written back by the kernel, so their stores always stay.
import type { Inst, IrModule } from '../ir.ts';
import { allBodies, children, isPure, operands, walk } from '../ir.ts';

export function eliminateDeadCode(module: IrModule): number {
  // Variables read outside loads: the light functions' results and what illuminance sets.
  const implicit = new Set<number>();
  for (const light of module.lights) for (const v of [light.psVar, light.lVar, light.clVar, light.olVar]) implicit.add(v);
  for (const m of module.messages) for (const v of m.sources) if (v !== undefined) implicit.add(v);
  let removed = 0;
  for (;;) {
    const used = new Set<number>();
    const loaded = new Set<number>(implicit);
    for (const body of allBodies(module)) {
      walk(body, (inst) => {
        for (const o of operands(inst)) used.add(o);
        if (inst.op === 'load') loaded.add(inst.variable);
      });
    }
    let changed = 0;
    const sweep = (block: Inst[]): void => {
      for (let k = block.length - 1; k >= 0; k--) {
        const inst = block[k]!;
        const deadValue = isPure(inst) && !used.has(inst.id) && !(inst.op === 'call' && inst.varying);
        const deadStore = inst.op === 'store' && module.vars.get(inst.variable)?.kind !== 'global' && !loaded.has(inst.variable);
        if (deadValue || deadStore || inst.op === 'nop') {
          block.splice(k, 1);
          changed++;
        } else for (const child of children(inst)) sweep(child);
      }
    };
    for (const body of allBodies(module)) sweep(body);
    removed += changed;
    if (changed === 0) return removed;
  }
}
