// The quads of a refined Catmull-Clark mesh as bicubic Bézier patches, in all the mesh's vertex
// dimensions (P and the vertex-class variables alike).
// - A regular face (four smooth interior vertices of valence 4 with only quads around) is exactly
//   the uniform bicubic B-spline patch of its 4 × 4 neighbourhood, converted to Bézier form.
// - Any other face gets the patch of Loop and Schaefer's approximation (ACC, "Approximating
//   Catmull-Clark subdivision surfaces with bicubic patches", 2008): its corners on the limit surface
//   (limit masks), each edge's inner points from that end's limit tangent along the edge, so that two
//   faces sharing an edge build the same boundary curve from the same numbers (no cracks), and an
//   edge between smooth valence-4 vertices is exactly the B-spline patch's edge curve. Along an
//   infinitely sharp crease the edge is the cubic B-spline of the crease's vertices, exactly.
import { edgeKey, topology, vertexFan, type SubdivisionMesh, type Topology } from './subdivision-mesh.ts';

type VertexKind = 'smooth' | 'crease' | 'corner' | 'other';

interface VertexInfo {
  kind: VertexKind;
  /** Outgoing corners in rotational order. */
  fan: number[];
  /** Crease: the two vertices across its sharp edges. */
  creaseEnds: number[];
  /** Sharp edges (boundary ones included) at the vertex: a smooth vertex may have one (a dart). */
  sharpEdges: number;
  /** Whether its fan closes (an interior vertex). */
  closed: boolean;
  limit: Float64Array;
}

/** A refined mesh ready to be cut into patches: its topology and each vertex's limit. */
export class LimitMesh {
  readonly topo: Topology;
  private readonly info: VertexInfo[] = [];

  constructor(readonly mesh: SubdivisionMesh) {
    this.topo = topology(mesh);
    for (let v = 0; v < mesh.vertexCount; v++) this.info.push(this.classify(v));
  }

  private point(v: number): Float64Array {
    return this.mesh.data.subarray(v * this.mesh.dimension, (v + 1) * this.mesh.dimension);
  }

  private sharp(a: number, b: number, corner: number): boolean {
    return this.topo.twin[corner]! < 0 || (this.mesh.edgeSharpness.get(edgeKey(a, b)) ?? 0) > 0;
  }

  private classify(v: number): VertexInfo {
    const { mesh, topo } = this;
    const D = mesh.dimension;
    const { out, closed } = vertexFan(topo, v);
    const ends: number[] = [];
    let quads = true;
    for (const c of out) {
      const w = mesh.faceVerts[topo.next[c]!]!;
      if (this.sharp(v, w, c)) ends.push(w);
      if (mesh.faceStart[topo.faceOf[c]! + 1]! - mesh.faceStart[topo.faceOf[c]!]! !== 4) quads = false;
    }
    // An open fan's last edge (the previous corner of its last face) is a boundary edge too.
    if (!closed && out.length) ends.push(mesh.faceVerts[topo.prev[out.at(-1)!]!]!);
    const p = this.point(v);
    const limit = new Float64Array(D);
    let kind: VertexKind;
    if (mesh.vertexSharpness[v]! > 0 || ends.length > 2) kind = 'corner';
    else if (ends.length === 2) kind = 'crease';
    else if (closed && quads) kind = 'smooth';
    else kind = 'other';
    if (kind === 'smooth') {
      const n = out.length;
      for (const c of out) {
        const e = this.point(mesh.faceVerts[topo.next[c]!]!);
        const f = this.point(mesh.faceVerts[topo.next[topo.next[c]!]!]!);
        for (let d = 0; d < D; d++) limit[d]! += 4 * e[d]! + f[d]!;
      }
      for (let d = 0; d < D; d++) limit[d] = (limit[d]! + n * n * p[d]!) / (n * (n + 5));
    } else if (kind === 'crease') {
      const [a, b] = [this.point(ends[0]!), this.point(ends[1]!)];
      for (let d = 0; d < D; d++) limit[d] = (a[d]! + 4 * p[d]! + b[d]!) / 6;
    } else limit.set(p);
    return { kind, fan: out, creaseEnds: kind === 'crease' ? ends : [], sharpEdges: ends.length, closed, limit };
  }

  /** Vertex v's position on the limit surface (all `dimension` numbers). */
  limitOf(v: number): Float64Array {
    return this.info[v]!.limit;
  }

