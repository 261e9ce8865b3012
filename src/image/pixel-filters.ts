// The RenderMan pixel filters (RI 3.2 appendix), as weights of an offset (x, y) in pixels from the
// pixel centre with the filter's full widths. The GPU filter kernel (image-filter.wgsl) evaluates
// the same formulas, selected by `pixelFilterCode`; these CPU forms are its reference.

export type PixelFilterName = 'box' | 'triangle' | 'catmull-rom' | 'gaussian' | 'sinc';

export const PIXEL_FILTERS: readonly PixelFilterName[] = ['box', 'triangle', 'catmull-rom', 'gaussian', 'sinc'];

/** The FILTER constant of image-filter.wgsl; undefined for a filter name RI does not define. */
export function pixelFilterCode(name: string): number | undefined {
  const k = (PIXEL_FILTERS as readonly string[]).indexOf(name.toLowerCase());
  return k >= 0 ? k : undefined;
}

export function pixelFilterWeight(name: PixelFilterName, x: number, y: number, xWidth: number, yWidth: number): number {
  if (Math.abs(x) > xWidth / 2 || Math.abs(y) > yWidth / 2) return 0;
  switch (name) {
    case 'box':
      return 1;
    case 'triangle':
      return (1 - Math.abs(x) / (xWidth / 2)) * (1 - Math.abs(y) / (yWidth / 2));
    case 'catmull-rom':
      return catmullRom(x) * catmullRom(y);
    case 'gaussian': {
      const gx = (2 * x) / xWidth;
      const gy = (2 * y) / yWidth;
      return Math.exp(-2 * (gx * gx + gy * gy));
    }
    case 'sinc':
      return windowedSinc(x, xWidth / 2) * windowedSinc(y, yWidth / 2);
  }
}

function catmullRom(x: number): number {
  const a = Math.abs(x);
  if (a < 1) return 1.5 * a * a * a - 2.5 * a * a + 1;
  if (a < 2) return -0.5 * a * a * a + 2.5 * a * a - 4 * a + 2;
  return 0;
}

/** sinc(x) under a Lanczos window of the filter's half width, so it falls to zero at the edge. */
function windowedSinc(x: number, halfWidth: number): number {
  const sinc = (t: number): number => (Math.abs(t) < 1e-6 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t));
  return sinc(x) * sinc(x / halfWidth);
}
