// B-spline basis functions of any order and knot vector, with their first derivatives (Piegl and
// Tiller, "The NURBS Book", algorithms A2.2 and A2.3 for one derivative).

/**
 * The `order` non-zero basis functions N(span - order + 1 .. span) at parameter t inside knot span
 * [knots[span], knots[span + 1]), and their derivatives. The span is given rather than searched, so
 * that the end of a span evaluates its own polynomial piece (the left limit at a knot).
 */
export function basisWithDerivatives(knots: readonly number[], order: number, span: number, t: number): { N: number[]; dN: number[] } {
  const p = order - 1;
  // ndu[j][r]: basis functions (upper triangle, j ≥ r) and knot differences (lower), as A2.3.
  const ndu: number[][] = Array.from({ length: order }, () => new Array<number>(order).fill(0));
  const left = new Array<number>(order).fill(0);
  const right = new Array<number>(order).fill(0);
  ndu[0]![0] = 1;
  for (let j = 1; j <= p; j++) {
    left[j] = t - knots[span + 1 - j]!;
    right[j] = knots[span + j]! - t;
    let saved = 0;
    for (let r = 0; r < j; r++) {
      ndu[j]![r] = right[r + 1]! + left[j - r]!;
      const temp = ndu[j]![r]! === 0 ? 0 : ndu[r]![j - 1]! / ndu[j]![r]!;
      ndu[r]![j] = saved + right[r + 1]! * temp;
      saved = left[j - r]! * temp;
    }
    ndu[j]![j] = saved;
  }
  const N = Array.from({ length: order }, (_, j) => ndu[j]![p]!);
  const dN = new Array<number>(order).fill(0);
  if (p > 0) {
    for (let r = 0; r <= p; r++) {
      // N'(r) = p (N(r, p-1) / (k[r+p] - k[r]) - N(r+1, p-1) / (k[r+p+1] - k[r+1])), from the table.
      let d = 0;
      if (r >= 1) {
        const denom = ndu[p]![r - 1]!;
        if (denom !== 0) d += ndu[r - 1]![p - 1]! / denom;
      }
      if (r <= p - 1) {
        const denom = ndu[p]![r]!;
        if (denom !== 0) d -= ndu[r]![p - 1]! / denom;
      }
      dN[r] = p * d;
    }
  }
  return { N, dN };
}
