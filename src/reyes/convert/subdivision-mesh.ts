// A Catmull-Clark control mesh with its tags, and its topology: oriented half-edges (one per face
// corner), twins, undirected edges and each vertex's faces in rotational order. Refinement
// (subdivision-refine.ts) makes a new mesh of this form from the previous one.

/** How faces and vertices on the boundary are treated (RI "interpolateboundary", as PRMan numbers
 * it): 0 the boundary faces are not drawn, 1 boundary edges are sharp creases and vertices of one
 * face sharp corners, 2 boundary edges are sharp creases only. */
export type BoundaryMode = 0 | 1 | 2;

export interface SubdivisionMesh {
  /** Face f's corners are faceVerts[faceStart[f] .. faceStart[f + 1]). */
  faceStart: Int32Array;
  faceVerts: Int32Array;
  vertexCount: number;
  /** Per vertex, `dimension` numbers: P then the vertex-class variables, refined by the subdivision rules. */
  data: Float64Array;
  dimension: number;
  /** Per vertex, varying variables (refined linearly). */
  varying: Float64Array;
  varyingDimension: number;
  /** Per face corner, facevarying variables (refined linearly within each face). */
  faceVarying: Float64Array;
  faceVaryingDimension: number;
  /** The control mesh face each face descends from (its uniform values). */
  uniformOf: Int32Array;
  hole: Uint8Array;
  /** Sharpness of an edge by edgeKey(a, b); edges absent are smooth. */
  edgeSharpness: Map<number, number>;
  vertexSharpness: Float64Array;
  boundaryMode: BoundaryMode;
}

export function edgeKey(a: number, b: number): number {
  return a < b ? a * 0x4000000 + b : b * 0x4000000 + a;
}

/** The two vertices of an edgeKey, the lower first. */
export function edgeEnds(key: number): [number, number] {
  return [Math.floor(key / 0x4000000), key % 0x4000000];
}

/** Half-edge topology of a mesh: corner c goes from faceVerts[c] to the next corner's vertex. */
export interface Topology {
  faceOf: Int32Array;
  next: Int32Array;
  prev: Int32Array;
  /** The corner running the other way along the same edge, or -1 on the boundary. */
  twin: Int32Array;
  /** Undirected edge of each corner's outgoing edge. */
  edgeOf: Int32Array;
  edgeCount: number;
  /** Per edge, one of its corners. */
  edgeCorner: Int32Array;
  /** Per vertex, an outgoing corner; on the boundary the first in rotational order (-1: unused). */
  firstOut: Int32Array;
  /** Edges found on more than two faces (kept as boundary edges). */
  nonManifold: number;
}

export function topology(mesh: SubdivisionMesh): Topology {
  const corners = mesh.faceVerts.length;
  const faces = mesh.faceStart.length - 1;
  const faceOf = new Int32Array(corners);
  const next = new Int32Array(corners);
  const prev = new Int32Array(corners);
  for (let f = 0; f < faces; f++) {
    const [s, e] = [mesh.faceStart[f]!, mesh.faceStart[f + 1]!];
    for (let c = s; c < e; c++) {
      faceOf[c] = f;
      next[c] = c + 1 < e ? c + 1 : s;
      prev[c] = c > s ? c - 1 : e - 1;
    }
  }
  const n = mesh.vertexCount;
  const directed = new Map<number, number>();
  let nonManifold = 0;
  for (let c = 0; c < corners; c++) {
    const key = mesh.faceVerts[c]! * n + mesh.faceVerts[next[c]!]!;
    if (directed.has(key)) nonManifold++;
    else directed.set(key, c);
  }
  const twin = new Int32Array(corners).fill(-1);
  for (let c = 0; c < corners; c++) {
    const t = directed.get(mesh.faceVerts[next[c]!]! * n + mesh.faceVerts[c]!);
    // Both ways must name each other (a third face on an edge stays on the boundary).
    if (t !== undefined && directed.get(mesh.faceVerts[c]! * n + mesh.faceVerts[next[c]!]!) === c) twin[c] = t;
  }
  for (let c = 0; c < corners; c++) if (twin[c]! >= 0 && twin[twin[c]!] !== c) twin[c] = -1;
  const edgeOf = new Int32Array(corners).fill(-1);
  const edgeCorner: number[] = [];
  for (let c = 0; c < corners; c++) {
    if (edgeOf[c]! >= 0) continue;
    edgeOf[c] = edgeCorner.length;
    if (twin[c]! >= 0) edgeOf[twin[c]!] = edgeCorner.length;
    edgeCorner.push(c);
  }
  const firstOut = new Int32Array(n).fill(-1);
  for (let c = 0; c < corners; c++) {
    const v = mesh.faceVerts[c]!;
    // On the boundary, the fan starts at the corner whose own edge is the boundary (no corner rotates into it).
    if (firstOut[v] === -1 || twin[c] === -1) firstOut[v] = c;
  }
  return { faceOf, next, prev, twin, edgeOf, edgeCount: edgeCorner.length, edgeCorner: Int32Array.from(edgeCorner), firstOut, nonManifold };
}

/** The outgoing corners of vertex v in rotational order (from firstOut; each next one is the twin of
 * the previous corner's face predecessor), and whether the fan closes (an interior vertex). */
export function vertexFan(topo: Topology, v: number): { out: number[]; closed: boolean } {
  const out: number[] = [];
  const first = topo.firstOut[v]!;
  if (first < 0) return { out, closed: false };
  let c = first;
  for (;;) {
    out.push(c);
    const t = topo.twin[topo.prev[c]!]!;
    if (t < 0) return { out, closed: false };
    if (t === first) return { out, closed: true };
    if (out.length > topo.next.length) return { out, closed: false };
    c = t;
  }
}
