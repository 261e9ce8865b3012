// One Catmull-Clark refinement step with semi-sharp creases and corners (DeRose, Kass and Truong,
// "Subdivision surfaces in character animation", 1998): every n-sided face becomes n quads. Face
// points average their face; edge points are smooth (ends and adjacent face points), sharp (the
// midpoint) or blended by a fractional sharpness; vertex points follow the smooth, crease or corner
// rule by the number of sharp edges at the vertex, blended likewise. Sharpness drops by 1 a level.
// Varying and facevarying values are refined linearly (RI 3.2: they interpolate bilinearly).
import { edgeKey, topology, type SubdivisionMesh } from './subdivision-mesh.ts';

const lessOne = (s: number): number => Math.max(0, s - 1);

export function refine(mesh: SubdivisionMesh): SubdivisionMesh {
  const topo = topology(mesh);
  const D = mesh.dimension;
  const DV = mesh.varyingDimension;
  const DF = mesh.faceVaryingDimension;
  const V = mesh.vertexCount;
  const E = topo.edgeCount;
  const F = mesh.faceStart.length - 1;
  const total = V + E + F;
  const data = new Float64Array(total * D);
  const varying = new Float64Array(total * DV);
  const vertexAt = (v: number) => v;
  const edgeAt = (e: number) => V + e;
  const faceAt = (f: number) => V + E + f;

  // Face points.
  for (let f = 0; f < F; f++) {
    const [s, e] = [mesh.faceStart[f]!, mesh.faceStart[f + 1]!];
    const w = 1 / (e - s);
    for (let c = s; c < e; c++) {
      const v = mesh.faceVerts[c]!;
      for (let d = 0; d < D; d++) data[faceAt(f) * D + d]! += w * mesh.data[v * D + d]!;
      for (let d = 0; d < DV; d++) varying[faceAt(f) * DV + d]! += w * mesh.varying[v * DV + d]!;
    }
  }
  // Edge points, and each edge's sharpness (boundary edges are infinitely sharp).
  const sharpness = new Float64Array(E);
  for (let e = 0; e < E; e++) {
    const c = topo.edgeCorner[e]!;
    const t = topo.twin[c]!;
    const a = mesh.faceVerts[c]!;
    const b = mesh.faceVerts[topo.next[c]!]!;
    const s = t < 0 ? Infinity : mesh.edgeSharpness.get(edgeKey(a, b)) ?? 0;
    sharpness[e] = s;
    const blend = Math.min(1, s);
    for (let d = 0; d < D; d++) {
      const mid = (mesh.data[a * D + d]! + mesh.data[b * D + d]!) / 2;
      const smooth = t < 0 ? mid : (mesh.data[a * D + d]! + mesh.data[b * D + d]! + data[faceAt(topo.faceOf[c]!) * D + d]! + data[faceAt(topo.faceOf[t]!) * D + d]!) / 4;
      data[edgeAt(e) * D + d] = (1 - blend) * smooth + blend * mid;
    }
    for (let d = 0; d < DV; d++) varying[edgeAt(e) * DV + d] = (mesh.varying[a * DV + d]! + mesh.varying[b * DV + d]!) / 2;
  }
  // Vertex points: sums of adjacent face points and edge midpoints, and the sharp edges.
  const faceSum = new Float64Array(V * D);
  const midSum = new Float64Array(V * D);
  const faces = new Int32Array(V);
  const edges = new Int32Array(V);
  const sharpEnds: number[][] = Array.from({ length: V }, () => []);
  const sharpSum = new Float64Array(V);
  for (let c = 0; c < mesh.faceVerts.length; c++) {
    const v = mesh.faceVerts[c]!;
    faces[v]!++;
    for (let d = 0; d < D; d++) faceSum[v * D + d]! += data[faceAt(topo.faceOf[c]!) * D + d]!;
  }
  for (let e = 0; e < E; e++) {
    const c = topo.edgeCorner[e]!;
    const ends = [mesh.faceVerts[c]!, mesh.faceVerts[topo.next[c]!]!];
    for (const [i, v] of ends.entries()) {
      edges[v]!++;
      for (let d = 0; d < D; d++) midSum[v * D + d]! += (mesh.data[ends[0]! * D + d]! + mesh.data[ends[1]! * D + d]!) / 2;
      if (sharpness[e]! > 0) {
        sharpEnds[v]!.push(ends[1 - i]!);
        sharpSum[v]! += Math.min(sharpness[e]!, 1e30);
      }
    }
  }
  for (let v = 0; v < V; v++) {
    const n = edges[v]!;
    const at = vertexAt(v) * D;
    for (let d = 0; d < DV; d++) varying[vertexAt(v) * DV + d] = mesh.varying[v * DV + d]!;
    if (n === 0) {
      for (let d = 0; d < D; d++) data[at + d] = mesh.data[v * D + d]!;
      continue;
    }
    const sharp = sharpEnds[v]!;
    const corner = mesh.vertexSharpness[v]! > 0 || sharp.length > 2;
    const vertexBlend = corner ? Math.max(mesh.vertexSharpness[v]!, sharp.length > 2 ? sharpSum[v]! / sharp.length : 0)
      : sharp.length === 2 ? sharpSum[v]! / 2 : 0;
    // The smooth rule needs a closed fan (as many faces as edges); a boundary vertex always has two sharp edges.
    const smoothValid = faces[v] === n;
    const blend = smoothValid ? Math.min(1, vertexBlend) : 1;
    for (let d = 0; d < D; d++) {
      const p = mesh.data[v * D + d]!;
      const smooth = smoothValid ? (faceSum[v * D + d]! / n + 2 * midSum[v * D + d]! / n + (n - 3) * p) / n : p;
      const sharpPoint = corner || sharp.length < 2 ? p : (mesh.data[sharp[0]! * D + d]! + 6 * p + mesh.data[sharp[1]! * D + d]!) / 8;
      data[at + d] = (1 - blend) * smooth + blend * sharpPoint;
    }
  }

  // Child faces (vertex, next edge, face, previous edge), their facevarying values and tags.
  const corners = mesh.faceVerts.length;
  const faceStart = new Int32Array(corners + 1);
  const faceVerts = new Int32Array(corners * 4);
  const faceVarying = new Float64Array(corners * 4 * DF);
  const uniformOf = new Int32Array(corners);
  const hole = new Uint8Array(corners);
  let child = 0;
  for (let f = 0; f < F; f++) {
    const [s, e] = [mesh.faceStart[f]!, mesh.faceStart[f + 1]!];
    const centre = new Float64Array(DF);
    for (let c = s; c < e; c++) for (let d = 0; d < DF; d++) centre[d]! += mesh.faceVarying[c * DF + d]! / (e - s);
    for (let c = s; c < e; c++) {
      const p = topo.prev[c]!;
      const nx = topo.next[c]!;
      faceStart[child] = child * 4;
      faceVerts.set([vertexAt(mesh.faceVerts[c]!), edgeAt(topo.edgeOf[c]!), faceAt(f), edgeAt(topo.edgeOf[p]!)], child * 4);
      for (let d = 0; d < DF; d++) {
        const here = mesh.faceVarying[c * DF + d]!;
        const base = child * 4 * DF;
        faceVarying[base + d] = here;
        faceVarying[base + DF + d] = (here + mesh.faceVarying[nx * DF + d]!) / 2;
        faceVarying[base + 2 * DF + d] = centre[d]!;
        faceVarying[base + 3 * DF + d] = (here + mesh.faceVarying[p * DF + d]!) / 2;
      }
      uniformOf[child] = mesh.uniformOf[f]!;
      hole[child] = mesh.hole[f]!;
      child++;
    }
  }
  faceStart[corners] = corners * 4;
  const edgeSharpness = new Map<number, number>();
  for (let e = 0; e < E; e++) {
    const s = lessOne(sharpness[e]!);
    const c = topo.edgeCorner[e]!;
    if (s <= 0 || topo.twin[c]! < 0) continue;
    edgeSharpness.set(edgeKey(vertexAt(mesh.faceVerts[c]!), edgeAt(e)), s);
    edgeSharpness.set(edgeKey(edgeAt(e), vertexAt(mesh.faceVerts[topo.next[c]!]!)), s);
  }
  const vertexSharpness = new Float64Array(total);
  for (let v = 0; v < V; v++) vertexSharpness[v] = lessOne(mesh.vertexSharpness[v]!);
  return {
    faceStart, faceVerts, vertexCount: total, data, dimension: D, varying, varyingDimension: DV, faceVarying, faceVaryingDimension: DF,
    uniformOf, hole, edgeSharpness, vertexSharpness, boundaryMode: mesh.boundaryMode,
  };
}
