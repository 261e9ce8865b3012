// Shared by the bound/split and dice kernels (`// @include reyes-surface.wgsl`): evaluation of a primitive
// record (src/layout/primitive-record.ts) at surface parameters (u, v) in [0, 1]². Kernels that use
// it declare `prims: array<f32>` (the records) and `userCorners: array<f32>` (their auxiliary blocks).

// @layout primitive-record
// @include trig.wgsl
// @include reyes-blobby.wgsl

fn recF(p: u32, field: u32) -> f32 { return prims[p * REC_FLOATS + field]; }
fn recU(p: u32, field: u32) -> u32 { return bitcast<u32>(prims[p * REC_FLOATS + field]); }

fn bernstein(t: f32) -> vec4f {
  let s = 1.0 - t;
  return vec4f(s * s * s, 3.0 * t * s * s, 3.0 * t * t * s, t * t * t);
}

fn geometryArg(p: u32, k: u32) -> f32 { return recF(p, REC_GEOMETRY + k); }

/** Where a shape's geometry words are read: prims[at...] (a record's), or with SHAPE_IN_AUX set
 * userCorners[at & ~SHAPE_IN_AUX...] (a deforming record's shape at a motion key, reyes-motion.wgsl). */
const SHAPE_IN_AUX: u32 = 0x80000000u;

/** A shape's kind and geometry words, read once for the several evaluations a kernel makes of it
 * (reading them from storage at each evaluation cost the dicer and bound/split most of their time). */
struct Shape {
  kind: u32,
  words: array<f32, 48>,
  /** A Blobby record's field block (blobbyFieldOf); unused by the other kinds. */
  field: u32,
}

/** The shape of kind `kind` whose geometry words are at `at`: as many words as the kind has. */
fn loadShape(kind: u32, at: u32) -> Shape {
  var shape: Shape;
  shape.kind = kind;
  var count = select(select(8u, 12u, kind == KIND_BILINEAR), 48u, kind == KIND_BEZIER);
  // @if SHAPE_KINDS bit KIND_BLOBBY
  if (isKind(kind, KIND_BLOBBY)) { count = BLOBBY_SHAPE_FIELD; }
  // @endif
  for (var k = 0u; k < count; k++) {
    if ((at & SHAPE_IN_AUX) != 0u) { shape.words[k] = userCorners[(at & ~SHAPE_IN_AUX) + k]; } else { shape.words[k] = prims[at + k]; }
  }
  return shape;
}

/** The shape of primitive record p. */
fn recordShape(p: u32) -> Shape {
  let kind = recU(p, REC_KIND);
  var shape = loadShape(kind, p * REC_FLOATS + REC_GEOMETRY);
  // @if SHAPE_KINDS bit KIND_BLOBBY
  if (isKind(kind, KIND_BLOBBY)) { shape.field = blobbyFieldOf(p); }
  // @endif
  return shape;
}

fn shapeWord(shape: ptr<function, Shape>, k: u32) -> f32 { return (*shape).words[k]; }

fn shapeV3(shape: ptr<function, Shape>, k: u32) -> vec3f { return vec3f(shapeWord(shape, k), shapeWord(shape, k + 1u), shapeWord(shape, k + 2u)); }

// The primitive kinds the frame's records hold, bit 1 << KIND_x each (convert-frame.ts
// shapeConstants): evalShape leaves the others' surfaces out. The surface is inlined at every call
// site; with every kind in it the dicer took lavapipe 16 s to compile. The default, kept by the
// kernels that evaluate only deforming records' key shapes, leaves out Blobby, which never deforms.
override SHAPE_KINDS: u32 = 0x1ffu;

/** Whether `kind` is `k` and the frame holds kind `k` (false at compile time where it does not). */
fn isKind(kind: u32, k: u32) -> bool { return (SHAPE_KINDS & (1u << k)) != 0u && kind == k; }

