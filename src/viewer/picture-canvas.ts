// Puts rendered pictures on the canvas: quantized like the command line's PNG (the scene's
// Exposure and Quantize, adjusted by the viewer's exposure and gamma), drawn at the scene's Format;
// a preview rendered at a lower resolution is scaled up to fill the same canvas. While a render
// runs, each finished region is drawn as it comes.
import { type ExposureSettings, type FloatImage, type Frame, type PixelRect, quantizeImage } from '../index.ts';

/** The viewer's display adjustment on top of the scene's Exposure: stops of gain, and a gamma that
 * replaces the scene's (null keeps it). The saved files are not affected. */
export interface DisplayAdjustment {
  stops: number;
  gamma: number | null;
}

export const NO_ADJUSTMENT: DisplayAdjustment = { stops: 0, gamma: null };

export function displayExposure(frame: Frame, adjust: DisplayAdjustment): ExposureSettings {
  const { gain, gamma } = frame.options.exposure;
  return { gain: gain * 2 ** adjust.stops, gamma: adjust.gamma ?? gamma };
}

export function showPicture(canvas: HTMLCanvasElement, image: FloatImage, frame: Frame, size: [number, number], adjust = NO_ADJUSTMENT): void {
  if (canvas.width !== size[0] || canvas.height !== size[1]) {
    canvas.width = size[0];
    canvas.height = size[1];
  }
  const context = canvas.getContext('2d');
  if (!context || image.width === 0 || image.height === 0) return;
  const data = imageData(image, frame, adjust);
  if (image.width === canvas.width && image.height === canvas.height) {
    context.putImageData(data, 0, 0);
    return;
  }
  const scratch = new OffscreenCanvas(image.width, image.height);
  scratch.getContext('2d')!.putImageData(data, 0, 0);
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.imageSmoothingEnabled = true;
  context.drawImage(scratch, 0, 0, canvas.width, canvas.height);
}

/** Draws `rect` of a render in progress (pixels of `image`) over the canvas, scaled as the whole
 * picture would be. */
export function showPictureRegion(canvas: HTMLCanvasElement, image: FloatImage, frame: Frame, rect: PixelRect, adjust = NO_ADJUSTMENT): void {
  const context = canvas.getContext('2d');
  const width = rect.x1 - rect.x0;
  const height = rect.y1 - rect.y0;
  if (!context || width <= 0 || height <= 0) return;
  const region = { width, height, rgba: new Float32Array(width * height * 4), depth: new Float32Array(width * height) };
  for (let y = 0; y < height; y++) {
    const from = ((rect.y0 + y) * image.width + rect.x0) * 4;
    region.rgba.set(image.rgba.subarray(from, from + width * 4), y * width * 4);
  }
  const data = imageData(region, frame, adjust);
  const sx = canvas.width / image.width;
  const sy = canvas.height / image.height;
  if (sx === 1 && sy === 1) {
    context.putImageData(data, rect.x0, rect.y0);
    return;
  }
  const scratch = new OffscreenCanvas(width, height);
  scratch.getContext('2d')!.putImageData(data, 0, 0);
  context.imageSmoothingEnabled = true;
  context.clearRect(rect.x0 * sx, rect.y0 * sy, width * sx, height * sy);
  context.drawImage(scratch, rect.x0 * sx, rect.y0 * sy, width * sx, height * sy);
}

/** The picture quantized for the canvas. ImageData holds straight alpha: colour is divided by alpha
 * before quantization, as for PNG, so edges keep their precision; a checker behind the canvas shows
 * alpha (set in CSS). */
function imageData(image: FloatImage, frame: Frame, adjust: DisplayAdjustment): ImageData {
  const quantized = quantizeImage(image, displayExposure(frame, adjust), frame.options.quantize.rgba, 'straight');
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  const scale = quantized.bitDepth === 16 ? 1 / 257 : 1;
  for (let i = 0; i < rgba.length; i++) rgba[i] = quantized.rgba[i]! * scale;
  return new ImageData(rgba, image.width, image.height);
}