  /** Whether face f is exactly a B-spline patch: a quad of four smooth valence-4 vertices with only
   * quads around and no sharp edge at any of them (a dart's sharp edge bends the surface). */
  regular(f: number): boolean {
    const { faceStart, faceVerts } = this.mesh;
    if (faceStart[f + 1]! - faceStart[f]! !== 4) return false;
    for (let c = faceStart[f]!; c < faceStart[f + 1]!; c++) if (!this.smooth(faceVerts[c]!) || this.info[faceVerts[c]!]!.fan.length !== 4) return false;
    return true;
  }

  /** Whether vertex v is smooth with no sharp edge: its limit is the same on every level. */
  smooth(v: number): boolean {
    const info = this.info[v]!;
    return info.kind === 'smooth' && info.sharpEdges === 0;
  }

  /** Whether face f touches the boundary (a vertex with an open fan). */
  touchesBoundary(f: number): boolean {
    const { faceStart, faceVerts } = this.mesh;
    for (let c = faceStart[f]!; c < faceStart[f + 1]!; c++) if (!this.info[faceVerts[c]!]!.closed) return true;
    return false;
  }

  /** The inner Bézier point next to vertex v on its edge to w: v's limit plus a third of the limit
   * tangent along the edge, scaled to the face's parameter. `corner` is the corner running v → w
   * (-1 on a boundary edge seen from the other way): both faces on an edge compute it from it. */
  private edgePoint(v: number, w: number, corner: number): Float64Array {
    const { mesh, topo } = this;
    const D = mesh.dimension;
    const info = this.info[v]!;
    const out = Float64Array.from(info.limit);
    const j = info.fan.indexOf(corner);
    if (info.kind === 'smooth' && j >= 0) {
      // Limit tangent mask (Halstead, Kass and DeRose 1993) rotated to this edge; the scale makes it
      // the parametric derivative for valence 4 (and for a regular fan of unit edges for any valence).
      const n = info.fan.length;
      const cos = (k: number) => Math.cos((2 * Math.PI * k) / n);
      const A = 1 + cos(1) + Math.cos(Math.PI / n) * Math.sqrt(2 * (9 + cos(1)));
      const scale = 1 / (3 * n * (A / 2 + 1 + cos(1)));
      info.fan.forEach((o, i) => {
        const e = this.point(mesh.faceVerts[topo.next[o]!]!);
        const f = this.point(mesh.faceVerts[topo.next[topo.next[o]!]!]!);
        const we = A * cos(i - j) * scale;
        const wf = (cos(i - j) + cos(i - j + 1)) * scale;
        for (let d = 0; d < D; d++) out[d]! += we * e[d]! + wf * f[d]!;
      });
      return out;
    }
    const pw = this.point(w);
    if (info.kind === 'crease' && info.creaseEnds.includes(w)) {
      // Along the crease: the cubic B-spline of the crease's vertices (B1 = B0 + (w - other) / 6).
      const other = this.point(info.creaseEnds[0] === w ? info.creaseEnds[1]! : info.creaseEnds[0]!);
      for (let d = 0; d < D; d++) out[d]! += (pw[d]! - other[d]!) / 6;
      return out;
    }
    // Corners, and edges leaving a crease or an irregular vertex: along the control edge.
    const pv = this.point(v);
    for (let d = 0; d < D; d++) out[d]! += (pw[d]! - pv[d]!) / 3;
    return out;
  }

  /** The 16 Bézier control points of quad f (row v, column u; u from its first corner to the
   * second, v from the first to the fourth), `dimension` numbers each, point i at i * dimension. */
  bezier(f: number): Float64Array {
    return this.regular(f) ? this.bsplinePatch(f) : this.approximatePatch(f);
  }

  private bsplinePatch(f: number): Float64Array {
    const { mesh, topo } = this;
    const { data, dimension: D, faceVerts } = mesh;
    const s = mesh.faceStart[f]!;
    const grid = new Int32Array(16);
    for (let i = 0; i < 4; i++) {
      const c = s + i;
      const fan = this.info[faceVerts[c]!]!.fan;
      const start = fan.indexOf(c);
      const [cell, steps] = [B_CORNER[i]!, B_STEPS[i]!];
      grid[cell] = faceVerts[c]!;
      for (let j = 0; j < 4; j++) {
        const o = fan[(start + j) % 4]!;
        grid[cell + steps[j]!] = faceVerts[topo.next[o]!]!;
        grid[cell + steps[j]! + steps[(j + 1) % 4]!] = faceVerts[topo.next[topo.next[o]!]!]!;
      }
    }
    const out = new Float64Array(16 * D);
    for (let p = 0; p < 16; p++) {
      for (let g = 0; g < 16; g++) {
        const w = B_WEIGHTS[p * 16 + g]!;
        if (w === 0) continue;
        const q = grid[g]! * D;
        for (let d = 0; d < D; d++) out[p * D + d]! += w * data[q + d]!;
      }
    }
    return out;
  }

