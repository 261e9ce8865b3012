// The largest picture a frame may ask for. The filtered image is held whole (RGBA and depth as
// 32-bit floats, 20 bytes a pixel) in one typed array each, so a Format of 100000 × 100000 would
// fail deep inside the renderer with no position; it is refused at the request instead.

/** At most this many pixels: 2^27 (e.g. 16384 × 8192), 2.5 GiB of float RGBA and depth. */
export const MAX_IMAGE_PIXELS = 1 << 27;

/** Why `width` × `height` cannot be rendered, or undefined when it can. */
export function imageTooLarge(width: number, height: number): string | undefined {
  if (width * height <= MAX_IMAGE_PIXELS) return undefined;
  return `${width} × ${height} is ${width * height} pixels; at most ${MAX_IMAGE_PIXELS} (e.g. 16384 × 8192) are rendered`;
}
