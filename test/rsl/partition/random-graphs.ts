// Seeded random shader-like DAGs for the partitioner tests and benchmark: each node reads one to three
// earlier nodes (mostly recent ones, sometimes far back, so values are read by several), scalar or
// triple values, a few operations each; nodes nobody reads are the outputs.
import type { PartitionGraph, PartitionNode } from '../../../src/rsl/partition/graph.ts';

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomGraph(seed: number, size: number, options: { maxOutputs?: number } = {}): PartitionGraph {
  const random = mulberry32(seed);
  const nodes: PartitionNode[] = [];
  const read = new Uint8Array(size);
  for (let n = 0; n < size; n++) {
    const inputs = new Set<number>();
    const count = n === 0 ? 0 : 1 + Math.floor(random() * Math.min(3, n));
    for (let k = 0; k < count; k++) {
      const back = random() < 0.75 ? 1 + Math.floor(random() * Math.min(4, n)) : 1 + Math.floor(random() * n);
      inputs.add(n - back);
    }
    for (const i of inputs) read[i] = 1;
    const triple = random() < 0.4;
    nodes.push({ cost: 1 + Math.floor(random() * 8), bytes: triple ? 12 : 4, live: triple ? 3 : 1, inputs: [...inputs].sort((a, b) => a - b), label: `n${n}` });
  }
  // Unread nodes are outputs; past maxOutputs the oldest are summed pairwise into one.
  let outputs = [...nodes.keys()].filter((n) => !read[n]);
  const limit = options.maxOutputs ?? Infinity;
  while (outputs.length > limit) {
    const [a, b, ...rest] = outputs;
    nodes.push({ cost: 1, bytes: 4, live: 1, inputs: [a!, b!], label: `n${nodes.length}` });
    outputs = [...rest, nodes.length - 1];
  }
  return { nodes, outputs };
}
