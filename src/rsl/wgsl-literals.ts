// WGSL literals for numbers the compiler and its library write into kernels.

/** The largest finite f32; WGSL rejects a literal beyond it. */
const F32_MAX = '3.4028234663852886e38';

/** A WGSL f32 literal for `x`: beyond the f32 range (where a C float would be infinite) the largest
 * finite f32 of its sign, as WGSL has no infinite literal and refuses values that only round to
 * the largest; NaN 0. */
export function floatLiteral(x: number): string {
  if (Number.isNaN(x)) return '0.0';
  // Beyond the largest f32 (also where x would round to it), which WGSL refuses to round.
  if (Math.abs(x) > Number(F32_MAX)) return x > 0 ? F32_MAX : `-${F32_MAX}`;
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}
