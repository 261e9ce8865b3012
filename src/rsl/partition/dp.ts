// The dynamic-programming partitioner (Heirich, Graphics Hardware 2005): the cost of finishing the
// shader from a state (the nodes already computed) is the cheapest next pass plus the cost of
// finishing from the state after it, found by backward recursion with memoised states; a pass that
// exceeds the resource model is never extended further (the pruning that keeps the search small).
// With the save-or-recompute decisions fixed, a pass's saves and restores depend only on the state
// and the pass, so the recursion is exact.
// - Small graphs: states are all the sets of nodes closed under their inputs, passes every set that
//   can come next, and every set of recompute decisions is tried: the optimum of the whole space
//   (the tests check it against brute force).
// - Larger graphs: as in the paper, passes are runs of consecutive nodes of a linear order. The
//   orders are the program's and the pass order of each heuristic partition (RDS_h, MRDS) with its
//   decisions, so the result is optimal among all splits of those orders and never worse than the
//   heuristics.
import type { CostModel, ResourceModel } from './model.ts';
import { buildPartition, passCost, passUse, passViolation, planPass, RECOMPUTE } from './passes.ts';
import type { GraphFacts, Partition } from './passes.ts';

/** Largest graph searched exhaustively (states are bit sets; decisions 2^nodes). */
export const EXACT_DP_NODES = 9;

export interface DpOptions {
  /** Partitions whose orders and decisions seed the linear search (larger graphs). */
  seeds?: readonly Partition[];
}

export function dp(facts: GraphFacts, costs: CostModel, limits: ResourceModel, options: DpOptions = {}): Partition | undefined {
  const n = facts.graph.nodes.length;
  if (n <= EXACT_DP_NODES) return exactDp(facts, costs, limits);
  let best: Partition | undefined;
  for (const seed of options.seeds ?? []) {
    const recompute = seed.home.map((h) => (h === RECOMPUTE ? 1 : 0));
    const byPass = [...facts.graph.nodes.keys()].filter((v) => !recompute[v]).sort((a, b) => seed.home[a]! - seed.home[b]! || a - b);
    const program = [...facts.graph.nodes.keys()].filter((v) => !recompute[v]);
    for (const order of [byPass, program]) {
      const found = linearDp(facts, Uint8Array.from(recompute), order, costs, limits);
      if (found && (!best || found.cost < best.cost)) best = found;
    }
  }
  return best;
}

/** Every node a value reaches through recomputed nodes: the computed-once nodes that read it. */
function effectiveReaders(facts: GraphFacts, recompute: Uint8Array): number[][] {
  const n = facts.graph.nodes.length;
  const out: number[][] = Array.from({ length: n }, () => []);
  for (let v = n - 1; v >= 0; v--) {
    const set = new Set<number>();
    for (const c of facts.consumers[v]!) {
      if (recompute[c]) for (const x of out[c]!) set.add(x);
      else set.add(c);
    }
    out[v] = [...set];
  }
  return out;
}

function homeOf(recompute: Uint8Array): Int32Array {
  return Int32Array.from(recompute, (r) => (r ? RECOMPUTE : 0));
}

/** Best split of `order` (computed-once nodes, topological) into runs of consecutive nodes. */
function linearDp(facts: GraphFacts, recompute: Uint8Array, order: number[], costs: CostModel, limits: ResourceModel): Partition | undefined {
  const home = homeOf(recompute);
  const position = new Int32Array(facts.graph.nodes.length).fill(-1);
  order.forEach((v, k) => (position[v] = k));
  const readers = effectiveReaders(facts, recompute);
  const lastReader = order.map((v) => Math.max(-1, ...readers[v]!.map((r) => position[r]!)));
  const m = order.length;
  // next[k]: where the best pass starting at k ends; toGo[k]: the cost from k on (backward recursion).
  const toGo = new Float64Array(m + 1).fill(Infinity);
  const next = new Int32Array(m + 1).fill(-1);
  toGo[m] = 0;
  for (let k = m - 1; k >= 0; k--) {
    let operations = 0;
    for (let e = k + 1; e <= m; e++) {
      operations += facts.graph.nodes[order[e - 1]!]!.cost;
      // Operations only grow as a pass takes more nodes: past the limit no longer pass fits.
      if (operations > limits.operations) break;
      if (toGo[e] === Infinity) continue;
      const nodes = order.slice(k, e);
      const plan = planPass(facts, home, nodes, (v) => lastReader[position[v]!]! >= e);
      const use = passUse(facts.graph, plan);
      if (passViolation(use, limits) !== undefined) continue;
      const total = passCost(use, costs, limits) + toGo[e]!;
      if (total < toGo[k]!) {
        toGo[k] = total;
        next[k] = e;
      }
    }
  }
  if (toGo[0] === Infinity) return undefined;
  for (let k = 0, pass = 0; k < m; k = next[k]!, pass++) for (let x = k; x < next[k]!; x++) home[order[x]!] = pass;
  return buildPartition(facts, home, costs, limits);
}

