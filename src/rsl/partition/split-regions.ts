// The bottom-up pass former of RDS (Chan et al. 2002), given the save-or-recompute decisions: each
// node starts a region with the open regions of the inputs that only it reads; when the region does
// not fit one pass, the largest input regions are cut off as passes of their own (their roots saved)
// until it fits. Nodes read by several (saved) and outputs close their region at once, so every
// pass has one root, as in RDS; recomputed nodes are copied into every region that reads them.
import type { PartitionGraph } from './graph.ts';
import { PartitionError } from './graph.ts';
import type { ResourceModel } from './model.ts';
import { EXTERNAL, limitText, planPass, passUse, RECOMPUTE, violatedLimit } from './passes.ts';
import type { GraphFacts } from './passes.ts';

/** A part of a graph to split alone: its nodes (index order) and the root read after it. */
export interface GraphPart {
  nodes: readonly number[];
  root: number;
}

/** Home passes from the decisions (`recompute[v]` 1: recomputed); nodes outside `part` are EXTERNAL.
 * Throws PartitionError when a node does not fit a pass even alone. */
export function splitRegions(facts: GraphFacts, recompute: Uint8Array, limits: ResourceModel, part?: GraphPart): Int32Array {
  const { graph } = facts;
  const n = graph.nodes.length;
  const nodes = part?.nodes ?? [...graph.nodes.keys()];
  const home = new Int32Array(n).fill(part ? EXTERNAL : 0);
  for (const v of nodes) home[v] = recompute[v] && !facts.isOutput[v] && v !== part?.root ? RECOMPUTE : 0;
  // Read by one node that is itself computed once: its region may join that node's.
  const mergeable = (v: number): boolean => !facts.isOutput[v] && v !== part?.root && facts.consumers[v]!.length === 1 && home[facts.consumers[v]![0]!] !== RECOMPUTE;
  const regions = new Map<number, number[]>();
  let passes = 0;
  const close = (region: number[]): void => {
    for (const x of region) home[x] = passes;
    passes++;
  };
  const violation = (region: number[], root: number): { limit: keyof ResourceModel; text: string } | undefined => {
    for (const x of region) home[x] = n; // not RECOMPUTE, not EXTERNAL: computed in the trial pass
    const use = passUse(graph, planPass(facts, home, region, (x) => x === root));
    const limit = violatedLimit(use, limits);
    return limit && { limit, text: limitText(use, limits, limit) };
  };
  for (const v of nodes) {
    if (home[v] === RECOMPUTE) continue;
    const inputs = [...new Set(graph.nodes[v]!.inputs)].filter((i) => regions.has(i));
    const candidates = inputs.map((i) => regions.get(i)!);
    for (const i of inputs) regions.delete(i);
    let region = [v, ...candidates.flat()];
    if (violation(region, v) !== undefined) {
      // Keep the smaller input regions while they fit; cut the rest off.
      region = [v];
      const alone = violation(region, v);
      if (alone !== undefined) throw new PartitionError(`${describe(graph, v)} does not fit one pass even alone (${alone.text})`, v, alone.limit);
      const order = candidates.map((c, k) => ({ c, k, size: regionOps(graph, c) })).sort((a, b) => a.size - b.size || a.k - b.k);
      for (const { c } of order) {
        if (violation([...region, ...c], v) === undefined) region = [...region, ...c];
        else close(c);
      }
    }
    if (mergeable(v)) regions.set(v, region);
    else close(region);
  }
  return home;
}

function regionOps(graph: PartitionGraph, region: number[]): number {
  return region.reduce((sum, x) => sum + graph.nodes[x]!.cost, 0);
}

export function describe(graph: PartitionGraph, v: number): string {
  return `node ${v}${graph.nodes[v]!.label ? ` (${graph.nodes[v]!.label})` : ''}`;
}
