// Dice: one workgroup per ready piece (prim, depth, u0, u1, v0, v1, nu, nv) writes an nu × nv grid
// in the grid layout of src/rsl/grid-layout.ts: vertex k = j * nu + i is local invocation k; each
// variable's component c of vertex k sits at record base + offset + c * MAXV + k. Positions and
// derivatives are in camera space; derivatives are central differences of the surface, nudged
// inward where the surface degenerates (poles, collapsed polygon edges). reyes-surface.wgsl is
// prepended.

override MAXV: u32 = 256u;
override RECORD_FLOATS: u32;
override OFF_P: u32;
override OFF_N: u32;
override OFF_NG: u32;
override OFF_I: u32;
override OFF_DPDU: u32;
override OFF_DPDV: u32;
override OFF_U: u32;
override OFF_V: u32;
override OFF_DU: u32;
override OFF_DV: u32;
override OFF_S: u32;
override OFF_T: u32;
override OFF_CS: u32;
override OFF_OS: u32;
// User primitive variables: USER_COMPONENTS component rows from OFF_USER in the grid record; each
// primitive record's four corner values per row at userCorners[prim * 4 * USER_COMPONENTS + row * 4].
override USER_COMPONENTS: u32 = 0u;
override OFF_USER: u32 = 0u;

struct DiceParams {
  gridCount: u32,
  perspective: u32,
  pad0: u32,
  pad1: u32,
}

@group(0) @binding(0) var<uniform> params: DiceParams;
@group(0) @binding(1) var<storage, read> prims: array<f32>;
@group(0) @binding(2) var<storage, read> readyList: array<u32>;
@group(0) @binding(3) var<storage, read_write> grids: array<f32>;
@group(0) @binding(4) var<storage, read_write> gridInfo: array<u32>;
@group(0) @binding(5) var<storage, read> userCorners: array<f32>;

const H: f32 = 1.0e-3;

fn put(base: u32, offset: u32, k: u32, value: f32) { grids[base + offset + k] = value; }
fn put3(base: u32, offset: u32, k: u32, value: vec3f) {
  grids[base + offset + k] = value.x;
  grids[base + offset + MAXV + k] = value.y;
  grids[base + offset + 2u * MAXV + k] = value.z;
}

/** Position (first) and ∂P/∂u, ∂P/∂v at (u, v): central differences, one-sided at the edges of the
 * parameter square. Where the surface degenerates (poles, collapsed polygon edges) the derivatives
 * are taken again just inside it. One evaluation site in a loop keeps the compiled kernel small. */
fn positionAndDerivatives(prim: u32, m: mat4x4f, u: f32, v: f32) -> array<vec3f, 3> {
  var result: array<vec3f, 3>;
  var cu = u;
  var cv = v;
  for (var attempt = 0u; attempt < 2u; attempt++) {
    let ua = max(cu - H, 0.0);
    let ub = min(cu + H, 1.0);
    let va = max(cv - H, 0.0);
    let vb = min(cv + H, 1.0);
    var q: array<vec3f, 5>;
    for (var s = 0u; s < 5u; s++) {
      var uv = vec2f(cu, cv);
      if (s == 1u) { uv.x = ua; } else if (s == 2u) { uv.x = ub; } else if (s == 3u) { uv.y = va; } else if (s == 4u) { uv.y = vb; }
      q[s] = evalCamera(prim, m, uv.x, uv.y);
    }
    let dpdu = (q[2] - q[1]) / (ub - ua);
    let dpdv = (q[4] - q[3]) / (vb - va);
    if (attempt == 0u) {
      result[0] = q[0];
      result[1] = dpdu;
      result[2] = dpdv;
    }
    let n = cross(dpdu, dpdv);
    if (dot(n, n) > 1.0e-24 * max(dot(dpdu, dpdu) * dot(dpdv, dpdv), 1.0e-30)) {
      if (attempt == 1u) {
        // Keep the true derivatives' lengths but the normal of the nudged point.
        result[1] = dpdu;
        result[2] = dpdv;
      }
      break;
    }
    cu = mix(u, 0.5, 0.01);
    cv = mix(v, 0.5, 0.01);
  }
  return result;
}

@compute @workgroup_size(MAXV)
fn dice(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
        @builtin(local_invocation_index) k: u32) {
  let g = group.x + group.y * groups.x;
  if (g >= params.gridCount) { return; }
  let prim = readyList[g * 8u];
  let u0 = bitcast<f32>(readyList[g * 8u + 2u]);
  let u1 = bitcast<f32>(readyList[g * 8u + 3u]);
  let v0 = bitcast<f32>(readyList[g * 8u + 4u]);
  let v1 = bitcast<f32>(readyList[g * 8u + 5u]);
  let nu = readyList[g * 8u + 6u];
  let nv = readyList[g * 8u + 7u];
  let base = g * RECORD_FLOATS;
  if (k == 0u) {
    gridInfo[g * 4u] = nu;
    gridInfo[g * 4u + 1u] = nv;
    gridInfo[g * 4u + 2u] = base;
    gridInfo[g * 4u + 3u] = recU(prim, REC_PARAM_BASE);
  }
  if (k >= nu * nv) { return; }
  let i = k % nu;
  let j = k / nu;
  let u = mix(u0, u1, f32(i) / f32(nu - 1u));
  let v = mix(v0, v1, f32(j) / f32(nv - 1u));
  let m = objectToCamera(prim);
  let pd = positionAndDerivatives(prim, m, u, v);
  let p = pd[0];
  let d = array<vec3f, 2>(pd[1], pd[2]);
  var n = cross(d[0], d[1]);
  if ((recU(prim, REC_FLAGS) & FLAG_FLIP_NORMAL) != 0u) { n = -n; }
  var ng = vec3f(0.0);
  if (dot(n, n) > 0.0) { ng = normalize(n); }
  var shadingNormal = ng;
  if ((recU(prim, REC_FLAGS) & FLAG_HAS_NORMALS) != 0u) { shadingNormal = cornerMix3(prim, REC_N, u, v); }
  var eye = p;
  if (params.perspective == 0u) { eye = vec3f(0.0, 0.0, p.z); }
  put3(base, OFF_P, k, p);
  put3(base, OFF_N, k, shadingNormal);
  put3(base, OFF_NG, k, ng);
  put3(base, OFF_I, k, eye);
  put3(base, OFF_DPDU, k, d[0]);
  put3(base, OFF_DPDV, k, d[1]);
  put(base, OFF_U, k, u);
  put(base, OFF_V, k, v);
  put(base, OFF_DU, k, (u1 - u0) / f32(nu - 1u));
  put(base, OFF_DV, k, (v1 - v0) / f32(nv - 1u));
  put(base, OFF_S, k, cornerMix(prim, REC_S, 1u, 0u, u, v));
  put(base, OFF_T, k, cornerMix(prim, REC_T, 1u, 0u, u, v));
  put3(base, OFF_CS, k, cornerMix3(prim, REC_CS, u, v));
  put3(base, OFF_OS, k, cornerMix3(prim, REC_OS, u, v));
  for (var row = 0u; row < USER_COMPONENTS; row++) {
    let at = (prim * USER_COMPONENTS + row) * 4u;
    let value = mix(mix(userCorners[at], userCorners[at + 1u], u), mix(userCorners[at + 2u], userCorners[at + 3u], u), v);
    put(base, OFF_USER + row * MAXV, k, value);
  }
}
