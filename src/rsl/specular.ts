// The highlight of specular() and specularbrdf(). The RenderMan Interface leaves specularbrdf to the
// renderer (its example is pow(max(0, N·H), 1 / roughness)); PRMan, BMRT and Aqsis all use an
// exponent of 1 / (roughness / 8), and scenes written for them expect their highlights: Aqsis 1.8's
// specular() and pow(max(0, N·H), 8 / roughness) in an illuminance loop give the same picture.

/** specularbrdf's exponent is SPECULAR_ROUGHNESS_SCALE / roughness. */
export const SPECULAR_ROUGHNESS_SCALE = 8;
/** The smallest roughness specularbrdf takes (a zero would divide by zero). */
export const MIN_SPECULAR_ROUGHNESS = 1e-6;

/** specularbrdf's value for the cosine N·H. */
export function specularFalloff(cosine: number, roughness: number): number {
  return Math.pow(Math.max(0, cosine), SPECULAR_ROUGHNESS_SCALE / Math.max(roughness, MIN_SPECULAR_ROUGHNESS));
}
