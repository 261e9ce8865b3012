// Shared by the dice and reseam kernels (`// @include reyes-seams.wgsl`): where a grid vertex lies on
// a seam with a coarser neighbouring grid, from the seam table (src/reyes/stages/grid-seams.ts). Kernels
// that use it declare `seams: array<u32>` (the table) and `prims` (the records, reyes-surface.wgsl).

// Edge cells per piece edge in the seam table (grid-seams.ts seamCells): one byte each.
override SEAM_CELLS: u32;

// @layout seam-table

/** The seam table byte of cell `cell` of edge `edge` (v0, v1, u0, u1): log2 of how much coarser the
 * piece across it is, with SEAM_ACROSS_RECORDS where that piece is in another record. */
fn seamEntry(g: u32, edge: u32, cell: u32) -> u32 {
  let at = (g * SEAM_EDGES + edge) * SEAM_CELLS + cell;
  return (seams[at / 4u] >> ((at % 4u) * 8u)) & 0xffu;
}

/** Whether a quadric of kind `kind` closes on itself across u = 0 / u = 1 (x) and v = 0 / v = 1 (y,
 * torus), from its geometry words 2, 3, 4 and 6 (`args`). */
fn closes(kind: u32, args: vec4f) -> vec2<bool> {
  let full = 6.2831;
  switch kind {
    case KIND_SPHERE, KIND_CYLINDER, KIND_PARABOLOID: { return vec2<bool>(abs(args.y) >= full, false); }
    case KIND_CONE, KIND_DISK: { return vec2<bool>(abs(args.x) >= full, false); }
    case KIND_HYPERBOLOID: { return vec2<bool>(abs(args.w) >= full, false); }
    case KIND_TORUS: { return vec2<bool>(abs(args.z) >= full, abs(args.y - args.x) >= full); }
    default: { return vec2<bool>(false, false); }
  }
}

/** Whether record `prim`'s quadric closes on itself (closes). */
fn periodic(prim: u32) -> vec2<bool> {
  return closes(recU(prim, REC_KIND), vec4f(geometryArg(prim, 2u), geometryArg(prim, 3u), geometryArg(prim, 4u), geometryArg(prim, 6u)));
}

/** `uv` with the coordinates at 1 of a closed surface's periodic directions (`wraps`) moved to 0. */
fn wrapped(uv: vec2f, wraps: vec2<bool>) -> vec2f {
  return select(uv, vec2f(0.0), wraps & (uv >= vec2f(1.0)));
}

/** Where vertex (i, j) of an nu × nv grid lies on its piece's boundary next to a coarser piece: the
 * parameters of the two coarse vertices around it (xy, zw) and its fraction between them; fraction
 * 0 where it keeps its own position. */
struct Seam {
  ends: vec4f,
  fraction: f32,
  /** The parameter direction out of the piece across the seam's edge. */
  outward: vec2f,
}

fn seamOf(g: u32, wraps: vec2<bool>, i: u32, j: u32, nu: u32, nv: u32, lo: vec2f, hi: vec2f, step: vec2f) -> Seam {
  var seam: Seam;
  seam.fraction = 0.0;
  let uv = lo + vec2f(f32(i), f32(j)) * step;
  // Edges v = v0, v = v1 (cells along u), then u = u0, u = u1 (cells along v).
  for (var edge = 0u; edge < 4u; edge++) {
    let alongU = edge < 2u;
    let onEdge = select(select(i == nu - 1u, i == 0u, edge == 2u), select(j == nv - 1u, j == 0u, edge == 0u), alongU);
    if (!onEdge) { continue; }
    let index = select(j, i, alongU);
    let count = select(nv, nu, alongU);
    let entry = seamEntry(g, edge, min(index, count - 2u));
    // Across the parameter square's own border only a closed surface or a joined record (the next
    // patch of a mesh) has a neighbour.
    let border = select(select(hi.x, lo.x, edge == 2u), select(hi.y, lo.y, edge == 0u), alongU);
    if ((border == 0.0 || border == 1.0) && !select(wraps.x, wraps.y, alongU) && (entry & SEAM_ACROSS_RECORDS) == 0u) { continue; }
    let coarsening = entry & ~SEAM_ACROSS_RECORDS;
    if (coarsening == 0u) { continue; }
    let t = select(uv.y, uv.x, alongU);
    let h = select(step.y, step.x, alongU) * exp2(f32(coarsening));
    let a = floor(t / h) * h;
    if (a == t) { continue; }
    seam.fraction = (t - a) / h;
    seam.outward = select(select(vec2f(1.0, 0.0), vec2f(-1.0, 0.0), edge == 2u), select(vec2f(0.0, 1.0), vec2f(0.0, -1.0), edge == 0u), alongU);
    if (alongU) { seam.ends = vec4f(a, uv.y, a + h, uv.y); } else { seam.ends = vec4f(uv.x, a, uv.x, a + h); }
    break;
  }
  return seam;
}
