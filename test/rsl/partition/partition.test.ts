// The partitioners on worked examples and on random graphs. The examples are built from the papers'
// descriptions (their figures' exact graphs were not available): Chan et al.'s save-or-recompute
// choice for a cheap and for an expensive multiply-referenced node, Foley et al.'s shader with two
// outputs that RDS must split and MRDS writes in one pass, and a chain where cutting greedily at the
// last moment saves a triple but the optimum, which Heirich's dynamic program finds, saves a scalar.
// Costs in the examples are worked by hand with occupancy 0: ops + 4 × bytes moved + 300 a pass.
import { describe, expect, it } from 'vitest';
import type { PartitionGraph, PartitionNode } from '../../../src/rsl/partition/graph.ts';
import { contractGroups, PartitionError } from '../../../src/rsl/partition/graph.ts';
import { AUTO_DP_NODES, AUTO_MRDS_NODES, partitionGraph } from '../../../src/rsl/partition/index.ts';
import type { CostModel, ResourceModel } from '../../../src/rsl/partition/model.ts';
import { DEFAULT_COSTS, parseResourceModel, TINY_RESOURCES } from '../../../src/rsl/partition/model.ts';
import { GraphFacts, RECOMPUTE } from '../../../src/rsl/partition/passes.ts';
import type { Partition } from '../../../src/rsl/partition/passes.ts';
import { dp } from '../../../src/rsl/partition/dp.ts';
import { mrds } from '../../../src/rsl/partition/mrds.ts';
import { rds } from '../../../src/rsl/partition/rds.ts';
import { rdsH } from '../../../src/rsl/partition/rds-h.ts';
import { bruteForce, executionProblems } from './check-partition.ts';
import { randomGraph } from './random-graphs.ts';

const HAND: CostModel = { operation: 1, byte: 4, launch: 300, occupancy: 0 };
const LOOSE: ResourceModel = { workgroupBytes: 16384, liveValues: 64, operations: 15, outputs: 8, storageBuffers: 8 };

const scalar = (cost: number, inputs: number[], label: string): PartitionNode => ({ cost, bytes: 4, live: 1, inputs, label });
const triple = (cost: number, inputs: number[], label: string): PartitionNode => ({ cost, bytes: 12, live: 3, inputs, label });

function all(graph: PartitionGraph, costs: CostModel, limits: ResourceModel): Record<'rds' | 'rds_h' | 'mrds' | 'dp', Partition> {
  const facts = new GraphFacts(graph);
  const seeds = { rds_h: rdsH(facts, costs, limits), rds: rds(facts, costs, limits), mrds: mrds(facts, costs, limits) };
  const best = dp(facts, costs, limits, { seeds: [seeds.rds_h, seeds.mrds] });
  if (!best) throw new Error('dp found nothing');
  return { ...seeds, dp: best };
}

