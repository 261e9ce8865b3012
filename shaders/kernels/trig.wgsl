// Sine, cosine and arccosine to about 1 ulp, for the kernels whose geometry depends on them
// (`// @include trig.wgsl`). WGSL lets the builtins be loose and drivers differ (measured: sin and
// cos off by 2e-4 on SwiftShader, 7e-8 on lavapipe; acos by 7e-5 and 2e-4), so quadric vertices,
// lens positions and split decisions made with them moved between the page and the command line.
// Cody and Waite's range reduction by π/2 in three parts (the first two of at most 12 significant
// bits, so that k times them is exact for |k| < 2^12), then Cephes' minimax polynomials on
// [-π/4, π/4]. test/gpu/trig.test.ts checks them against float64.

const TRIG_PIO2_1: f32 = 1.5703125;
const TRIG_PIO2_2: f32 = 4.837512969970703125e-4;
const TRIG_PIO2_3: f32 = 7.5497899548918821e-8;

/** (sin x, cos x). */
fn sinCos(x: f32) -> vec2f {
  let k = round(x * 0.636619772367581343);
  let r = ((x - k * TRIG_PIO2_1) - k * TRIG_PIO2_2) - k * TRIG_PIO2_3;
  let z = r * r;
  let s = r + r * z * ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1);
  let c = 1.0 - 0.5 * z + z * z * ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2);
  // Quadrant q: (s, c), (c, -s), (-s, -c), (-c, s).
  let q = i32(k) & 3;
  let v = select(vec2f(s, c), vec2f(c, s), (q & 1) != 0);
  return v * vec2f(select(1.0, -1.0, (q & 2) != 0), select(1.0, -1.0, ((q + 1) & 2) != 0));
}

/** asin x for |x| <= 1/2. */
fn asinSmall(x: f32) -> f32 {
  let z = x * x;
  return x + x * z * ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z + 1.6666752422e-1);
}

/** acos x for x in [-1, 1]; near ±1 through asin of the half-angle's sine, which keeps its precision. */
fn preciseAcos(x: f32) -> f32 {
  let a = abs(x);
  if (a <= 0.5) { return 1.5707963267948966 - asinSmall(x); }
  let t = 2.0 * asinSmall(sqrt(0.5 * (1.0 - a)));
  return select(3.141592653589793 - t, t, x > 0.0);
}
