// The graph the shader-partitioning algorithms work on (Chan et al. 2002; Foley, Houston and Hanrahan
// 2004; Heirich 2005): a DAG of operations, each with what it costs to compute, what its value costs
// to save and restore, and how many registers it holds while live. Nodes are stored in topological
// order (every input has a smaller index), so a pass runs its nodes in index order.
import type { ResourceModel } from './model.ts';

export interface PartitionNode {
  /** Operations to compute the node once, per vertex. */
  cost: number;
  /** Bytes per vertex its value takes in an intermediate buffer (saved once, restored per reading pass). */
  bytes: number;
  /** Scalar registers its value holds while live. */
  live: number;
  /** Operand nodes, each with a smaller index. */
  inputs: number[];
  /** Workgroup memory a grid needs while the node runs (derivative neighbourhoods). */
  workgroupBytes?: number;
  /** A derivative barrier: it reads its operands at neighbouring vertices, so they are computed in its pass. */
  barrier?: boolean;
  /** Nodes with one group id run in one pass, once (an illuminance loop, varying control flow). */
  group?: number;
  /** Names the node in reports. */
  label?: string;
}

export interface PartitionGraph {
  nodes: PartitionNode[];
  /** Nodes whose values leave the shader (written by the pass that computes them). */
  outputs: number[];
}

/** A graph the partitioners cannot work on, or one they cannot fit into the resource model (`node`:
 * the node that does not fit a pass). */
export class PartitionError extends Error {
  /** `limit`: the resource a single node needs more of than one pass has. */
  constructor(message: string, readonly node?: number, readonly limit?: keyof ResourceModel) {
    super(message);
  }
}

/** Throws PartitionError unless inputs precede their nodes and every node reaches an output. */
export function validateGraph(graph: PartitionGraph): void {
  const { nodes, outputs } = graph;
  nodes.forEach((node, n) => {
    for (const i of node.inputs) if (!(i >= 0 && i < n)) throw new PartitionError(`node ${n} reads node ${i}: inputs must come before their node`);
    if (!(node.cost >= 0 && node.bytes >= 0 && node.live >= 0)) throw new PartitionError(`node ${n} has a negative or missing cost, size or live count`);
  });
  for (const o of outputs) if (!(o >= 0 && o < nodes.length)) throw new PartitionError(`output ${o} is not a node`);
  const useful = new Uint8Array(nodes.length);
  for (const o of outputs) useful[o] = 1;
  for (let n = nodes.length - 1; n >= 0; n--) if (useful[n]) for (const i of nodes[n]!.inputs) useful[i] = 1;
  const dead = useful.indexOf(0);
  if (dead >= 0) throw new PartitionError(`node ${dead}${nodes[dead]!.label ? ` (${nodes[dead]!.label})` : ''} reaches no output`);
}

/** For each node, the nodes reading it (each once, in index order). */
export function consumersOf(graph: PartitionGraph): number[][] {
  const out = graph.nodes.map(() => [] as number[]);
  graph.nodes.forEach((node, n) => {
    for (const i of new Set(node.inputs)) out[i]!.push(n);
  });
  return out;
}

/** A graph whose nodes stand for groups of nodes of another graph. */
export interface ContractedGraph {
  graph: PartitionGraph;
  /** For each contracted node, the original nodes it stands for (index order). */
  members: number[][];
  /** For each original node, its contracted node. */
  nodeOf: Int32Array;
}

/**
 * Merges the nodes that must share a pass into single nodes: each group, and each barrier with its
 * operands, widened to every node on a path between two members (so the result stays acyclic).
 * A merged node costs the sum of its members, saves the members read outside it, and holds all its
 * members' registers (a conservative bound); its workgroup need is the largest member's.
 */
