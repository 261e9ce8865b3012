// Recursive Dominator Split (Chan, Ng, Sen, Proudfoot and Hanrahan, Graphics Hardware 2002). Each
// node read by several others is either saved (the root of a pass of its own) or recomputed in every
// pass that reads it. RDS decides each such node at its immediate dominator: it splits the part of
// the graph that dominator dominates both ways (splitRegions) and keeps the cheaper; nodes deeper
// in the dominator tree are decided first, so each decision sees the ones below it made.
import { PartitionError } from './graph.ts';
import type { CostModel, ResourceModel } from './model.ts';
import { buildPartition } from './passes.ts';
import type { GraphFacts, Partition } from './passes.ts';
import { dominators } from './dominators.ts';
import { describe, splitRegions } from './split-regions.ts';

/** Nodes that can be recomputed and are read by several: the save-or-recompute decisions. */
export function multiplyReferenced(facts: GraphFacts): number[] {
  return facts.consumers.flatMap((c, v) => (c.length > 1 && !facts.isOutput[v] ? [v] : []));
}

/** The cost of the part `d` dominates split under `recompute`, or Infinity when it cannot be split. */
export function partCost(facts: GraphFacts, recompute: Uint8Array, d: number, part: number[], costs: CostModel, limits: ResourceModel): number {
  try {
    const isSink = d === facts.graph.nodes.length;
    const forced = isSink ? undefined : new Set([d]);
    const home = splitRegions(facts, recompute, limits, isSink ? undefined : { nodes: part, root: d });
    const partition = buildPartition(facts, home, costs, limits, forced);
    return partition?.fits ? partition.cost : Infinity;
  } catch (error) {
    if (error instanceof PartitionError) return Infinity;
    throw error;
  }
}

/** RDS's decisions: for each multiply-referenced node, 1 to recompute it. */
export function rdsDecisions(facts: GraphFacts, costs: CostModel, limits: ResourceModel): Uint8Array {
  const recompute = new Uint8Array(facts.graph.nodes.length);
  const dom = dominators(facts);
  const parts = new Map<number, number[]>();
  // Decided where their dominators come in a postorder: a part's own decisions are made before it is
  // split, and the nodes outside it are still saved.
  const order = multiplyReferenced(facts).sort((a, b) => dom.postorder[dom.idom[a]!]! - dom.postorder[dom.idom[b]!]! || a - b);
  for (const m of order) {
    const d = dom.idom[m]!;
    let part = parts.get(d);
    if (!part) parts.set(d, (part = dom.dominated(d)));
    recompute[m] = 0;
    const save = partCost(facts, recompute, d, part, costs, limits);
    recompute[m] = 1;
    const again = partCost(facts, recompute, d, part, costs, limits);
    recompute[m] = again < save ? 1 : 0;
    if (save === Infinity && again === Infinity) throw new PartitionError(`no split of the part below ${describe(facts.graph, d === dom.sink ? m : d)} fits the resource model`, d === dom.sink ? m : d);
  }
  return recompute;
}

/** Splits the whole graph under the decisions; throws PartitionError when a node alone does not fit. */
export function splitWith(facts: GraphFacts, recompute: Uint8Array, costs: CostModel, limits: ResourceModel): Partition {
  const partition = buildPartition(facts, splitRegions(facts, recompute, limits), costs, limits);
  if (!partition) throw new Error('split regions gave passes out of order');
  return partition;
}

export function rds(facts: GraphFacts, costs: CostModel, limits: ResourceModel): Partition {
  return splitWith(facts, rdsDecisions(facts, costs, limits), costs, limits);
}
