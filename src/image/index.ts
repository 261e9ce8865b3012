// Pictures out: float images, exposure and quantization, PNG encoding (png.ts, Node), float TIFF for
// depth (tiff.ts), comparison.
export * from './image.ts';
export * from './quantize.ts';
export * from './compare.ts';
export * from './tiff.ts';
export { PIXEL_FILTERS, pixelFilterCode, pixelFilterWeight } from './pixel-filters.ts';
export type { PixelFilterName } from './pixel-filters.ts';