/** The optimum over every decision set and every sequence of passes (small graphs). */
function exactDp(facts: GraphFacts, costs: CostModel, limits: ResourceModel): Partition | undefined {
  const n = facts.graph.nodes.length;
  const free = [...facts.graph.nodes.keys()].filter((v) => !facts.isOutput[v]);
  let best: Partition | undefined;
  for (let mask = 0; mask < 1 << free.length; mask++) {
    const recompute = new Uint8Array(n);
    free.forEach((v, k) => (recompute[v] = (mask >> k) & 1));
    // A recomputed node read only by one computed-once node is that node's pass computing it once:
    // the same partition as with the node computed once there, which another mask covers.
    if (free.some((v) => recompute[v] && facts.consumers[v]!.length === 1 && !recompute[facts.consumers[v]![0]!])) continue;
    const found = subsetDp(facts, recompute, costs, limits);
    if (found && (!best || found.cost < best.cost)) best = found;
  }
  return best;
}

function subsetDp(facts: GraphFacts, recompute: Uint8Array, costs: CostModel, limits: ResourceModel): Partition | undefined {
  const { graph } = facts;
  const home = homeOf(recompute);
  const once = [...graph.nodes.keys()].filter((v) => !recompute[v]);
  const bit = new Map(once.map((v, k) => [v, k]));
  const readers = effectiveReaders(facts, recompute);
  // Inputs of a computed-once node as computed-once nodes (through recomputed ones).
  const needs = once.map((v) => {
    let mask = 0;
    const stack = [...graph.nodes[v]!.inputs];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      if (recompute[x]) stack.push(...graph.nodes[x]!.inputs);
      else mask |= 1 << bit.get(x)!;
    }
    return mask;
  });
  const all = (1 << once.length) - 1;
  const memo = new Map<number, { cost: number; pass: number }>();
  const toGo = (done: number): number => {
    if (done === all) return 0;
    const known = memo.get(done);
    if (known) return known.cost;
    let bestCost = Infinity;
    let bestPass = 0;
    // Every next pass: sets of remaining nodes closed under inputs, built in index order.
    const extend = (k: number, pass: number, operations: number): void => {
      if (k === once.length) {
        if (pass === 0) return;
        const after = done | pass;
        const nodes = once.filter((_, b) => (pass >> b) & 1);
        const plan = planPass(facts, home, nodes, (v) => readers[v]!.some((r) => !((after >> bit.get(r)!) & 1)));
        const use = passUse(graph, plan);
        if (passViolation(use, limits) !== undefined) return;
        const total = passCost(use, costs, limits) + toGo(after);
        if (total < bestCost) {
          bestCost = total;
          bestPass = pass;
        }
        return;
      }
      extend(k + 1, pass, operations);
      const b = 1 << k;
      if (done & b || (needs[k]! & ~(done | pass)) !== 0) return;
      const more = operations + graph.nodes[once[k]!]!.cost;
      // Pruning: a pass over the operation budget stays over it with more nodes.
      if (more <= limits.operations) extend(k + 1, pass | b, more);
    };
    extend(0, 0, 0);
    memo.set(done, { cost: bestCost, pass: bestPass });
    return bestCost;
  };
  if (toGo(0) === Infinity) return undefined;
  for (let done = 0, p = 0; done !== all; p++) {
    const pass = memo.get(done)!.pass;
    once.forEach((v, b) => {
      if ((pass >> b) & 1) home[v] = p;
    });
    done |= pass;
  }
  return buildPartition(facts, home, costs, limits);
}
