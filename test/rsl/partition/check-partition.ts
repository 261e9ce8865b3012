// Independent checks of a partition, written from the definition of a multipass execution rather than
// from the partitioner's own bookkeeping: passes run in order; a pass computes its nodes in index
// order from values it computed before or restored from what an earlier pass saved; every output is
// written once; and brute force over every home assignment of a small graph.
import type { PartitionGraph } from '../../../src/rsl/partition/graph.ts';
import type { CostModel, ResourceModel } from '../../../src/rsl/partition/model.ts';
import { buildPartition, GraphFacts } from '../../../src/rsl/partition/passes.ts';
import type { Partition } from '../../../src/rsl/partition/passes.ts';

/** Problems with the partition as an execution plan (empty when it is one). */
export function executionProblems(graph: PartitionGraph, partition: Partition): string[] {
  const problems: string[] = [];
  const saved = new Set<number>();
  const written = new Map<number, number>();
  const computedOnce = new Map<number, number>();
  partition.passes.forEach((pass, p) => {
    const computed = [...pass.nodes, ...pass.recomputed].sort((a, b) => a - b);
    const here = new Set<number>();
    for (const v of pass.nodes) computedOnce.set(v, (computedOnce.get(v) ?? 0) + 1);
    for (const v of computed) {
      for (const i of graph.nodes[v]!.inputs) {
        if (here.has(i)) continue;
        if (!saved.has(i)) problems.push(`pass ${p}: node ${v} reads ${i}, neither computed before it in the pass nor saved earlier`);
        else if (!pass.restores.includes(i)) problems.push(`pass ${p}: node ${v} reads ${i} without restoring it`);
      }
      here.add(v);
    }
    for (const s of pass.saves) if (!here.has(s)) problems.push(`pass ${p} saves ${s} it does not compute`);
    for (const w of pass.writes) {
      if (!here.has(w)) problems.push(`pass ${p} writes ${w} it does not compute`);
      written.set(w, (written.get(w) ?? 0) + 1);
    }
    for (const s of pass.saves) saved.add(s);
  });
  for (const o of graph.outputs) if (written.get(o) !== 1) problems.push(`output ${o} written ${written.get(o) ?? 0} times`);
  for (const [v, count] of computedOnce) if (count !== 1) problems.push(`node ${v} has ${count} home passes`);
  return problems;
}

/** The cheapest partition that fits, over every assignment of nodes to passes or recomputation. */
export function bruteForce(graph: PartitionGraph, costs: CostModel, limits: ResourceModel): Partition | undefined {
  const facts = new GraphFacts(graph);
  const n = graph.nodes.length;
  const home = new Int32Array(n);
  let best: Partition | undefined;
  const visit = (v: number): void => {
    if (v === n) {
      // Pass numbers with gaps repeat an assignment without them.
      const used = new Set(Array.from(home).filter((h) => h >= 0));
      if (used.size === 0 || Math.max(...used) !== used.size - 1) return;
      const partition = buildPartition(facts, home, costs, limits);
      if (partition?.fits && (!best || partition.cost < best.cost)) best = partition;
      return;
    }
    // -1 recomputes; n pass numbers allow every order of up to n passes (buildPartition renumbers).
    for (let h = -1; h < n; h++) {
      // An input computed once must be computed in this pass or an earlier one.
      if (h >= 0 && graph.nodes[v]!.inputs.some((i) => home[i]! > h)) continue;
      home[v] = h;
      visit(v + 1);
    }
  };
  visit(0);
  return best;
}