/** Object-space position of a shape at (u, v). */
fn evalShape(at: ptr<function, Shape>, u: f32, v: f32) -> vec3f {
  let kind = (*at).kind;
  // @if SHAPE_KINDS bit KIND_BEZIER
  if (isKind(kind, KIND_BEZIER)) { // bicubic Bézier: 16 points, row v, column u
    let bu = bernstein(u);
    let bv = bernstein(v);
    var acc = vec3f(0.0);
    for (var j = 0u; j < 4u; j++) {
      var row = vec3f(0.0);
      for (var i = 0u; i < 4u; i++) { row += bu[i] * shapeV3(at, (j * 4u + i) * 3u); }
      acc += bv[j] * row;
    }
    return acc;
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_BLOBBY
  if (isKind(kind, KIND_BLOBBY)) { // Blobby: its patch, the parameter domain (the dicer puts it onto the surface)
    return blobbyStart(at, u, v);
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_BILINEAR
  if (isKind(kind, KIND_BILINEAR)) { // bilinear: corners (0,0), (1,0), (0,1), (1,1)
    let p00 = shapeV3(at, 0u);
    let p10 = shapeV3(at, 3u);
    let p01 = shapeV3(at, 6u);
    let p11 = shapeV3(at, 9u);
    return mix(mix(p00, p10, u), mix(p01, p11, u), v);
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_SPHERE
  if (isKind(kind, KIND_SPHERE)) { // sphere: radius, phimin, phimax, thetamax
    let r = shapeWord(at, 0u);
    let phi = mix(shapeWord(at, 1u), shapeWord(at, 2u), v);
    let theta = sinCos(u * shapeWord(at, 3u));
    let p = sinCos(phi);
    return vec3f(r * theta.y * p.y, r * theta.x * p.y, r * p.x);
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_CONE
  if (isKind(kind, KIND_CONE)) { // cone: height, radius, thetamax
    let theta = sinCos(u * shapeWord(at, 2u));
    let r = shapeWord(at, 1u) * (1.0 - v);
    return vec3f(r * theta.y, r * theta.x, v * shapeWord(at, 0u));
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_CYLINDER
  if (isKind(kind, KIND_CYLINDER)) { // cylinder: radius, zmin, zmax, thetamax
    let theta = sinCos(u * shapeWord(at, 3u));
    let r = shapeWord(at, 0u);
    return vec3f(r * theta.y, r * theta.x, mix(shapeWord(at, 1u), shapeWord(at, 2u), v));
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_HYPERBOLOID
  if (isKind(kind, KIND_HYPERBOLOID)) { // hyperboloid: point1, point2, thetamax
    let q = mix(vec3f(shapeWord(at, 0u), shapeWord(at, 1u), shapeWord(at, 2u)),
                vec3f(shapeWord(at, 3u), shapeWord(at, 4u), shapeWord(at, 5u)), v);
    let theta = sinCos(u * shapeWord(at, 6u));
    return vec3f(q.x * theta.y - q.y * theta.x, q.x * theta.x + q.y * theta.y, q.z);
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_PARABOLOID
  if (isKind(kind, KIND_PARABOLOID)) { // paraboloid: rmax, zmin, zmax, thetamax
    let zmax = shapeWord(at, 2u);
    let z = mix(shapeWord(at, 1u), zmax, v);
    var r = 0.0;
    if (zmax != 0.0) { r = shapeWord(at, 0u) * sqrt(max(z / zmax, 0.0)); }
    let theta = sinCos(u * shapeWord(at, 3u));
    return vec3f(r * theta.y, r * theta.x, z);
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_DISK
  if (isKind(kind, KIND_DISK)) { // disk: height, radius, thetamax
    let theta = sinCos(u * shapeWord(at, 2u));
    let r = shapeWord(at, 1u) * (1.0 - v);
    return vec3f(r * theta.y, r * theta.x, shapeWord(at, 0u));
  }
  // @endif
  // @if SHAPE_KINDS bit KIND_TORUS
  if (isKind(kind, KIND_TORUS)) { // torus: majorradius, minorradius, phimin, phimax, thetamax
    let phi = sinCos(mix(shapeWord(at, 2u), shapeWord(at, 3u), v));
    let theta = sinCos(u * shapeWord(at, 4u));
    let r = shapeWord(at, 0u) + shapeWord(at, 1u) * phi.y;
    return vec3f(r * theta.y, r * theta.x, shapeWord(at, 1u) * phi.x);
  }
  // @endif
  return vec3f(0.0);
}

fn objectToCamera(p: u32) -> mat4x4f {
  let b = REC_MATRIX;
  return mat4x4f(
    vec4f(recF(p, b), recF(p, b + 1u), recF(p, b + 2u), recF(p, b + 3u)),
    vec4f(recF(p, b + 4u), recF(p, b + 5u), recF(p, b + 6u), recF(p, b + 7u)),
    vec4f(recF(p, b + 8u), recF(p, b + 9u), recF(p, b + 10u), recF(p, b + 11u)),
    vec4f(recF(p, b + 12u), recF(p, b + 13u), recF(p, b + 14u), recF(p, b + 15u)));
}

/** Camera-space position of a shape at (u, v), `m` its object → camera matrix. */
fn evalCamera(shape: ptr<function, Shape>, m: mat4x4f, u: f32, v: f32) -> vec3f {
  return (m * vec4f(evalShape(shape, u, v), 1.0)).xyz;
}

/** Bilinear interpolation of four corner values (record order 00, 10, 01, 11). */
fn cornerMix(c: vec4f, u: f32, v: f32) -> f32 { return mix(mix(c.x, c.y, u), mix(c.z, c.w, u), v); }

fn cornerMix3(c: array<vec3f, 4>, u: f32, v: f32) -> vec3f { return mix(mix(c[0], c[1], u), mix(c[2], c[3], u), v); }
