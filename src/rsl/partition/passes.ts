// A partition and what its passes use and cost. Every partitioner describes its answer the same way:
// each node either has a home pass (computed there once; saved to an intermediate buffer when a later
// pass reads it, and restored there) or is recomputed (computed again in every pass that needs it,
// from its own inputs). This is the save-or-recompute space of Chan et al.; a pass with several
// saved values is what MRDS adds, and Heirich's dynamic program searches the same space.
import type { PartitionGraph } from './graph.ts';
import { consumersOf } from './graph.ts';
import type { CostModel, ResourceModel } from './model.ts';
import { KERNEL_STORAGE_BUFFERS } from './model.ts';

/** `home` value of a node computed again wherever it is needed. */
export const RECOMPUTE = -1;
/** `home` value of a node outside the part being partitioned: available to every pass (restored). */
export const EXTERNAL = -2;

export interface PassPlan {
  /** Nodes whose home is this pass, index order. */
  nodes: number[];
  /** Recomputed nodes this pass computes for itself, index order. */
  recomputed: number[];
  /** Values computed by earlier passes that this pass reads back. */
  restores: number[];
  /** Values of this pass's nodes that later passes read. */
  saves: number[];
  /** Outputs of the graph this pass writes. */
  writes: number[];
}

export interface PassUse {
  operations: number;
  liveValues: number;
  workgroupBytes: number;
  outputs: number;
  storageBuffers: number;
  savedBytes: number;
  restoredBytes: number;
  writtenBytes: number;
}

export interface Partition {
  /** Per node: its pass, or RECOMPUTE. */
  home: Int32Array;
  passes: PassPlan[];
  use: PassUse[];
  cost: number;
  /** Every pass within the resource model. */
  fits: boolean;
}

/** What a graph's nodes are to the partitioners: consumers, and the recompute chains they form. */
export class GraphFacts {
  readonly consumers: number[][];
  readonly isOutput: Uint8Array;
  constructor(readonly graph: PartitionGraph) {
    this.consumers = consumersOf(graph);
    this.isOutput = new Uint8Array(graph.nodes.length);
    for (const o of graph.outputs) this.isOutput[o] = 1;
  }
}

/** The nodes a pass computes: its own and the recomputed nodes they need, index order. */
export function computedSet(graph: PartitionGraph, home: ArrayLike<number>, nodes: readonly number[]): { computed: number[]; recomputed: number[] } {
  const seen = new Set<number>(nodes);
  const recomputed: number[] = [];
  const stack = [...nodes];
  while (stack.length > 0) {
    for (const i of graph.nodes[stack.pop()!]!.inputs) {
      if (home[i] === RECOMPUTE && !seen.has(i)) {
        seen.add(i);
        recomputed.push(i);
        stack.push(i);
      }
    }
  }
  recomputed.sort((a, b) => a - b);
  return { computed: [...seen].sort((a, b) => a - b), recomputed };
}

/** One pass's plan from its nodes; `saved(v)` says whether a later pass reads v. */
export function planPass(facts: GraphFacts, home: ArrayLike<number>, nodes: readonly number[], saved: (v: number) => boolean): PassPlan {
  const { graph } = facts;
  const { computed, recomputed } = computedSet(graph, home, nodes);
  const inside = new Set(computed);
  const restores = new Set<number>();
  for (const c of computed) for (const i of graph.nodes[c]!.inputs) if (!inside.has(i)) restores.add(i);
  const sorted = [...nodes].sort((a, b) => a - b);
  return {
    nodes: sorted, recomputed, restores: [...restores].sort((a, b) => a - b),
    saves: sorted.filter((v) => saved(v)), writes: sorted.filter((v) => facts.isOutput[v] === 1),
  };
}

