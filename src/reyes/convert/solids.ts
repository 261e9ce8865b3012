// CSG (RI 3.2 section 5.9, SolidBegin/SolidEnd) as the table compositing evaluates per subpixel
// (src/layout/solid-table.ts, reyes-composite.wgsl). Each "primitive" block is a leaf, all its
// primitives one closed boundary; a geometric primitive given directly in a set-operation block is
// a leaf of its own (the parser warns). "union", "intersection" and "difference" (the first child
// less the others) nest to any depth, as binary operators folded left. A solid block without
// primitives is the empty set: a union or a difference's subtrahends drop it, an intersection or a
// difference's first operand with it is empty and its primitives are not drawn.
import type { Frame, Solid } from '../../rib/scene.ts';
import { MAX_SOLID_LEAVES, MAX_SOLID_STACK, SOLID_NODE, SOLID_TABLE, SolidOp } from '../../layout/solid-table.ts';

export interface FrameSolids {
  /** The CSG table (solid-table.ts): the leaf count 0 where the frame has no solids. */
  table: Uint32Array;
  /** Per primitive: 1 + its leaf, 0 outside solids, or -1 where its solid is empty (not drawn). */
  leafOf: Int32Array;
}

type Expression = { leaf: number } | { op: 'union' | 'intersection' | 'difference'; a: Expression; b: Expression };

export function frameSolids(frame: Frame, warn: (message: string) => void): FrameSolids {
  const leafOf = new Int32Array(frame.primitives.length);
  const nodes: number[] = [];
  const leafRanges: [number, number][] = [];
  const children = new Map<number, number[]>();
  frame.solids.forEach((s, k) => {
    if (s.parent !== null) children.set(s.parent, [...(children.get(s.parent) ?? []), k]);
  });
  const at = (s: Solid): string => `${s.source.file}:${s.source.line}:${s.source.column}: `;
  let leavesWarned = false;

  frame.solids.forEach((top, index) => {
    if (top.parent !== null) return;
    // The tree's leaves, each with its primitives; assigned to leafOf only once the tree fits.
    const leaves: number[][] = [];
    const empty: number[] = [];
    const build = (k: number): Expression | undefined => {
      const solid = frame.solids[k]!;
      if (solid.operation === 'primitive') {
        if (solid.primitives.length === 0) return undefined;
        leaves.push(solid.primitives);
        return { leaf: leaves.length - 1 };
      }
      // Child blocks and loose primitives in the order they were given (a block where it began,
      // before a primitive given right after its start).
      const nested = new Set((children.get(k) ?? []).flatMap((c) => frame.solids[c]!.primitives));
      const items: { first: number; build: () => Expression | undefined }[] = [
        ...(children.get(k) ?? []).map((c) => ({ first: frame.solids[c]!.start - 0.5, build: () => build(c) })),
        ...solid.primitives.filter((p) => !nested.has(p)).map((p) => ({ first: p, build: () => {
          leaves.push([p]);
          return { leaf: leaves.length - 1 };
        } })),
      ].sort((x, y) => x.first - y.first);
      const operands = items.map((item) => item.build());
      if (solid.operation === 'difference' && (children.get(k)?.length ?? 0) + solid.primitives.filter((p) => !nested.has(p)).length < 2) {
        warn(`${at(solid)}SolidBegin "difference" needs at least two solids; it is taken as its first`);
      }
      return fold(solid.operation as 'union' | 'intersection' | 'difference', operands, (c) => empty.push(...c), leaves);
    };
    const expression = build(index);
    for (const p of empty) leafOf[p] = -1;
    if (!expression) {
      for (const p of top.primitives) leafOf[p] = -1;
      return;
    }
    const stack = stackDepth(expression);
    if (stack > MAX_SOLID_STACK - 1) {
      warn(`${at(top)}this solid nests deeper than ${MAX_SOLID_STACK - 1} set operations; its primitives render as plain surfaces`);
      return;
    }
    if (leafRanges.length + leaves.length > MAX_SOLID_LEAVES) {
      if (!leavesWarned) warn(`${at(top)}a frame holds at most ${MAX_SOLID_LEAVES} primitive solids; this solid and later ones render as plain surfaces`);
      leavesWarned = true;
      return;
    }
    const base = leafRanges.length;
    const start = nodes.length;
    emit(expression, base, nodes);
    leaves.forEach((primitives, k) => {
      leafRanges.push([start, nodes.length]);
      for (const p of primitives) if (leafOf[p] === 0) leafOf[p] = 1 + base + k;
    });
  });
  const header = SOLID_TABLE.leaves + SOLID_TABLE.leafWords * leafRanges.length;
  const table = new Uint32Array(header + nodes.length);
  table[SOLID_TABLE.leafCount] = leafRanges.length;
  leafRanges.forEach(([start, end], leaf) => {
    table[SOLID_TABLE.leaves + leaf * SOLID_TABLE.leafWords] = header + start;
    table[SOLID_TABLE.leaves + leaf * SOLID_TABLE.leafWords + 1] = header + end;
  });
  table.set(nodes, header);
  return { table, leafOf };
}

/** The operands folded left; an empty operand (undefined) drops out of a union or a difference's
 * subtrahends and empties an intersection or a difference whose first operand it is (whose leaves'
 * primitives `emptied` then receives). */
function fold(op: 'union' | 'intersection' | 'difference', operands: (Expression | undefined)[], emptied: (primitives: number[]) => void,
  leaves: number[][]): Expression | undefined {
  const emptiesAll = op === 'intersection' ? operands.some((o) => o === undefined) : op === 'difference' ? operands[0] === undefined : false;
  if (emptiesAll) {
    for (const o of operands) if (o) for (const leaf of leafIndices(o)) emptied(leaves[leaf]!);
    return undefined;
  }
  const present = operands.filter((o): o is Expression => o !== undefined);
  if (present.length === 0) return undefined;
  return present.slice(1).reduce((a, b) => ({ op, a, b }), present[0]!);
}

function leafIndices(e: Expression): number[] {
  return 'leaf' in e ? [e.leaf] : [...leafIndices(e.a), ...leafIndices(e.b)];
}

/** Values on the stack at most while evaluating `e` in postfix order. */
function stackDepth(e: Expression): number {
  return 'leaf' in e ? 1 : Math.max(stackDepth(e.a), 1 + stackDepth(e.b));
}

function emit(e: Expression, base: number, nodes: number[]): void {
  if ('leaf' in e) {
    nodes.push(SolidOp.leaf | ((base + e.leaf) << SOLID_NODE.shift));
    return;
  }
  emit(e.a, base, nodes);
  emit(e.b, base, nodes);
  nodes.push(SolidOp[e.op]);
}
