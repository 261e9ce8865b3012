// An independent reference for texture filtering: Heckbert's elliptical weighted average (EWA;
// "Fundamentals of Texture Mapping and Image Warping", 1989, §3.5.8; Greene & Heckbert 1986) over
// the level-0 texels. Plain TypeScript over a texel function: nothing here comes from src/texture,
// so it checks the renderer's filter rather than repeating it.

/** A level-0 map: texel (x, y) of a width × height picture, one channel, periodic in s and t. */
export interface ReferenceMap {
  width: number;
  height: number;
  texel(x: number, y: number): number;
}

/** The change of texel coordinates (u, v) per pixel step in x and in y. */
export interface Jacobian {
  dudx: number;
  dvdx: number;
  dudy: number;
  dvdy: number;
}

const wrap = (i: number, n: number): number => ((i % n) + n) % n;

/** Heckbert's Gaussian falloff exp(-α r²), r² = Q / F: α = 2 puts the ellipse's edge (r = 1,
 * the image of the pixel's unit circle) at e⁻², a standard deviation of half a pixel. */
const ALPHA = 2;

/**
 * EWA at texel position (u, v) (texel i's centre at i + 0.5): the Gaussian-weighted mean of the
 * level-0 texels whose centres fall inside the ellipse Q(du, dv) = A du² + B du dv + C dv² < F,
 * the image of the pixel's unit circle through the Jacobian, with Heckbert's +1 on A and C (a
 * reconstruction filter one texel wide, so a magnified texel still covers the ellipse).
 */
export function ewa(map: ReferenceMap, u: number, v: number, j: Jacobian): number {
  const A = j.dvdx * j.dvdx + j.dvdy * j.dvdy + 1;
  const B = -2 * (j.dudx * j.dvdx + j.dudy * j.dvdy);
  const C = j.dudx * j.dudx + j.dudy * j.dudy + 1;
  const F = A * C - (B * B) / 4;
  // The ellipse's bounding box: |du| ≤ √C and |dv| ≤ √A (since 4AC − B² = 4F).
  const ru = Math.sqrt(C);
  const rv = Math.sqrt(A);
  let sum = 0;
  let total = 0;
  for (let y = Math.ceil(v - 0.5 - rv); y <= Math.floor(v - 0.5 + rv); y++) {
    const dv = y + 0.5 - v;
    for (let x = Math.ceil(u - 0.5 - ru); x <= Math.floor(u - 0.5 + ru); x++) {
      const du = x + 0.5 - u;
      const q = A * du * du + B * du * dv + C * dv * dv;
      if (q >= F) continue;
      const w = Math.exp((-ALPHA * q) / F);
      sum += w * map.texel(wrap(x, map.width), wrap(y, map.height));
      total += w;
    }
  }
  return sum / total;
}
