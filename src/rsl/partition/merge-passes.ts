// Pass merging, the step MRDS (Foley, Houston and Hanrahan 2004) adds to RDS for hardware that writes
// several values per pass: two passes become one where the result still fits, which saves a launch,
// the values one saved only for the other, and reading twice what both read. Merges are taken best
// first while any lowers the cost. Only passes that share data (one reads the other, or both read
// one value) or are neighbours are tried.
import type { CostModel, ResourceModel } from './model.ts';
import { buildPartition, EXTERNAL, passCost, passUse, passViolation, planPass } from './passes.ts';
import type { GraphFacts, Partition } from './passes.ts';

export function mergePasses(facts: GraphFacts, home: Int32Array, costs: CostModel, limits: ResourceModel, forcedSaves?: ReadonlySet<number>): Int32Array {
  let partition = buildPartition(facts, home, costs, limits, forcedSaves);
  if (!partition) throw new Error('merge: passes out of order');
  for (;;) {
    const best = bestMerge(facts, partition, costs, limits, forcedSaves);
    if (!best) return partition.home;
    const next = Int32Array.from(partition.home);
    for (const p of [best.i, best.j]) for (const v of partition.passes[p]!.nodes) next[v] = best.target;
    const rebuilt = buildPartition(facts, next, costs, limits, forcedSaves);
    if (!rebuilt) throw new Error('merge: a checked merge put passes out of order');
    partition = rebuilt;
  }
}

function bestMerge(facts: GraphFacts, partition: Partition, costs: CostModel, limits: ResourceModel, forcedSaves?: ReadonlySet<number>): { i: number; j: number; target: number } | undefined {
  const { passes, home } = partition;
  const readers = new Map<number, number[]>();
  passes.forEach((pass, p) => {
    for (const r of pass.restores) {
      const list = readers.get(r);
      if (list) list.push(p);
      else readers.set(r, [p]);
    }
  });
  const pairs = new Set<number>();
  const pair = (a: number, b: number): void => {
    if (a !== b) pairs.add(Math.min(a, b) * passes.length + Math.max(a, b));
  };
  for (let p = 0; p + 1 < passes.length; p++) pair(p, p + 1);
  for (const [value, list] of readers) {
    if (home[value]! >= 0) for (const p of list) pair(home[value]!, p);
    for (let a = 0; a + 1 < list.length; a++) pair(list[a]!, list[a + 1]!);
  }
  let best: { i: number; j: number; target: number; delta: number } | undefined;
  for (const key of pairs) {
    const i = Math.floor(key / passes.length);
    const j = key % passes.length;
    // The merged pass goes where j was when j reads nothing from passes after i, else where i was
    // when no pass in between reads i.
    const jEarly = passes[j]!.restores.every((r) => home[r] === EXTERNAL || home[r]! <= i);
    const iLate = passes[i]!.saves.every((v) => (readers.get(v) ?? []).every((p) => p <= i || p >= j));
    if (!jEarly && !iLate) continue;
    const nodes = [...passes[i]!.nodes, ...passes[j]!.nodes];
    const plan = planPass(facts, home, nodes, (v) => forcedSaves?.has(v) === true || (readers.get(v) ?? []).some((p) => p !== i && p !== j));
    const use = passUse(facts.graph, plan);
    if (passViolation(use, limits) !== undefined) continue;
    const delta = passCost(use, costs, limits) - passCost(partition.use[i]!, costs, limits) - passCost(partition.use[j]!, costs, limits);
    if (delta < (best?.delta ?? -1e-9)) best = { i, j, target: jEarly ? i : j, delta };
  }
  return best;
}
