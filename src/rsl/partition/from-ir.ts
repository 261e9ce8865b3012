// The compiled pipeline's IR as the graph the partitioners split. Each top-level instruction of the
// kernel's body is a node; an if, loop or illuminance loop is one node with everything inside it (kept
// whole in a pass), a derivative group one barrier node. Named variables become versions: a store
// (or a construct that assigns) makes a new version, and a reader depends on the version it sees, so
// passes can save and restore variables like values. A sink node reads the final version of every
// grid variable the kernel writes back: the last pass writes them.
import type { Inst, IrModule, IrType } from '../ir.ts';
import { children, loadedVars, operands, storedVars, walk } from '../ir.ts';
import type { GridLayout } from '../../layout/grid-layout.ts';
import type { PartitionGraph, PartitionNode } from './graph.ts';

/** A value a node hands on: an SSA value, or a variable as the node left it. */
export type IrItem = { kind: 'value'; id: number; type: IrType } | { kind: 'var'; variable: number; type: IrType; length: number };

export interface IrNode {
  /** The top-level instruction; undefined for the sink. */
  inst: Inst | undefined;
  /** What later nodes may read from it. */
  items: IrItem[];
  /** What it reads from earlier nodes. */
  reads: { node: number; item: IrItem }[];
  /** Variables it assigns. */
  writes: number[];
  /** Indices of `items` that later nodes read: what a pass saves of it. */
  read: Set<number>;
}

export interface IrGraph {
  graph: PartitionGraph;
  nodes: IrNode[];
  sink: number;
  /** Grid variables the kernel writes back: the node whose version is final. */
  finalVersions: Map<number, number>;
}

const SCALARS: Record<IrType, number> = { f32: 1, vec3: 3, mat4: 16, bool: 1, u32: 1 };

export function itemKey(item: IrItem): string {
  return item.kind === 'value' ? `v${item.id}` : `x${item.variable}`;
}

/** Floats an item takes in an intermediate buffer. */
export function itemFloats(item: IrItem): number {
  return SCALARS[item.type] * (item.kind === 'var' ? item.length : 1);
}

/** Registers a construct's own working values hold besides the variables it assigns (an estimate). */
const CONSTRUCT_WORKING_SET = 4;

/** Operations of an instruction: a library call counts 4, a parameter read or copy less; an
 * illuminance loop includes the light shaders it calls. */
export function instCost(inst: Inst, module: IrModule): number {
  let cost = 0;
  walk([inst], (x) => {
    switch (x.op) {
      case 'const':
      case 'load':
      case 'store':
      case 'nop':
      case 'break':
      case 'continue':
        return;
      case 'call':
        cost += x.template.startsWith('rsl_param') ? 1 : 4;
        return;
      case 'derivgroup':
        cost += 2 * x.derivs.length;
        return;
      case 'illuminance':
      case 'ambient':
        for (const light of module.lights) if (x.op === 'illuminance' ? !light.ambient : light.ambient) walk(light.body, (y) => (cost += y.op === 'call' ? 4 : y.op === 'load' || y.op === 'store' || y.op === 'const' ? 0 : 1));
        cost += 1;
        return;
      default:
        cost += 1;
    }
  });
  return cost;
}