describe('worked examples', () => {
  it('Chan et al.: a cheap value read twice is recomputed (2 passes, not 3)', () => {
    // A (2 ops) read by B and C (10 each), R = B + C: B and C do not fit one 15-op pass together.
    const graph: PartitionGraph = { nodes: [scalar(2, [], 'A'), scalar(10, [0], 'B'), scalar(10, [0], 'C'), scalar(1, [1, 2], 'R')], outputs: [3] };
    const { rds: found, dp: best } = all(graph, HAND, LOOSE);
    expect(found.home[0]).toBe(RECOMPUTE);
    // B and C in passes of their own (either first), R with the second; A computed in both.
    expect(found.passes.map((p) => p.nodes.slice(0, 1)).sort()).toEqual([[1], [2]]);
    expect(found.passes[1]!.nodes).toContain(3);
    expect(found.passes.map((p) => p.recomputed)).toEqual([[0], [0]]);
    // (2 + 10 + 4·4 + 300) + (2 + 10 + 1 + 4·(4 + 4) + 300)
    expect(found.cost).toBe(673);
    expect(best.cost).toBe(673);
  });

  it('Chan et al.: an expensive value read twice is saved, and its readers share a pass', () => {
    // A (12 ops, a triple) read by B and C (3 each): recomputing A for both does not fit 15 ops.
    const graph: PartitionGraph = { nodes: [triple(12, [], 'A'), scalar(3, [0], 'B'), scalar(3, [0], 'C'), scalar(1, [1, 2], 'R')], outputs: [3] };
    const { rds: found, dp: best } = all(graph, HAND, LOOSE);
    expect(found.passes.map((p) => p.nodes)).toEqual([[0], [1, 2, 3]]);
    expect(found.passes[0]!.saves).toEqual([0]);
    expect(found.passes[1]!.restores).toEqual([0]);
    // (12 + 4·12 + 300) + (7 + 4·(12 + 4) + 300)
    expect(found.cost).toBe(731);
    expect(best.cost).toBe(731);
  });

  it('Foley et al.: two outputs of one shared value take RDS two passes and MRDS one', () => {
    const graph: PartitionGraph = { nodes: [triple(10, [], 'S'), scalar(4, [0], 'O1'), scalar(4, [0], 'O2')], outputs: [1, 2] };
    const limits = { ...LOOSE, operations: 20 };
    const { rds: single, mrds: merged, dp: best } = all(graph, HAND, limits);
    expect(single.passes.length).toBe(2);
    expect(single.home[0]).toBe(RECOMPUTE);
    // 2 × (10 + 4 + 4·4 + 300)
    expect(single.cost).toBe(660);
    expect(merged.passes.length).toBe(1);
    expect(merged.passes[0]!.writes).toEqual([1, 2]);
    // 18 + 4·8 + 300
    expect(merged.cost).toBe(350);
    expect(best.cost).toBe(350);
    // Four values a pass: five outputs need two passes even for MRDS.
    const five: PartitionGraph = { nodes: [triple(10, [], 'S'), ...[1, 2, 3, 4, 5].map((k) => scalar(1, [0], `O${k}`))], outputs: [1, 2, 3, 4, 5] };
    const capped = all(five, HAND, { ...limits, outputs: 4 });
    expect(capped.mrds.passes.length).toBe(2);
    expect(capped.mrds.use.every((u) => u.outputs <= 4)).toBe(true);
  });

  it('Heirich: the dynamic program cuts a chain where a scalar crosses, not where the greedy split fills up', () => {
    // a(triple) → b(scalar) → c → d → e (triples) → f (scalar output), 5 ops each, 20 a pass.
    const kinds = [triple, scalar, triple, triple, triple, scalar];
    const graph: PartitionGraph = { nodes: kinds.map((kind, k) => kind(5, k === 0 ? [] : [k - 1], 'abcdef'[k]!)), outputs: [5] };
    const { rds: greedy, mrds: merged, dp: best } = all(graph, HAND, { ...LOOSE, operations: 20 });
    expect(greedy.passes.map((p) => p.nodes)).toEqual([[0, 1, 2, 3], [4, 5]]);
    // (20 + 4·12 + 300) + (10 + 4·(12 + 4) + 300)
    expect(greedy.cost).toBe(742);
    expect(merged.cost).toBe(742);
    expect(best.passes.map((p) => p.nodes)).toEqual([[0, 1], [2, 3, 4, 5]]);
    // (10 + 4·4 + 300) + (20 + 4·(4 + 4) + 300)
    expect(best.cost).toBe(678);
  });
});

