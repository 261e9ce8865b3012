// Minimum clique cover of a small compatibility graph: the fewest groups such that every pair in a
// group is compatible. Exhaustive (branch and bound) up to EXHAUSTIVE_LIMIT vertices, which is far
// more derivatives than shaders have; greedy beyond that.

export const EXHAUSTIVE_LIMIT = 16;

export function minimumCliqueCover(n: number, compatible: (a: number, b: number) => boolean): number[][] {
  if (n === 0) return [];
  if (n > EXHAUSTIVE_LIMIT) return greedyCover(n, compatible);
  let best = greedyCover(n, compatible);
  const groups: number[][] = [];
  const place = (k: number): void => {
    if (groups.length >= best.length) return;
    if (k === n) {
      best = groups.map((g) => [...g]);
      return;
    }
    for (const g of groups) {
      if (g.every((m) => compatible(m, k))) {
        g.push(k);
        place(k + 1);
        g.pop();
      }
    }
    groups.push([k]);
    place(k + 1);
    groups.pop();
  };
  place(0);
  return best;
}

function greedyCover(n: number, compatible: (a: number, b: number) => boolean): number[][] {
  const groups: number[][] = [];
  for (let k = 0; k < n; k++) {
    const g = groups.find((group) => group.every((m) => compatible(m, k)));
    if (g) g.push(k);
    else groups.push([k]);
  }
  return groups;
}
