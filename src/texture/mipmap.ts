// The mip pyramid of a picture: each level is the one above it resampled to half its size (rounded
// up) with the Make* request's filter, as RI 3.2 says MakeTexture filters the picture: the filter
// and its widths are in the coarser level's pixels (box 1 1 averages each 2×2 block exactly).
// Texels beyond an edge follow the wrap mode (periodic wraps; clamp and black both repeat the edge
// here, so black borders do not darken the coarse levels: black applies at lookup).
import { pixelFilterWeight, type PixelFilterName } from '../image/pixel-filters.ts';
import { mipSizes, type MipLevel, type WrapMode } from './texture-map.ts';

export interface MipOptions {
  filter: PixelFilterName;
  swidth: number;
  twidth: number;
  swrap: WrapMode;
  twrap: WrapMode;
}

export function buildPyramid(base: MipLevel, channels: number, options: MipOptions): MipLevel[] {
  const levels = [base];
  for (const [width, height] of mipSizes(base.width, base.height).slice(1)) {
    levels.push(downsample(levels[levels.length - 1]!, width, height, channels, options));
  }
  return levels;
}

/** 1-D weights: for each destination pixel, the source indices and normalised weights. */
function taps(from: number, to: number, width: number, wrap: WrapMode, filter: PixelFilterName): { index: number[]; weight: number[] }[] {
  const scale = from / to;
  // The filter spans `width` destination pixels, at least one so every source pixel is covered.
  const radius = (Math.max(width, 1) / 2) * scale;
  return Array.from({ length: to }, (_, i) => {
    const centre = (i + 0.5) * scale;
    const index: number[] = [];
    const weight: number[] = [];
    for (let j = Math.floor(centre - radius); j <= Math.ceil(centre + radius); j++) {
      const w = pixelFilterWeight(filter, (j + 0.5 - centre) / scale, 0, Math.max(width, 1), 1);
      if (w === 0) continue;
      index.push(wrap === 'periodic' ? ((j % from) + from) % from : Math.min(from - 1, Math.max(0, j)));
      weight.push(w);
    }
    const total = weight.reduce((a, b) => a + b, 0);
    return { index, weight: weight.map((w) => w / total) };
  });
}

function downsample(src: MipLevel, width: number, height: number, channels: number, o: MipOptions): MipLevel {
  const sTaps = taps(src.width, width, o.swidth, o.swrap, o.filter);
  const tTaps = taps(src.height, height, o.twidth, o.twrap, o.filter);
  // Separable: rows first, then columns.
  const rows = new Float32Array(width * src.height * channels);
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < width; x++) {
      const { index, weight } = sTaps[x]!;
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let k = 0; k < index.length; k++) sum += weight[k]! * src.data[(y * src.width + index[k]!) * channels + c]!;
        rows[(y * width + x) * channels + c] = sum;
      }
    }
  }
  const data = new Float32Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    const { index, weight } = tTaps[y]!;
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let k = 0; k < index.length; k++) sum += weight[k]! * rows[(index[k]! * width + x) * channels + c]!;
        data[(y * width + x) * channels + c] = sum;
      }
    }
  }
  return { width, height, data };
}
