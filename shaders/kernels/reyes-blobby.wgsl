// Shared through reyes-surface.wgsl (`// @include reyes-blobby.wgsl`): the surface of a Blobby record
// (KIND_BLOBBY). The record is a biquadratic patch through 9 points of the implicit surface (its
// parameter domain: evalShape gives the patch, which bound/split bounds padded by the record's
// BLOBBY_SHAPE_PAD); the dicer puts each point of it onto the surface by Newton steps along the
// field's gradient (blobbyProject), the field evaluated from the record's field block
// (src/layout/blobby-field.ts) in the auxiliary buffer, `userCorners`, which the including kernel
// declares, and shades with the field's gradient as N (blobbyNormal).

// @layout blobby-field

fn blobbyWord(at: u32) -> u32 { return bitcast<u32>(userCorners[at]); }

fn blobbyV3(at: u32) -> vec3f { return vec3f(userCorners[at], userCorners[at + 1u], userCorners[at + 2u]); }

/** The 3 × 4 column-major affine map at `at`: its linear part and its translation. */
struct BlobbyAffine {
  linear: mat3x3f,
  offset: vec3f,
}

fn blobbyAffine(at: u32) -> BlobbyAffine {
  return BlobbyAffine(mat3x3f(blobbyV3(at), blobbyV3(at + 3u), blobbyV3(at + 6u)), blobbyV3(at + 9u));
}

/** The field block of Blobby record p. */
fn blobbyFieldOf(p: u32) -> u32 {
  return recU(p, REC_AUX) + recU(p, REC_GEOMETRY + BLOBBY_SHAPE_FIELD) - 1u;
}

fn blobbyLeaves(field: u32) -> u32 { return field + BLOBBY_FIELD_FLOATS; }

fn blobbyLeafCount(field: u32) -> u32 { return blobbyWord(field + BLOBBY_FIELD_LEAVES); }

/** The leaf at `at`'s field at object-space point p: (gradient, value). Ellipsoids and segments are
 * the bump (1 - r²)³ of the squared distance r² in their unit space (from the centre, or the nearest
 * point of the segment over its radius), exactly 0 from r = 1 outwards. */
fn blobbyLeaf(at: u32, p: vec3f) -> vec4f {
  let kind = blobbyWord(at + BLOBBY_LEAF_KIND);
  if (kind == BLOBBY_KIND_CONSTANT) { return vec4f(0.0, 0.0, 0.0, userCorners[at + BLOBBY_LEAF_TO_UNIT]); }
  let m = blobbyAffine(at + BLOBBY_LEAF_TO_UNIT);
  let q = m.linear * p + m.offset;
  var d = q;
  var scale = 1.0;
  if (kind == BLOBBY_KIND_SEGMENT) {
    let start = blobbyV3(at + BLOBBY_LEAF_START);
    let axis = blobbyV3(at + BLOBBY_LEAF_AXIS);
    let along = clamp(dot(q - start, axis) * userCorners[at + BLOBBY_LEAF_INVERSE_AXIS_LENGTH2], 0.0, 1.0);
    d = q - (start + axis * along);
    scale = userCorners[at + BLOBBY_LEAF_INVERSE_RADIUS2];
  }
  let r2 = dot(d, d) * scale;
  if (r2 >= 1.0) { return vec4f(0.0); }
  let s = 1.0 - r2;
  // d(s³)/dq = -3s² · 2d · scale (the nearest point of a segment moves along it, across d), taken
  // to object space by the linear part's transpose.
  return vec4f(transpose(m.linear) * ((-6.0 * s * s * scale) * d), s * s * s);
}

/** The field and its gradient at object-space point p: the block's program run over a stack of
 * (gradient, value) whose top is kept apart (an operator whose second operand is a leaf takes it
 * straight from the leaf, BLOBBY_OP_LEAF_OPERAND: a sum of leaves never touches the stack array,
 * whose indexing by a varying depth costs a CPU driver a loop over the SIMD lanes). */