/** What a pass uses: registers by a walk in index order (restored values loaded at first use). */
export function passUse(graph: PartitionGraph, plan: PassPlan): PassUse {
  const { nodes } = graph;
  const computed = [...plan.nodes, ...plan.recomputed].sort((a, b) => a - b);
  const lastUse = new Map<number, number>();
  for (const c of computed) for (const i of nodes[c]!.inputs) lastUse.set(i, c);
  const kept = new Set([...plan.saves, ...plan.writes]);
  let live = 0;
  let peak = 0;
  let operations = 0;
  let workgroupBytes = 0;
  const restored = new Set(plan.restores);
  const loaded = new Set<number>();
  for (const c of computed) {
    const node = nodes[c]!;
    operations += node.cost;
    workgroupBytes = Math.max(workgroupBytes, node.workgroupBytes ?? 0);
    const inputs = new Set(node.inputs);
    for (const i of inputs) {
      if (restored.has(i) && !loaded.has(i)) {
        loaded.add(i);
        live += nodes[i]!.live;
      }
    }
    live += node.live;
    peak = Math.max(peak, live);
    for (const i of inputs) if (lastUse.get(i) === c && !kept.has(i)) live -= nodes[i]!.live;
    if (!lastUse.has(c) && !kept.has(c)) live -= node.live;
  }
  const bytes = (list: number[]): number => list.reduce((sum, v) => sum + nodes[v]!.bytes, 0);
  return {
    operations, liveValues: peak, workgroupBytes, outputs: plan.saves.length + plan.writes.length,
    storageBuffers: KERNEL_STORAGE_BUFFERS + (plan.saves.length + plan.restores.length > 0 ? 1 : 0),
    savedBytes: bytes(plan.saves), restoredBytes: bytes(plan.restores), writtenBytes: bytes(plan.writes),
  };
}

/** The first limit a pass exceeds, or undefined when it fits. */
export function passViolation(use: PassUse, limits: ResourceModel): string | undefined {
  const key = violatedLimit(use, limits);
  return key && limitText(use, limits, key);
}

/** How `use` passes limit `key`, e.g. "liveValues 772 > 255". */
export function limitText(use: PassUse, limits: ResourceModel, key: keyof ResourceModel): string {
  return `${key} ${use[key]} > ${limits[key]}`;
}

/** The first limit of the resource model that `use` passes, if any. */
export function violatedLimit(use: PassUse, limits: ResourceModel): keyof ResourceModel | undefined {
  return (['operations', 'liveValues', 'workgroupBytes', 'outputs', 'storageBuffers'] as const).find((key) => use[key] > limits[key]);
}

export function passCost(use: PassUse, costs: CostModel, limits: ResourceModel): number {
  return use.operations * costs.operation * (1 + (costs.occupancy * use.liveValues) / limits.liveValues)
    + (use.savedBytes + use.restoredBytes + use.writtenBytes) * costs.byte + costs.launch;
}

/** The partition a home assignment describes (passes renumbered in order, empty ones dropped), or
 * undefined when a pass would read a value that no earlier pass computes. Nodes whose home is
 * EXTERNAL are not partitioned (a part of a graph: they count as restored); `forcedSaves` are read
 * after the last pass (a part's root). */
export function buildPartition(facts: GraphFacts, home: ArrayLike<number>, costs: CostModel, limits: ResourceModel, forcedSaves?: ReadonlySet<number>): Partition | undefined {
  const { graph } = facts;
  const n = graph.nodes.length;
  const used = [...new Set(Array.from(home).filter((h) => h >= 0))].sort((a, b) => a - b);
  const renumber = new Map(used.map((h, k) => [h, k]));
  const compact = new Int32Array(n);
  for (let v = 0; v < n; v++) compact[v] = home[v]! < 0 ? home[v]! : renumber.get(home[v]!)!;
  for (const o of graph.outputs) if (compact[o] === RECOMPUTE) return undefined;
  const members: number[][] = used.map(() => []);
  for (let v = 0; v < n; v++) if (compact[v]! >= 0) members[compact[v]!]!.push(v);
  const readLater = new Uint8Array(n);
  for (const v of forcedSaves ?? []) readLater[v] = 1;
  const shapes: PassPlan[] = [];
  for (let p = 0; p < members.length; p++) {
    const plan = planPass(facts, compact, members[p]!, () => false);
    for (const r of plan.restores) {
      // A restored value comes from a strictly earlier pass.
      if (compact[r] !== EXTERNAL && !(compact[r]! < p)) return undefined;
      readLater[r] = 1;
    }
    shapes.push(plan);
  }
  const passes = shapes.map((plan) => ({ ...plan, saves: plan.nodes.filter((v) => readLater[v] === 1) }));
  const use = passes.map((plan) => passUse(graph, plan));
  return {
    home: compact, passes, use, cost: use.reduce((sum, u) => sum + passCost(u, costs, limits), 0),
    fits: use.every((u) => passViolation(u, limits) === undefined),
  };
}