  private approximatePatch(f: number): Float64Array {
    const { mesh, topo } = this;
    const D = mesh.dimension;
    const s = mesh.faceStart[f]!;
    const out = new Float64Array(16 * D);
    // Corner i at (row, column); towards the next corner is +u for corner 0.
    const CORNER: readonly (readonly [number, number])[] = [[0, 0], [0, 3], [3, 3], [3, 0]];
    for (let i = 0; i < 4; i++) {
      const c = s + i;
      const v = mesh.faceVerts[c]!;
      const info = this.info[v]!;
      const [l, k] = CORNER[i]!;
      const stepNext = [(CORNER[(i + 1) % 4]![0]! - l) / 3, (CORNER[(i + 1) % 4]![1]! - k) / 3];
      const stepPrev = [(CORNER[(i + 3) % 4]![0]! - l) / 3, (CORNER[(i + 3) % 4]![1]! - k) / 3];
      const at = (a: number[]) => ((l + a[0]!) * 4 + k + a[1]!) * D;
      out.set(info.limit, (l * 4 + k) * D);
      const alongNext = this.edgePoint(v, mesh.faceVerts[topo.next[c]!]!, c);
      // The edge to the previous corner runs v → there in the neighbouring face (the twin of the previous corner).
      const alongPrev = this.edgePoint(v, mesh.faceVerts[topo.prev[c]!]!, topo.twin[topo.prev[c]!]!);
      out.set(alongNext, at(stepNext));
      out.set(alongPrev, at(stepPrev));
      const inner = at([stepNext[0]! + stepPrev[0]!, stepNext[1]! + stepPrev[1]!]);
      if (info.kind === 'smooth') {
        // ACC's interior point: (n v + 2 (e_next + e_prev) + f) / (n + 5).
        const n = info.fan.length;
        const [pv, pn, pp, pf] = [this.point(v), this.point(mesh.faceVerts[topo.next[c]!]!), this.point(mesh.faceVerts[topo.prev[c]!]!),
          this.point(mesh.faceVerts[topo.next[topo.next[c]!]!]!)];
        for (let d = 0; d < D; d++) out[inner + d] = (n * pv[d]! + 2 * (pn[d]! + pp[d]!) + pf[d]!) / (n + 5);
      } else {
        for (let d = 0; d < D; d++) out[inner + d] = alongNext[d]! + alongPrev[d]! - info.limit[d]!;
      }
    }
    return out;
  }
}

/** A regular patch's 4 × 4 grid of control vertices (cell row * 4 + column): corner i of the face
 * sits at B_CORNER[i]; its fan, started at the face's corner, walks towards the next corner, the
 * previous one, and back from each (B_STEPS[i], in cells). */
const B_CORNER = [5, 6, 10, 9];
const B_STEPS = B_CORNER.map((cell, i) => {
  const [toNext, toPrev] = [B_CORNER[(i + 1) % 4]! - cell, B_CORNER[(i + 3) % 4]! - cell];
  return [toNext, toPrev, -toNext, -toPrev];
});
/** Weight of grid vertex g in Bézier point p (p * 16 + g): uniform B-spline to Bézier each way,
 * B0 = (P0 + 4P1 + P2)/6, B1 = (4P1 + 2P2)/6, B2 = (2P1 + 4P2)/6, B3 = (P1 + 4P2 + P3)/6. */
const B_WEIGHTS = (() => {
  const M = [[1, 4, 1, 0], [0, 4, 2, 0], [0, 2, 4, 0], [0, 1, 4, 1]];
  const w = new Float64Array(256);
  for (let p = 0; p < 16; p++) for (let g = 0; g < 16; g++) w[p * 16 + g] = (M[p >> 2]![g >> 2]! * M[p & 3]![g & 3]!) / 36;
  return w;
})();
