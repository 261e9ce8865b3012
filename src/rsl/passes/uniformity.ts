// Uniform/varying analysis on the IR: which values and variables can differ between the vertices of
// a grid. Sources of variation are the grid's vertex data, derivatives, random(), lighting, and
// anything assigned under control flow whose condition varies. Iterated to a fixed point because
// loops carry values around.
import type { Inst, IrModule } from '../ir.ts';
import { children, operands, walk } from '../ir.ts';

export interface Uniformity {
  varyingValues: Set<number>;
  varyingVars: Set<number>;
}

const UNIFORM_GLOBALS = new Set(['frame_E', 'frame_ncomps', 'frame_time', 'frame_dtime', 'frame_alpha']);

export function analyzeUniformity(module: IrModule, body: Inst[] = module.main): Uniformity {
  const varyingValues = new Set<number>();
  const varyingVars = new Set<number>();
  for (const v of module.vars.values()) if (v.kind === 'global' && !UNIFORM_GLOBALS.has(v.name)) varyingVars.add(v.id);
  let changed = true;
  const mark = (set: Set<number>, id: number): void => {
    if (!set.has(id)) {
      set.add(id);
      changed = true;
    }
  };
  const run = (block: Inst[], varyingControl: boolean): void => {
    for (const inst of block) {
      const anyVarying = operands(inst).some((o) => varyingValues.has(o));
      switch (inst.op) {
        case 'load':
          if (varyingVars.has(inst.variable) || anyVarying) mark(varyingValues, inst.id);
          break;
        case 'store':
          if (anyVarying || varyingControl) mark(varyingVars, inst.variable);
          break;
        case 'deriv':
        case 'ambient':
          mark(varyingValues, inst.id);
          break;
        case 'call':
          if (anyVarying || inst.varying) mark(varyingValues, inst.id);
          break;
        case 'derivgroup':
          for (const d of inst.derivs) mark(varyingValues, d.id);
          break;
        case 'if':
          run(inst.then, varyingControl || anyVarying);
          run(inst.else, varyingControl || anyVarying);
          break;
        case 'loop': {
          // A loop whose exits depend on varying values runs a varying number of times.
          const exitsVary = containsVaryingExit(inst.body, varyingValues);
          run(inst.body, varyingControl || exitsVary);
          run(inst.continuing, varyingControl || exitsVary);
          break;
        }
        case 'illuminance':
        case 'illuminate':
          // Which lights reach a vertex varies with the vertex.
          run(inst.body, true);
          break;
        default:
          if ('id' in inst && anyVarying) mark(varyingValues, inst.id);
      }
    }
  };
  while (changed) {
    changed = false;
    run(body, false);
  }
  return { varyingValues, varyingVars };
}

/**
 * True when a break or continue that leaves the block (not one of a loop nested in it) sits under a
 * varying condition: a loop with such a body runs a varying number of times.
 */
export function containsVaryingExit(block: Inst[], varying: Set<number>): boolean {
  const inner = new Set<number>();
  walk(block, (inst) => {
    if (inst.op === 'loop' || inst.op === 'illuminance') inner.add(inst.loop);
  });
  const leaves = (inst: Inst): boolean => ((inst.op === 'break' || inst.op === 'continue') && !inner.has(inst.loop)) || children(inst).some((c) => c.some(leaves));
  const search = (list: Inst[]): boolean =>
    list.some((inst) => (inst.op === 'if' && varying.has(inst.cond) && [...inst.then, ...inst.else].some(leaves)) || children(inst).some(search));
  return search(block);
}
