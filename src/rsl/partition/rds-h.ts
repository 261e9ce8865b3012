// RDS_h, the fast variant of RDS (Chan et al. 2002): each multiply-referenced node is decided by a
// local estimate instead of splitting its dominator's part twice. Recomputing costs the node's
// operations (with the recomputed nodes it needs) once more for every further reader; saving costs
// its bytes written once and read by every reader, plus the pass it becomes the root of. A node is
// recomputed when that is cheaper and what it recomputes fits one pass.
import { PartitionError } from './graph.ts';
import type { CostModel, ResourceModel } from './model.ts';
import { computedSet, passUse, passViolation, planPass, RECOMPUTE } from './passes.ts';
import type { GraphFacts, Partition } from './passes.ts';
import { multiplyReferenced, splitWith } from './rds.ts';

export function rdsHDecisions(facts: GraphFacts, costs: CostModel, limits: ResourceModel): Uint8Array {
  const { graph } = facts;
  const recompute = new Uint8Array(graph.nodes.length);
  const home = new Int32Array(graph.nodes.length);
  for (const m of multiplyReferenced(facts)) {
    const readers = facts.consumers[m]!.length;
    const { computed } = computedSet(graph, home, [m]);
    const operations = computed.reduce((sum, x) => sum + graph.nodes[x]!.cost, 0);
    const again = (readers - 1) * operations * costs.operation;
    const save = graph.nodes[m]!.bytes * (1 + readers) * costs.byte + costs.launch;
    if (again < save && passViolation(passUse(graph, planPass(facts, home, [m], () => true)), limits) === undefined) {
      recompute[m] = 1;
      home[m] = RECOMPUTE;
    }
  }
  return recompute;
}

/** Where the estimate was wrong (a node with what it recomputes does not fit a pass), the nodes it
 * recomputes are saved instead, until the split succeeds. */
export function rdsH(facts: GraphFacts, costs: CostModel, limits: ResourceModel): Partition {
  const recompute = rdsHDecisions(facts, costs, limits);
  for (;;) {
    try {
      return splitWith(facts, recompute, costs, limits);
    } catch (error) {
      if (!(error instanceof PartitionError) || error.node === undefined) throw error;
      const { recomputed } = computedSet(facts.graph, Int32Array.from(recompute, (r) => (r ? RECOMPUTE : 0)), [error.node]);
      if (recomputed.length === 0) throw error;
      for (const r of recomputed) recompute[r] = 0;
    }
  }
}
