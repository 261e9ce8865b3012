// Saving the picture from the page: the last render's float pixels through the command line's own
// Display writers (display-files.ts), so a saved file is what `reyes render` writes for the same
// Display: PNG (straight alpha, the scene's Exposure and Quantize), 16-bit TIFF (associated alpha)
// and float OpenEXR; then handed to the browser's download.
import { type Display, displayFiles, type FloatImage, type Frame } from '../index.ts';

export type PictureFormat = 'png' | 'tiff16' | 'exr';

export const PICTURE_FORMATS: { format: PictureFormat; label: string; extension: string; mime: string }[] = [
  { format: 'png', label: 'PNG', extension: 'png', mime: 'image/png' },
  { format: 'tiff16', label: 'TIFF 16-bit', extension: 'tif', mime: 'image/tiff' },
  { format: 'exr', label: 'EXR float', extension: 'exr', mime: 'image/x-exr' },
];

/** Quantize "rgba" 65535 0 65535 0.5: 16-bit samples. */
const SIXTEEN_BIT = { one: 65535, min: 0, max: 65535, ditherAmplitude: 0.5 };

export function encodePicture(image: FloatImage, frame: Frame, format: PictureFormat, name: string): Uint8Array {
  const { exposure, quantize } = frame.options;
  const display: Display = { name, type: format === 'tiff16' ? 'tiff' : format, mode: 'rgba', params: [] };
  if (format === 'exr') display.params.push({ name: 'exrpixeltype', storage: 'uniform', type: 'string', arrayLength: null, values: ['float'], inferred: false });
  const settings = { exposure, quantize: format === 'tiff16' ? { ...quantize, rgba: SIXTEEN_BIT } : quantize };
  const { files } = displayFiles(image, display, settings);
  return files[0]!.bytes;
}

/** The file name for a scene's picture: the scene's name with the format's extension. */
export function pictureFileName(scene: string, format: PictureFormat): string {
  const base = scene.replace(/\.rib(\.gz)?$/i, '') || 'picture';
  return `${base}.${PICTURE_FORMATS.find((f) => f.format === format)!.extension}`;
}

/** Puts a PNG on the system clipboard (the browser asks for permission if it must). */
export async function copyPng(png: Uint8Array): Promise<void> {
  await navigator.clipboard.write([new ClipboardItem({ 'image/png': new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }) })]);
}

/** Hands `bytes` to the browser as a download named `name`. */
export function download(bytes: Uint8Array, name: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
