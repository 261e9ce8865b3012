// Triangulation of a planar polygon with holes (GeneralPolygon): the polygon is projected on the
// plane of its largest normal component, each hole is bridged to the outer loop at its rightmost
// vertex, and the single loop that results is ear-clipped. Returns triangles as indexes into the
// concatenated loop vertices, wound like the outer loop.

/** `loops[k]` holds indexes into `points` (xyz triples); loop 0 is the outer boundary. */
export function triangulateLoops(points: readonly number[], loops: readonly number[][]): [number, number, number][] {
  const all = loops.flat();
  if (all.length < 3) return [];
  const normal = newellNormal(points, loops[0]!);
  const axis = dominantAxis(normal);
  const [ax, ay] = axis === 0 ? [1, 2] : axis === 1 ? [2, 0] : [0, 1];
  const flip = normal[axis]! < 0;
  const xy = (i: number): [number, number] => {
    const x = points[i * 3 + ax]!;
    const y = points[i * 3 + ay]!;
    return flip ? [y, x] : [x, y];
  };
  // Positions in the loop list (`all` indexes) with 2-D coordinates; outer loop counter-clockwise.
  const outer = loops[0]!.map((_, k) => k);
  let offset = loops[0]!.length;
  const coords = all.map((i) => xy(i));
  if (signedArea(outer.map((k) => coords[k]!)) < 0) outer.reverse();
  let ring = outer;
  const holes = loops.slice(1).map((loop) => {
    const ids = loop.map((_, k) => offset + k);
    offset += loop.length;
    if (signedArea(ids.map((k) => coords[k]!)) > 0) ids.reverse();
    return ids;
  });
  holes.sort((a, b) => maxX(b, coords) - maxX(a, coords));
  for (const hole of holes) ring = bridgeHole(ring, hole, holes, coords);
  const triangles = earClip(ring, coords);
  const reversed = signedArea(loops[0]!.map((_, k) => coords[k]!)) < 0;
  return triangles.map(([a, b, c]) => (reversed ? [all[a]!, all[c]!, all[b]!] : [all[a]!, all[b]!, all[c]!]));
}

/** Newell's normal of a loop (not normalised). */
export function newellNormal(points: readonly number[], loop: readonly number[]): [number, number, number] {
  const n: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < loop.length; k++) {
    const a = loop[k]! * 3;
    const b = loop[(k + 1) % loop.length]! * 3;
    n[0] += (points[a + 1]! - points[b + 1]!) * (points[a + 2]! + points[b + 2]!);
    n[1] += (points[a + 2]! - points[b + 2]!) * (points[a]! + points[b]!);
    n[2] += (points[a]! - points[b]!) * (points[a + 1]! + points[b + 1]!);
  }
  return n;
}

function dominantAxis(n: readonly number[]): number {
  const a = n.map(Math.abs);
  return a[0]! >= a[1]! && a[0]! >= a[2]! ? 0 : a[1]! >= a[2]! ? 1 : 2;
}

function signedArea(pts: readonly [number, number][]): number {
  let area = 0;
  for (let k = 0; k < pts.length; k++) {
    const [x0, y0] = pts[k]!;
    const [x1, y1] = pts[(k + 1) % pts.length]!;
    area += x0 * y1 - x1 * y0;
  }
  return area / 2;
}

function maxX(ids: readonly number[], coords: readonly [number, number][]): number {
  return Math.max(...ids.map((k) => coords[k]![0]));
}

/** Joins `hole` into `ring` through a bridge from the hole's rightmost vertex to the nearest ring
 * vertex it can see (the bridge crosses no ring or hole edge). */
function bridgeHole(ring: number[], hole: number[], holes: readonly number[][], coords: readonly [number, number][]): number[] {
  let m = 0;
  for (let k = 1; k < hole.length; k++) if (coords[hole[k]!]![0] > coords[hole[m]!]![0]) m = k;
  const pm = coords[hole[m]!]!;
  const candidates = ring.map((id, k) => ({ k, d: (coords[id]![0] - pm[0]) ** 2 + (coords[id]![1] - pm[1]) ** 2 }))
    .sort((a, b) => a.d - b.d);
  const loops = [ring, ...holes];
  const visible = (target: [number, number]): boolean => {
    for (const loop of loops) {
      for (let k = 0; k < loop.length; k++) {
        const a = coords[loop[k]!]!;
        const b = coords[loop[(k + 1) % loop.length]!]!;
        if (properlyCross(pm, target, a, b)) return false;
      }
    }
    return true;
  };
  const best = candidates.find((c) => visible(coords[ring[c.k]!]!))?.k ?? candidates[0]!.k;
  const rotated = [...hole.slice(m), ...hole.slice(0, m)];
  return [...ring.slice(0, best + 1), ...rotated, hole[m]!, ...ring.slice(best)];
}

/** True when segments pq and ab cross at a point interior to both. */
function properlyCross(p: [number, number], q: [number, number], a: [number, number], b: [number, number]): boolean {
  const d1 = cross(p, q, a);
  const d2 = cross(p, q, b);
  const d3 = cross(a, b, p);
  const d4 = cross(a, b, q);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function earClip(ring: number[], coords: readonly [number, number][]): [number, number, number][] {
  const out: [number, number, number][] = [];
  const remaining = ring.slice();
  let guard = remaining.length * remaining.length + 10;
  while (remaining.length > 3 && guard-- > 0) {
    let clipped = false;
    for (let k = 0; k < remaining.length; k++) {
      const a = remaining[(k + remaining.length - 1) % remaining.length]!;
      const b = remaining[k]!;
      const c = remaining[(k + 1) % remaining.length]!;
      if (!isEar(a, b, c, remaining, coords)) continue;
      out.push([a, b, c]);
      remaining.splice(k, 1);
      clipped = true;
      break;
    }
    if (!clipped) break;
  }
  // Whatever could not be clipped (degenerate input) is fanned.
  for (let k = 1; k + 1 < remaining.length; k++) out.push([remaining[0]!, remaining[k]!, remaining[k + 1]!]);
  return out;
}

function cross(o: [number, number], a: [number, number], b: [number, number]): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

function isEar(a: number, b: number, c: number, ring: readonly number[], coords: readonly [number, number][]): boolean {
  const pa = coords[a]!;
  const pb = coords[b]!;
  const pc = coords[c]!;
  if (cross(pa, pb, pc) <= 0) return false;
  for (const id of ring) {
    if (id === a || id === b || id === c) continue;
    const p = coords[id]!;
    if ((p[0] === pa[0] && p[1] === pa[1]) || (p[0] === pb[0] && p[1] === pb[1]) || (p[0] === pc[0] && p[1] === pc[1])) continue;
    if (cross(pa, pb, p) >= 0 && cross(pb, pc, p) >= 0 && cross(pc, pa, p) >= 0) return false;
  }
  return true;
}