export function irToGraph(module: IrModule, layout: GridLayout): IrGraph {
  const producer = new Map<number, number>();
  const latest = new Map<number, number>();
  const nodes: IrNode[] = [];
  const pnodes: PartitionNode[] = [];
  const lightGlobals = new Set<number>();
  for (const light of module.lights) for (const v of loadedVars(light.body)) if (module.vars.get(v)?.kind === 'global') lightGlobals.add(v);
  const varItem = (variable: number): IrItem => {
    const v = module.vars.get(variable)!;
    return { kind: 'var', variable, type: v.type, length: v.arrayLength ?? 1 };
  };
  for (const inst of module.main) {
    if (inst.op === 'nop') continue;
    const k = nodes.length;
    const nested = children(inst);
    // Values read: the instruction's operands and those of nested instructions defined outside it.
    const defined = new Set<number>();
    const used = new Set<number>(operands(inst));
    for (const block of nested) {
      walk(block, (x) => {
        if ('id' in x) defined.add(x.id);
        if (x.op === 'derivgroup') for (const d of x.derivs) defined.add(d.id);
        for (const o of operands(x)) used.add(o);
      });
    }
    const reads: IrNode['reads'] = [];
    for (const id of used) {
      if (defined.has(id)) continue;
      const from = producer.get(id);
      if (from === undefined) continue;
      const item = nodes[from]!.items.find((i) => i.kind === 'value' && i.id === id)!;
      reads.push({ node: from, item });
    }
    // Variables read (partial and conditional assignments read the version they keep) and written.
    const writes = new Set<number>();
    const readVars = new Set<number>();
    if (inst.op === 'load') readVars.add(inst.variable);
    else if (inst.op === 'store') {
      writes.add(inst.variable);
      if (inst.index !== undefined) readVars.add(inst.variable);
    } else if (nested.length > 0) {
      for (const block of nested) {
        for (const v of loadedVars(block)) readVars.add(v);
        for (const v of storedVars(block)) writes.add(v);
      }
      if (inst.op === 'illuminance') {
        for (const v of [inst.lVar, inst.clVar, inst.olVar, ...module.messages.flatMap((m) => [m.valueVar, m.hasVar])]) writes.add(v);
        for (const v of lightGlobals) readVars.add(v);
      }
      for (const v of writes) readVars.add(v);
    }
    if (inst.op === 'ambient') for (const v of lightGlobals) readVars.add(v);
    for (const v of readVars) {
      const from = latest.get(v);
      if (from !== undefined) reads.push({ node: from, item: varItem(v) });
    }
    const items: IrItem[] = [];
    if ('id' in inst) items.push({ kind: 'value', id: inst.id, type: inst.type });
    if (inst.op === 'derivgroup') for (const d of inst.derivs) items.push({ kind: 'value', id: d.id, type: d.type });
    for (const v of writes) items.push(varItem(v));
    for (const item of items) if (item.kind === 'value') producer.set(item.id, k);
    for (const v of writes) latest.set(v, k);
    nodes.push({ inst, items, reads, writes: [...writes], read: new Set() });
    let workgroupFloats = 0;
    walk([inst], (x) => {
      if (x.op === 'derivgroup') for (const d of x.derivs) workgroupFloats = Math.max(workgroupFloats, SCALARS[d.type]);
    });
    pnodes.push({
      cost: instCost(inst, module), bytes: 0, live: nested.length > 0 ? CONSTRUCT_WORKING_SET : 0,
      inputs: [...new Set(reads.map((r) => r.node))].sort((a, b) => a - b),
      ...(workgroupFloats > 0 ? { workgroupBytes: workgroupFloats * 4 * layout.maxVertices } : {}),
      ...(inst.op === 'derivgroup' ? { barrier: true } : {}),
      label: `${k}:${inst.op}${'id' in inst ? ` v${inst.id}` : ''}${inst.op === 'store' ? ` ${module.vars.get(inst.variable)?.name ?? ''}` : ''}`,
    });
  }
  // The sink: final versions of the grid variables written back, and whatever nothing reads.
  const finalVersions = new Map<number, number>();
  for (const [v, k] of latest) {
    const variable = module.vars.get(v)!;
    if (variable.kind === 'global' && layout.variables.some((slot) => slot.name === variable.name)) finalVersions.set(v, k);
  }
  const read = new Uint8Array(nodes.length);
  for (const node of pnodes) for (const i of node.inputs) read[i] = 1;
  const sinkReads: IrNode['reads'] = [...finalVersions].map(([v, k]) => ({ node: k, item: varItem(v) }));
  const sinkInputs = new Set([...finalVersions.values(), ...[...nodes.keys()].filter((k) => !read[k])]);
  const sink = nodes.length;
  nodes.push({ inst: undefined, items: [], reads: sinkReads, writes: [], read: new Set() });
  // A node's size and registers are those of the items something reads (a loop's L and Cl, say,
  // are not); only those are saved.
  for (const node of nodes) {
    for (const { node: from, item } of node.reads) {
      const target = nodes[from]!;
      const k = target.items.indexOf(item);
      const same = k >= 0 ? k : target.items.findIndex((x) => itemKey(x) === itemKey(item));
      if (same >= 0 && !target.read.has(same)) {
        target.read.add(same);
        pnodes[from]!.bytes += itemFloats(item) * 4;
        pnodes[from]!.live += itemFloats(item);
      }
    }
  }
  pnodes.push({ cost: 0, bytes: 0, live: 0, inputs: [...sinkInputs].sort((a, b) => a - b), label: 'write back' });
  return { graph: { nodes: pnodes, outputs: [sink] }, nodes, sink, finalVersions };
}
