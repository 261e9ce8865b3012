// Pictures out: float images, exposure and quantization (straight or associated alpha), and the
// files a Display writes (display-files.ts: TIFF through UTIF, PNG through fast-png, OpenEXR through
// hdrify, float depth TIFF), comparison.
export * from './image.ts';
export * from './quantize.ts';
export * from './compare.ts';
export * from './tiff.ts';
export * from './display-mode.ts';
export { PIXEL_FILTERS, pixelFilterCode, pixelFilterWeight } from './pixel-filters.ts';
export type { PixelFilterName } from './pixel-filters.ts';