export function contractGroups(graph: PartitionGraph): ContractedGraph {
  validateGraph(graph);
  const n = graph.nodes.length;
  const parent = Int32Array.from({ length: n }, (_, k) => k);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  const union = (a: number, b: number): boolean => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return false;
    parent[Math.max(ra, rb)] = Math.min(ra, rb);
    return true;
  };
  const byGroup = new Map<number, number>();
  graph.nodes.forEach((node, k) => {
    if (node.group !== undefined) {
      const first = byGroup.get(node.group);
      if (first === undefined) byGroup.set(node.group, k);
      else union(first, k);
    }
    if (node.barrier) for (const i of node.inputs) union(k, i);
  });
  // Convex closure: a node reached from a set and reaching back into it joins it. Repeat until stable.
  const consumers = consumersOf(graph);
  for (let changed = true; changed; ) {
    changed = false;
    const sets = new Map<number, number[]>();
    for (let k = 0; k < n; k++) {
      const r = find(k);
      const list = sets.get(r);
      if (list) list.push(k);
      else sets.set(r, [k]);
    }
    for (const list of sets.values()) {
      if (list.length < 2) continue;
      const below = reach(list, (k) => graph.nodes[k]!.inputs);
      const above = reach(list, (k) => consumers[k]!);
      for (const k of below) if (above.has(k) && union(list[0]!, k)) changed = true;
    }
  }
  // The merged graph is acyclic (convex sets); its nodes in a topological order, earliest members first.
  const roots = [...new Set(Array.from({ length: n }, (_, k) => find(k)))];
  const rootEdges = new Map<number, Set<number>>(roots.map((r) => [r, new Set()]));
  const waiting = new Map<number, number>(roots.map((r) => [r, 0]));
  graph.nodes.forEach((node, k) => {
    for (const i of node.inputs) {
      const from = find(i);
      const to = find(k);
      if (from !== to && !rootEdges.get(from)!.has(to)) {
        rootEdges.get(from)!.add(to);
        waiting.set(to, waiting.get(to)! + 1);
      }
    }
  });
  const ready = roots.filter((r) => waiting.get(r) === 0);
  const rootIndex = new Map<number, number>();
  while (ready.length > 0) {
    ready.sort((a, b) => b - a);
    const r = ready.pop()!;
    rootIndex.set(r, rootIndex.size);
    for (const to of rootEdges.get(r)!) {
      waiting.set(to, waiting.get(to)! - 1);
      if (waiting.get(to) === 0) ready.push(to);
    }
  }
  const nodeOf = new Int32Array(n);
  const members: number[][] = roots.map(() => []);
  for (let k = 0; k < n; k++) {
    const c = rootIndex.get(find(k))!;
    nodeOf[k] = c;
    members[c]!.push(k);
  }
  const outputs = new Set(graph.outputs);
  const nodes: PartitionNode[] = members.map((list) => {
    const inside = new Set(list);
    const inputs = new Set<number>();
    let cost = 0;
    let bytes = 0;
    let live = 0;
    let workgroupBytes = 0;
    for (const k of list) {
      const node = graph.nodes[k]!;
      cost += node.cost;
      live += node.live;
      workgroupBytes = Math.max(workgroupBytes, node.workgroupBytes ?? 0);
      for (const i of node.inputs) if (!inside.has(i)) inputs.add(nodeOf[i]!);
      if (outputs.has(k) || consumers[k]!.some((u) => !inside.has(u))) bytes += node.bytes;
    }
    const single = list.length === 1 ? graph.nodes[list[0]!]! : undefined;
    const label = single?.label ?? `{${list.map((k) => graph.nodes[k]!.label ?? String(k)).join(', ')}}`;
    return { cost, bytes, live, inputs: [...inputs].sort((a, b) => a - b), ...(workgroupBytes > 0 ? { workgroupBytes } : {}), label };
  });
  return { graph: { nodes, outputs: [...new Set(graph.outputs.map((o) => nodeOf[o]!))] }, members, nodeOf };
}

function reach(start: number[], next: (k: number) => number[]): Set<number> {
  const seen = new Set<number>(start);
  const stack = [...start];
  while (stack.length > 0) {
    for (const x of next(stack.pop()!)) {
      if (!seen.has(x)) {
        seen.add(x);
        stack.push(x);
      }
    }
  }
  return seen;
}