fn blobbyField(field: u32, p: vec3f) -> vec4f {
  let leaves = blobbyLeaves(field);
  let program = leaves + blobbyLeafCount(field) * BLOBBY_LEAF_FLOATS;
  let count = blobbyWord(field + BLOBBY_FIELD_PROGRAM);
  var stack: array<vec4f, BLOBBY_STACK>;
  var depth = 0u;
  var top = vec4f(0.0);
  for (var k = 0u; k < count; k++) {
    let word = blobbyWord(program + k);
    let op = word & BLOBBY_OP_MASK;
    let leafOperand = (word & BLOBBY_OP_LEAF_OPERAND) != 0u;
    var leaf = vec4f(0.0, 0.0, 0.0, select(0.0, 1.0, op == BLOBBY_OP_ONE));
    if (op == BLOBBY_OP_LEAF || leafOperand) { leaf = blobbyLeaf(leaves + (word >> BLOBBY_OP_SHIFT) * BLOBBY_LEAF_FLOATS, p); }
    if (op <= BLOBBY_OP_ONE) {
      stack[depth] = top;
      depth++;
      top = leaf;
    } else if (op == BLOBBY_OP_NEGATE) {
      top = -top;
    } else {
      var a = top;
      var b = leaf;
      if (!leafOperand) {
        depth--;
        a = stack[depth];
        b = top;
      }
      top = a + b;
      if (op == BLOBBY_OP_MULTIPLY) {
        top = vec4f(a.xyz * b.w + b.xyz * a.w, a.w * b.w);
      } else if (op == BLOBBY_OP_MAXIMUM) {
        top = select(a, b, b.w > a.w);
      } else if (op == BLOBBY_OP_MINIMUM) {
        top = select(a, b, b.w < a.w);
      } else if (op == BLOBBY_OP_SUBTRACT) {
        top = a - b;
      } else if (op == BLOBBY_OP_DIVIDE) {
        top = vec4f(0.0);
        if (b.w != 0.0) { top = vec4f((a.xyz * b.w - b.xyz * a.w) / (b.w * b.w), a.w / b.w); }
      }
    }
  }
  return top;
}

/** A point of the surface and the field's gradient there (at the last Newton step's start, which
 * it has left by a thousandth of the reach at most). */
struct BlobbyPoint {
  p: vec3f,
  gradient: vec3f,
}

/** The point where Newton steps along the gradient from `start` meet the surface, never farther than
 * the block's reach from `start` (the block holds only the leaves that can reach that far). Each step
 * about squares the error over the length the surface bends over, a coarse cell (the reach) or more
 * where the cells resolve the surface: after a step under a thousandth of the reach, the error is
 * about a millionth of it. From the patch, one step usually does. */
fn blobbyProject(field: u32, start: vec3f) -> BlobbyPoint {
  let threshold = userCorners[field + BLOBBY_FIELD_THRESHOLD];
  let reach = userCorners[field + BLOBBY_FIELD_REACH];
  var point = BlobbyPoint(start, vec3f(0.0));
  for (var step = 0u; step < BLOBBY_NEWTON_STEPS; step++) {
    let f = blobbyField(field, point.p);
    point.gradient = f.xyz;
    let g2 = dot(f.xyz, f.xyz);
    if (!(g2 > 0.0)) { break; }
    var next = point.p - f.xyz * ((f.w - threshold) / g2);
    let away = next - start;
    let far = length(away);
    if (far > reach) { next = start + away * (reach / far); }
    let moved = distance(next, point.p);
    point.p = next;
    if (moved <= 1.0e-3 * reach) { break; }
  }
  return point;
}

