// Image comparison for the image tests: per-channel absolute differences between two images.
import type { QuantizedImage } from './image.ts';

export interface ImageDifference {
  /** Largest absolute difference of any channel. */
  max: number;
  /** Mean absolute difference over all channels. */
  mean: number;
  /** Channels differing by more than `tolerance`. */
  over: number;
}

export function compareImages(a: QuantizedImage, b: QuantizedImage, tolerance = 0): ImageDifference {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`images differ in size: ${a.width}×${a.height} and ${b.width}×${b.height}`);
  }
  let max = 0;
  let sum = 0;
  let over = 0;
  for (let i = 0; i < a.rgba.length; i++) {
    const d = Math.abs(a.rgba[i]! - b.rgba[i]!);
    max = Math.max(max, d);
    sum += d;
    if (d > tolerance) over++;
  }
  return { max, mean: sum / a.rgba.length, over };
}
