// A partition back to kernels: one WGSL kernel per pass, each the pipeline's kernel with only its
// pass's instructions. Values and variable versions later passes read are saved to a grid-sized
// intermediate buffer (one float slot per component, slot-major so neighbouring vertices are
// neighbouring words) and restored where a pass reads them; only the last pass writes the grid
// variables back, so every pass reads the grid as the dicer left it.
import type { Inst, IrModule, IrType } from '../ir.ts';
import type { GridLayout } from '../../layout/grid-layout.ts';
import { emitWgsl } from '../wgsl.ts';
import type { WgslOptions, WgslOutput } from '../wgsl.ts';
import type { IrGraph, IrItem } from './from-ir.ts';
import { itemFloats, itemKey } from './from-ir.ts';
import type { PartitionResult } from './index.ts';

/** The binding of the intermediate buffer in a pass kernel. */
export const INTERMEDIATE_BINDING = 7;

export interface PassKernel {
  wgsl: WgslOutput;
  /** Instructions of the pipeline this pass computes (recomputed ones included) and what it moves. */
  instructions: number;
  savedFloats: number;
  restoredFloats: number;
}

export interface EmittedPasses {
  kernels: PassKernel[];
  /** Floats per vertex of the intermediate buffer. */
  intermediateFloats: number;
}

export interface PassEmitOptions {
  workgroupBytes: number;
  maxLoopIterations?: number;
  noUniformHoisting?: boolean;
  loopFlags?: WgslOptions['loopFlags'];
}

const WGSL_TYPE: Record<IrType, string> = { f32: 'f32', vec3: 'vec3', mat4: 'mat4', bool: 'bool', u32: 'u32' };

export function emitPasses(module: IrModule, irGraph: IrGraph, result: PartitionResult, layout: GridLayout, options: PassEmitOptions): EmittedPasses {
  const { partition, contracted } = result;
  const expand = (list: readonly number[]): number[] => list.flatMap((c) => contracted.members[c]!);
  // Slots for everything a pass saves: each node is saved by its home pass only.
  const slots = new Map<string, number>();
  let intermediateFloats = 0;
  const key = (node: number, item: IrItem): string => `${node}:${itemKey(item)}`;
  for (const pass of partition.passes) {
    for (const node of expand(pass.saves)) {
      const { items, read } = irGraph.nodes[node]!;
      for (const item of items.filter((_, k) => read.has(k))) {
        slots.set(key(node, item), intermediateFloats);
        intermediateFloats += itemFloats(item);
      }
    }
  }
  let nextValue = module.nextValue;
  const fresh = (): number => nextValue++;
  const last = partition.passes.length - 1;
  const kernels = partition.passes.map((pass, p): PassKernel => {
    const computed = new Set(expand([...pass.nodes, ...pass.recomputed]));
    const saved = new Set(expand(pass.saves));
    const main: Inst[] = [];
    const current = new Map<number, number>();
    const restoredValues = new Set<number>();
    let savedFloats = 0;
    let restoredFloats = 0;
    const slotOf = (node: number, item: IrItem): number => {
      const slot = slots.get(key(node, item));
      if (slot === undefined) throw new Error(`pass ${p} reads ${key(node, item)}, which no earlier pass saves`);
      return slot;
    };
    const restore = (node: number, item: IrItem): void => {
      const slot = slotOf(node, item);
      restoredFloats += itemFloats(item);
      if (item.kind === 'value') {
        main.push(restoreCall(item.id, item.type, slot));
        restoredValues.add(item.id);
        return;
      }
      forElements(item, slot, (index, at) => {
        const value = fresh();
        main.push(restoreCall(value, item.type, at));
        main.push(index === undefined ? { op: 'store', variable: item.variable, value } : { op: 'store', variable: item.variable, value, index: indexConst(index) });
      });
      current.set(item.variable, node);
    };
    const indexConst = (index: number): number => {
      const id = fresh();
      main.push({ op: 'const', id, type: 'f32', value: [index] });
      return id;
    };
    const forElements = (item: Extract<IrItem, { kind: 'var' }>, slot: number, each: (index: number | undefined, at: number) => void): void => {
      const width = itemFloats(item) / item.length;
      if (item.length === 1 && module.vars.get(item.variable)!.arrayLength === undefined) each(undefined, slot);
      else for (let e = 0; e < item.length; e++) each(e, slot + e * width);
    };
    const nodeOrder = [...computed].sort((a, b) => a - b);
    for (const k of nodeOrder) {
      const node = irGraph.nodes[k]!;
      for (const { node: from, item } of node.reads) {
        if (item.kind === 'value') {
          if (!computed.has(from) && !restoredValues.has(item.id)) restore(from, item);
        } else if (current.get(item.variable) !== from) {
          if (computed.has(from)) throw new Error(`pass ${p}: ${key(from, item)} is computed in the pass but not current`);
          restore(from, item);
        }
      }
      if (node.inst) main.push(node.inst);
      for (const v of node.writes) current.set(v, k);
      if (saved.has(k)) {
        for (const item of node.items.filter((_, j) => node.read.has(j))) {
          const slot = slotOf(k, item);
          savedFloats += itemFloats(item);
          if (item.kind === 'value') main.push(saveCall(fresh(), item.id, item.type, slot));
          else {
            forElements(item, slot, (index, at) => {
              const value = fresh();
              main.push(index === undefined ? { op: 'load', id: value, type: item.type, variable: item.variable } : { op: 'load', id: value, type: item.type, variable: item.variable, index: indexConst(index) });
              main.push(saveCall(fresh(), value, item.type, at));
            });
          }
        }
      }
    }
    if (p === last) {
      // The grid variables as the whole pipeline leaves them.
      for (const [variable, from] of irGraph.finalVersions) {
        if (current.get(variable) !== from) restore(from, { kind: 'var', variable, type: module.vars.get(variable)!.type, length: 1 });
      }
    }
    const passModule: IrModule = { ...module, main, nextValue };
    const wgsl = emitWgsl(passModule, layout, {
      workgroupBytes: options.workgroupBytes, writeBack: p === last, intermediateBinding: INTERMEDIATE_BINDING,
      ...(options.maxLoopIterations !== undefined ? { maxLoopIterations: options.maxLoopIterations } : {}),
      ...(options.noUniformHoisting ? { noUniformHoisting: true } : {}),
      ...(options.loopFlags ? { loopFlags: options.loopFlags } : {}),
    });
    return { wgsl, instructions: nodeOrder.length, savedFloats, restoredFloats };
  });
  return { kernels, intermediateFloats };
}

function restoreCall(id: number, type: IrType, slot: number): Inst {
  return { op: 'call', id, type, template: `rsl_restore_${WGSL_TYPE[type]}(${slot}u)`, args: [], varying: true };
}

function saveCall(id: number, value: number, type: IrType, slot: number): Inst {
  return { op: 'call', id, type, template: `rsl_save_${WGSL_TYPE[type]}(${slot}u, $0)`, args: [value], varying: true };
}
