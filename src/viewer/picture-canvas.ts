// Puts rendered pictures on the canvas: quantized like the command line's PNG (the scene's
// Exposure and Quantize), drawn at the scene's Format; a preview rendered at a lower resolution is
// scaled up to fill the same canvas.
import type { FloatImage } from '../image/image.ts';
import { quantizeImage } from '../image/quantize.ts';
import type { Frame } from '../rib/scene.ts';

export function showPicture(canvas: HTMLCanvasElement, image: FloatImage, frame: Frame, size: [number, number]): void {
  if (canvas.width !== size[0] || canvas.height !== size[1]) {
    canvas.width = size[0];
    canvas.height = size[1];
  }
  const context = canvas.getContext('2d');
  if (!context || image.width === 0 || image.height === 0) return;
  // ImageData holds straight alpha: colour is divided by alpha before quantization, as for PNG, so
  // edges keep their precision; a checker behind the canvas shows alpha (set in CSS).
  const quantized = quantizeImage(image, frame.options.exposure, frame.options.quantize.rgba, 'straight');
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  const scale = quantized.bitDepth === 16 ? 1 / 257 : 1;
  for (let i = 0; i < rgba.length; i++) rgba[i] = quantized.rgba[i]! * scale;
  const data = new ImageData(rgba, image.width, image.height);
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
