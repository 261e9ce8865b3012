// Dominators in the direction values flow: node d dominates v when every path from v to an output
// passes through d. The outputs hang under one virtual sink (index = node count). RDS decides each
// multiply-referenced node at its immediate dominator, over the part of the graph that node
// dominates: nothing outside that part reads anything inside it except through the dominator.
import type { GraphFacts } from './passes.ts';

export interface Dominators {
  /** Immediate dominator of each node; the sink (node count) for outputs and nodes reaching several. */
  idom: Int32Array;
  /** The sink's index. */
  sink: number;
  /** Position of each node (and the sink, last) in a postorder of the dominator tree: a node after
   * everything it dominates. */
  postorder: Int32Array;
  /** The nodes `d` dominates, `d` included, in index order (the whole graph for the sink). */
  dominated(d: number): number[];
}

export function dominators(facts: GraphFacts): Dominators {
  const n = facts.graph.nodes.length;
  const idom = new Int32Array(n + 1);
  const depth = new Int32Array(n + 1);
  idom[n] = n;
  const lca = (a: number, b: number): number => {
    while (a !== b) {
      if (depth[a]! > depth[b]!) a = idom[a]!;
      else if (depth[b]! > depth[a]!) b = idom[b]!;
      else {
        a = idom[a]!;
        b = idom[b]!;
      }
    }
    return a;
  };
  // Consumers have larger indices, so they are placed first.
  for (let v = n - 1; v >= 0; v--) {
    let d = facts.isOutput[v] ? n : -1;
    for (const c of facts.consumers[v]!) d = d < 0 ? c : lca(d, c);
    idom[v] = d;
    depth[v] = depth[d]! + 1;
  }
  const children: number[][] = Array.from({ length: n + 1 }, () => []);
  for (let v = 0; v < n; v++) children[idom[v]!]!.push(v);
  const postorder = new Int32Array(n + 1);
  let next = 0;
  const stack: { v: number; child: number }[] = [{ v: n, child: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const child = children[top.v]![top.child++];
    if (child === undefined) {
      postorder[top.v] = next++;
      stack.pop();
    } else stack.push({ v: child, child: 0 });
  }
  return {
    idom, sink: n, postorder,
    dominated(d: number): number[] {
      const out: number[] = d === n ? [] : [d];
      const stack = [...children[d]!];
      while (stack.length > 0) {
        const v = stack.pop()!;
        out.push(v);
        stack.push(...children[v]!);
      }
      return out.sort((a, b) => a - b);
    },
  };
}
