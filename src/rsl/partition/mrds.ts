// Merging Recursive Dominator Split (Foley, Houston and Hanrahan, Graphics Hardware 2004): RDS for
// shaders with several outputs on hardware that writes several values a pass. RDS's decisions and
// single-root passes first, then passes merged wherever the merged pass fits and costs less
// (merge-passes.ts), so a pass may save or write several values. Merges only lower the cost, so
// MRDS never costs more than RDS.
import type { CostModel, ResourceModel } from './model.ts';
import { buildPartition } from './passes.ts';
import type { GraphFacts, Partition } from './passes.ts';
import { mergePasses } from './merge-passes.ts';
import { rdsDecisions } from './rds.ts';
import { splitRegions } from './split-regions.ts';

export function mrds(facts: GraphFacts, costs: CostModel, limits: ResourceModel): Partition {
  const home = mergePasses(facts, splitRegions(facts, rdsDecisions(facts, costs, limits), limits), costs, limits);
  const partition = buildPartition(facts, home, costs, limits);
  if (!partition) throw new Error('MRDS: merged passes out of order');
  return partition;
}