/** The quadratic through a, m and b at t = 0, ½ and 1, at t: a at t = 0 and b at t = 1 exactly. */
fn blobbyQuadratic(a: vec3f, m: vec3f, b: vec3f, t: f32) -> vec3f {
  return a * ((1.0 - t) * (1.0 - 2.0 * t)) + m * (4.0 * t * (1.0 - t)) + b * (t * (2.0 * t - 1.0));
}

/** Its derivative in t. */
fn blobbyQuadraticSlope(a: vec3f, m: vec3f, b: vec3f, t: f32) -> vec3f {
  return a * (4.0 * t - 3.0) + m * (4.0 - 8.0 * t) + b * (4.0 * t - 1.0);
}

/** Point (i, j) of the record's 3 × 3 patch points. */
fn blobbyPoint(shape: ptr<function, Shape>, i: u32, j: u32) -> vec3f {
  return shapeV3(shape, BLOBBY_SHAPE_POINTS + (j * 3u + i) * 3u);
}

/** The record's biquadratic patch at (u, v), where projection starts. A point on an edge of the
 * parameter square is one expression of that edge's three points and its parameter alone: the
 * records on each side of a shared edge hold those points with the same bits, in the same order, so
 * they start (and end) at the same bits there. */
fn blobbyStart(shape: ptr<function, Shape>, u: f32, v: f32) -> vec3f {
  let onV = v == 0.0 || v == 1.0;
  if (onV || u == 0.0 || u == 1.0) {
    // The edge's points run along u at row j, or along v at column i.
    let j = select(0u, 2u, v == 1.0);
    let i = select(0u, 2u, u == 1.0);
    var ends: array<vec3f, 3>;
    for (var k = 0u; k < 3u; k++) { ends[k] = blobbyPoint(shape, select(i, k, onV), select(k, j, onV)); }
    return blobbyQuadratic(ends[0], ends[1], ends[2], select(v, u, onV));
  }
  var rows: array<vec3f, 3>;
  for (var j = 0u; j < 3u; j++) { rows[j] = blobbyQuadratic(blobbyPoint(shape, 0u, j), blobbyPoint(shape, 1u, j), blobbyPoint(shape, 2u, j), u); }
  return blobbyQuadratic(rows[0], rows[1], rows[2], v);
}

/** ∂/∂u and ∂/∂v of the record's patch at (u, v). */
fn blobbyStartSlopes(shape: ptr<function, Shape>, u: f32, v: f32) -> array<vec3f, 2> {
  var rows: array<vec3f, 3>;
  var slopes: array<vec3f, 3>;
  for (var j = 0u; j < 3u; j++) {
    let a = blobbyPoint(shape, 0u, j);
    let m = blobbyPoint(shape, 1u, j);
    let b = blobbyPoint(shape, 2u, j);
    rows[j] = blobbyQuadratic(a, m, b, u);
    slopes[j] = blobbyQuadraticSlope(a, m, b, u);
  }
  return array<vec3f, 2>(blobbyQuadratic(slopes[0], slopes[1], slopes[2], v), blobbyQuadraticSlope(rows[0], rows[1], rows[2], v));
}

/** The shading normal (camera space, unit, or 0 where the gradient vanishes) for the field's
 * gradient g: down it, through the block's normal matrix. */
fn blobbyNormal(field: u32, g: vec3f) -> vec3f {
  let at = field + BLOBBY_FIELD_NORMAL_MATRIX;
  let n = mat3x3f(blobbyV3(at), blobbyV3(at + 3u), blobbyV3(at + 6u)) * -g;
  return select(vec3f(0.0), normalize(n), dot(n, n) > 0.0);
}

/** Where the block's blended variables start, and the floats each takes. */
fn blobbyBlends(field: u32) -> vec2u {
  let program = blobbyLeaves(field) + blobbyLeafCount(field) * BLOBBY_LEAF_FLOATS;
  return vec2u(program + blobbyWord(field + BLOBBY_FIELD_PROGRAM), BLOBBY_BLEND_VALUES + blobbyLeafCount(field));
}
