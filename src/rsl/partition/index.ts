// Shader partitioning: splits a graph that does not fit one pass of the resource model into passes
// that each fit, by RDS, RDS_h, MRDS or the dynamic program, or the cheapest of them ('auto').
import { contractGroups, PartitionError } from './graph.ts';
import type { ContractedGraph, PartitionGraph } from './graph.ts';
import type { CostModel, ResourceModel } from './model.ts';
import { buildPartition, GraphFacts } from './passes.ts';
import type { Partition } from './passes.ts';
import { dp } from './dp.ts';
import { mrds } from './mrds.ts';
import { rds } from './rds.ts';
import { rdsH } from './rds-h.ts';

export type PartitionAlgorithm = 'rds' | 'rds_h' | 'mrds' | 'dp' | 'auto';
export const PARTITION_ALGORITHMS: readonly PartitionAlgorithm[] = ['rds', 'rds_h', 'mrds', 'dp', 'auto'];

/**
 * 'auto' runs the dynamic program and MRDS only on graphs up to these sizes (nodes after contraction):
 * their time grows about as the square of the size (bench:partition: DP 23 s, MRDS 5 s at ~440 nodes
 * on this 2-core machine), and a shader of tens of thousands of nodes (a spline of 1,000 knots) kept
 * the compiler busy for hours. Larger graphs take RDS_h's partition, which is near linear. Sizes,
 * not a clock, so that a shader compiles to the same kernel on every machine.
 */
export const AUTO_DP_NODES = 200;
export const AUTO_MRDS_NODES = 400;

export interface PartitionResult {
  /** The graph the passes are over: the input with its groups and barriers merged into nodes. */
  contracted: ContractedGraph;
  partition: Partition;
  /** The algorithm whose partition this is ('single' when the graph fits one pass). */
  algorithm: PartitionAlgorithm | 'single';
  /** Milliseconds the partitioner took. */
  milliseconds: number;
}

/** Splits `graph` into passes; one pass when it fits. Throws PartitionError when a node alone does not fit. */
export function partitionGraph(graph: PartitionGraph, algorithm: PartitionAlgorithm, costs: CostModel, limits: ResourceModel): PartitionResult {
  const start = performance.now();
  const contracted = contractGroups(graph);
  const facts = new GraphFacts(contracted.graph);
  const single = buildPartition(facts, new Int32Array(contracted.graph.nodes.length), costs, limits)!;
  if (single.fits) return { contracted, partition: single, algorithm: 'single', milliseconds: performance.now() - start };
  const partition = run(facts, algorithm, costs, limits);
  return { contracted, partition: partition.partition, algorithm: partition.algorithm, milliseconds: performance.now() - start };
}

function run(facts: GraphFacts, algorithm: PartitionAlgorithm, costs: CostModel, limits: ResourceModel): { partition: Partition; algorithm: PartitionAlgorithm } {
  switch (algorithm) {
    case 'rds':
      return { partition: rds(facts, costs, limits), algorithm };
    case 'rds_h':
      return { partition: rdsH(facts, costs, limits), algorithm };
    case 'mrds':
      return { partition: mrds(facts, costs, limits), algorithm };
    case 'dp':
    case 'auto': {
      const nodes = facts.graph.nodes.length;
      const seeds = { rds_h: rdsH(facts, costs, limits), mrds: algorithm === 'dp' || nodes <= AUTO_MRDS_NODES ? mrds(facts, costs, limits) : undefined };
      const ranked: { partition: Partition; algorithm: PartitionAlgorithm }[] = [{ partition: seeds.rds_h, algorithm: 'rds_h' }];
      if (seeds.mrds) ranked.push({ partition: seeds.mrds, algorithm: 'mrds' });
      if (algorithm === 'dp' || nodes <= AUTO_DP_NODES) {
        const found = dp(facts, costs, limits, { seeds: ranked.map((r) => r.partition) });
        if (!found) throw new PartitionError('the dynamic program found no partition that fits');
        if (algorithm === 'dp') return { partition: found, algorithm };
        ranked.push({ partition: found, algorithm: 'dp' });
      }
      return ranked.reduce((a, b) => (b.partition.cost <= a.partition.cost ? b : a));
    }
  }
}

export { PartitionError } from './graph.ts';
export type { PartitionGraph, PartitionNode } from './graph.ts';
export type { CostModel, ResourceModel } from './model.ts';
export { DEFAULT_COSTS, DEFAULT_RESOURCES, parseResourceModel, RESOURCE_PROFILES, TINY_RESOURCES } from './model.ts';
export type { Partition, PassPlan, PassUse } from './passes.ts';
