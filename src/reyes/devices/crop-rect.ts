// Parts of a picture as CropWindows: the renderer keeps pixels ceil(resolution × fraction) onward
// (camera.ts), so a part that starts at pixel p is asked for with the fraction (p − 0.5) / resolution,
// which rounds back to exactly p whatever the floating-point error. A part rendered with such a
// CropWindow has exactly the pixels the whole picture has there (the filter reads samples beyond it).
import type { Options } from '../../rib/scene.ts';
import type { PixelRect } from '../camera.ts';

export interface PictureArea {
  /** The image's resolution (Format, or the --res override). */
  width: number;
  height: number;
  /** The pixels the frame's own CropWindow keeps, in pixels of the whole image, x1 and y1 exclusive. */
  rect: PixelRect;
}

export function pictureArea(options: Options, resolution?: readonly [number, number]): PictureArea {
  const [width, height] = resolution ?? [options.xResolution, options.yResolution];
  const [cx0, cx1, cy0, cy1] = options.cropWindow;
  const pixel = (size: number, fraction: number): number => Math.min(size, Math.max(0, Math.ceil(size * fraction)));
  return { width, height, rect: { x0: pixel(width, cx0), x1: pixel(width, cx1), y0: pixel(height, cy0), y1: pixel(height, cy1) } };
}

/** The CropWindow (x0, x1, y0, y1 fractions) that renders exactly `rect` of a width × height image. */
export function cropWindowFor(rect: PixelRect, width: number, height: number): [number, number, number, number] {
  const fraction = (p: number, size: number): number => (p === 0 ? 0 : p === size ? 1 : (p - 0.5) / size);
  return [fraction(rect.x0, width), fraction(rect.x1, width), fraction(rect.y0, height), fraction(rect.y1, height)];
}