describe('random graphs', () => {
  const limits: ResourceModel = { workgroupBytes: 16384, liveValues: 12, operations: 40, outputs: 3, storageBuffers: 8 };

  it('every pass fits, every partition executes, and DP ≤ MRDS ≤ RDS', () => {
    for (let seed = 1; seed <= 16; seed++) {
      const graph = randomGraph(seed, 14 + ((seed * 7) % 40), { maxOutputs: 3 });
      const found = all(graph, DEFAULT_COSTS, limits);
      for (const [name, partition] of Object.entries(found)) {
        expect(partition.fits, `${name} seed ${seed}`).toBe(true);
        expect(executionProblems(graph, partition), `${name} seed ${seed}`).toEqual([]);
        for (const use of partition.use) expect(use.operations).toBeLessThanOrEqual(limits.operations);
      }
      expect(found.dp.cost, `seed ${seed}`).toBeLessThanOrEqual(found.mrds.cost + 1e-9);
      expect(found.mrds.cost, `seed ${seed}`).toBeLessThanOrEqual(found.rds.cost + 1e-9);
    }
  });

  it('DP equals brute force on small graphs', () => {
    const small: ResourceModel = { ...limits, operations: 14 };
    let partitioned = 0;
    for (let seed = 100; seed < 106; seed++) {
      const graph = randomGraph(seed, 6, { maxOutputs: 2 });
      const facts = new GraphFacts(graph);
      const exact = bruteForce(graph, DEFAULT_COSTS, small);
      const best = dp(facts, DEFAULT_COSTS, small);
      expect(best?.cost, `seed ${seed}`).toBeCloseTo(exact!.cost, 9);
      if (exact!.passes.length > 1) partitioned++;
    }
    // The cases are not all trivial.
    expect(partitioned).toBeGreaterThan(2);
  });

  it("'auto' takes the cheapest of DP, MRDS and RDS_h on a small graph, and RDS_h's alone beyond its size limits", () => {
    const small = randomGraph(7, 40, { maxOutputs: 3 });
    const found = all(small, DEFAULT_COSTS, limits);
    const auto = partitionGraph(small, 'auto', DEFAULT_COSTS, limits);
    expect(auto.partition.cost).toBeCloseTo(Math.min(found.dp.cost, found.mrds.cost, found.rds_h.cost), 9);

    // A fuzzed shader (a spline of ~1,000 knots, tens of thousands of nodes) kept 'auto' in the dynamic
    // program for hours; past the limits it is RDS_h's partition, found in a moment.
    const large = randomGraph(8, 4 * AUTO_MRDS_NODES, { maxOutputs: 3 });
    expect(large.nodes.length).toBeGreaterThan(Math.max(AUTO_DP_NODES, AUTO_MRDS_NODES));
    const started = performance.now();
    const big = partitionGraph(large, 'auto', DEFAULT_COSTS, limits);
    expect(big.algorithm).toBe('rds_h');
    expect(big.partition.fits).toBe(true);
    expect(executionProblems(large, big.partition)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a node that alone exceeds the model is an error naming it', () => {
    const graph: PartitionGraph = { nodes: [scalar(2, [], 'small'), scalar(50, [0], 'huge'), scalar(1, [1], 'out')], outputs: [2] };
    expect(() => partitionGraph(graph, 'rds', HAND, LOOSE)).toThrow(/node 1 \(huge\) does not fit one pass even alone \(operations 50 > 15\)/);
    expect(() => partitionGraph(graph, 'auto', HAND, LOOSE)).toThrow(PartitionError);
  });
});

describe('groups and barriers', () => {
  it('a group and a barrier with its operand stay in one pass', () => {
    // x → y, z (a group: an illuminance loop) → out; d = Du(w) reads w at neighbours.
    const nodes: PartitionNode[] = [
      scalar(6, [], 'x'), { ...scalar(6, [0], 'y'), group: 1 }, { ...scalar(6, [1], 'z'), group: 1 }, scalar(6, [], 'w'),
      { ...scalar(2, [3], 'd'), barrier: true, workgroupBytes: 1024 }, scalar(1, [2, 4], 'out'),
    ];
    const graph: PartitionGraph = { nodes, outputs: [5] };
    const contracted = contractGroups(graph);
    expect(contracted.members).toContainEqual([1, 2]);
    expect(contracted.members).toContainEqual([3, 4]);
    const result = partitionGraph(graph, 'auto', HAND, { ...LOOSE, operations: 14 });
    expect(result.partition.passes.length).toBeGreaterThan(1);
    const passOf = (v: number): number => result.partition.passes.findIndex((p) => [...p.nodes, ...p.recomputed].includes(contracted.nodeOf[v]!));
    expect(passOf(1)).toBe(passOf(2));
    expect(passOf(3)).toBe(passOf(4));
    expect(result.partition.use.every((u) => u.workgroupBytes <= 1024)).toBe(true);
  });

  it('a group is widened to the nodes between its members, so the merged graph stays acyclic', () => {
    // a → b → c and a → c with {a, c} a group: b must join it.
    const graph: PartitionGraph = { nodes: [{ ...scalar(1, [], 'a'), group: 7 }, scalar(1, [0], 'b'), { ...scalar(1, [0, 1], 'c'), group: 7 }], outputs: [2] };
    expect(contractGroups(graph).members).toEqual([[0, 1, 2]]);
  });
});

describe('resource profiles', () => {
  it('reads a JSON file of limits and names what is wrong with one', () => {
    expect(parseResourceModel('{"operations": 100, "liveValues": 16}', 'p.json', TINY_RESOURCES)).toEqual({ ...TINY_RESOURCES, operations: 100, liveValues: 16 });
    expect(() => parseResourceModel('{"registers": 3}', 'p.json')).toThrow(/p.json: unknown limit "registers"/);
    expect(() => parseResourceModel('{"operations": -1}', 'p.json')).toThrow(/p.json: limit "operations" must be a positive number/);
    expect(() => parseResourceModel('[1]', 'p.json')).toThrow(/p.json: expected an object/);
    expect(() => parseResourceModel('{', 'p.json')).toThrow(/p.json: not JSON/);
  });
});
