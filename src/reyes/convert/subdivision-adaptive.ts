// Feature-adaptive Catmull-Clark refinement (Nießner, Loop, Meyer and DeRose 2012, as OpenSubdiv
// refines): a face that is already a B-spline patch (LimitMesh.regular) becomes a patch at the level
// it is found on; only the others are refined, each level refining just them and their one-ring
// (every face sharing a vertex with them, which is what their children's 4 × 4 neighbourhoods
// depend on). The one-ring's outer edges become a boundary of the submesh and its outer vertices
// are refined wrongly, but none of those reach the irregular faces' children or their one-rings.
// Patches of neighbouring levels meet at T-junctions: a level-l patch's edge is the edges of two
// level-(l + 1) patches, each running from the coarse edge's end (its corner 0 is the parent's vertex).
import { edgeEnds, edgeKey, type SubdivisionMesh } from './subdivision-mesh.ts';
import { LimitMesh } from './subdivision-patches.ts';
import { refine } from './subdivision-refine.ts';

/** One level's mesh (the submesh refined to it) and the faces of it that become patches. */
export interface PatchLevel {
  mesh: SubdivisionMesh;
  limit: LimitMesh;
  faces: number[];
  /** Below level 0: per face, the corner of the previous level's mesh it grew from (its corner 0 is
   * that corner's vertex point); per vertex point (the first vertices), that vertex. */
  parent?: { corner: Int32Array; vertex: Int32Array };
}

export interface AdaptiveOptions {
  /** The deepest level to refine to. */
  levels: number;
  /** Levels refined whatever the budget (1 when there are non-quads: a patch needs a quad). */
  fewest: number;
  /** The most faces refinement may make, all levels together (the control mesh's are not counted). */
  budget: number;
}

/** The patch levels of `mesh`, and whether the budget stopped refinement short of `levels` with
 * irregular faces left. */
export function refineAdaptive(mesh: SubdivisionMesh, options: AdaptiveOptions): { levels: PatchLevel[]; cut: boolean } {
  const levels: PatchLevel[] = [];
  let active: Iterable<number> = Array.from({ length: mesh.faceStart.length - 1 }, (_, f) => f);
  let made = 0;
  let parent: PatchLevel['parent'];
  for (let level = 0; ; level++) {
    const limit = new LimitMesh(mesh);
    const faces: number[] = [];
    const irregular: number[] = [];
    for (const f of active) {
      if (mesh.hole[f] || (mesh.boundaryMode === 0 && limit.touchesBoundary(f))) continue;
      (limit.regular(f) ? faces : irregular).push(f);
    }
    const children = irregular.reduce((n, f) => n + mesh.faceStart[f + 1]! - mesh.faceStart[f]!, 0);
    const wanted = irregular.length > 0 && level < Math.max(options.levels, options.fewest);
    if (!wanted || (level >= options.fewest && made + children > options.budget)) {
      levels.push({ mesh, limit, faces: faces.concat(irregular).sort((a, b) => a - b), parent });
      return { levels, cut: wanted };
    }
    levels.push({ mesh, limit, faces, parent });
    made += children;
    const { sub, kept, vertexOf } = oneRing(mesh, irregular);
    // refine() makes face s's children at its corners' indices, and keeps each vertex's index.
    const refined = new Uint8Array(mesh.faceStart.length - 1);
    for (const f of irregular) refined[f] = 1;
    const next: number[] = [];
    const corner = new Int32Array(sub.faceVerts.length);
    kept.forEach((f, s) => {
      for (let c = sub.faceStart[s]!; c < sub.faceStart[s + 1]!; c++) {
        corner[c] = mesh.faceStart[f]! + c - sub.faceStart[s]!;
        if (refined[f]) next.push(c);
      }
    });
    active = next;
    parent = { corner, vertex: vertexOf };
    mesh = refine(sub);
  }
}

/** The submesh of `faces` and every face sharing a vertex with one of them (`kept`, in order),
 * its vertices renumbered in order of first use (`vertexOf`: each one's vertex in `mesh`). */
export function oneRing(mesh: SubdivisionMesh, faces: readonly number[]): { sub: SubdivisionMesh; kept: number[]; vertexOf: Int32Array } {
  const F = mesh.faceStart.length - 1;
  const touched = new Uint8Array(mesh.vertexCount);
  for (const f of faces) for (let c = mesh.faceStart[f]!; c < mesh.faceStart[f + 1]!; c++) touched[mesh.faceVerts[c]!] = 1;
  const kept: number[] = [];
  for (let f = 0; f < F; f++) {
    for (let c = mesh.faceStart[f]!; c < mesh.faceStart[f + 1]!; c++) {
      if (touched[mesh.faceVerts[c]!]) {
        kept.push(f);
        break;
      }
    }
  }
  return { ...submesh(mesh, kept), kept };
}

/** The mesh of `faces` alone (their order kept), with their vertices, values and tags, and each of
 * its vertices' index in `mesh`. */
export function submesh(mesh: SubdivisionMesh, faces: readonly number[]): { sub: SubdivisionMesh; vertexOf: Int32Array } {
  const { dimension: D, varyingDimension: DV, faceVaryingDimension: DF } = mesh;
  const newId = new Int32Array(mesh.vertexCount).fill(-1);
  const old: number[] = [];
  const faceStart = new Int32Array(faces.length + 1);
  faces.forEach((f, k) => (faceStart[k + 1] = faceStart[k]! + mesh.faceStart[f + 1]! - mesh.faceStart[f]!));
  const faceVerts = new Int32Array(faceStart[faces.length]!);
  const faceVarying = new Float64Array(faceVerts.length * DF);
  faces.forEach((f, k) => {
    for (let c = mesh.faceStart[f]!, to = faceStart[k]!; c < mesh.faceStart[f + 1]!; c++, to++) {
      const v = mesh.faceVerts[c]!;
      if (newId[v] === -1) {
        newId[v] = old.length;
        old.push(v);
      }
      faceVerts[to] = newId[v]!;
      faceVarying.set(mesh.faceVarying.subarray(c * DF, (c + 1) * DF), to * DF);
    }
  });
  const data = new Float64Array(old.length * D);
  const varying = new Float64Array(old.length * DV);
  const vertexSharpness = new Float64Array(old.length);
  old.forEach((v, k) => {
    data.set(mesh.data.subarray(v * D, (v + 1) * D), k * D);
    varying.set(mesh.varying.subarray(v * DV, (v + 1) * DV), k * DV);
    vertexSharpness[k] = mesh.vertexSharpness[v]!;
  });
  const edgeSharpness = new Map<number, number>();
  for (const [key, s] of mesh.edgeSharpness) {
    const [a, b] = edgeEnds(key).map((v) => newId[v]!) as [number, number];
    if (a >= 0 && b >= 0) edgeSharpness.set(edgeKey(a, b), s);
  }
  const sub: SubdivisionMesh = {
    faceStart, faceVerts, vertexCount: old.length, data, dimension: D, varying, varyingDimension: DV, faceVarying, faceVaryingDimension: DF,
    uniformOf: Int32Array.from(faces, (f) => mesh.uniformOf[f]!), hole: Uint8Array.from(faces, (f) => mesh.hole[f]!), edgeSharpness,
    vertexSharpness, boundaryMode: mesh.boundaryMode,
  };
  return { sub, vertexOf: Int32Array.from(old) };
}
