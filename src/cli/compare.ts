// `reyes compare a.png b.png`: the difference figures the image tests use (src/image/compare.ts:
// largest and mean absolute difference of the 8-bit RGBA channels, and how many differ by more
// than the tolerance), so a user can check in their own CI that two renders agree. PNG is read as
// the tests read it; TIFF (the peer renderer's, or the page's 16-bit saves) is brought to 8 bits.
// Exit status 0 when no channel differs by more than --tolerance, 1 when some do or the sizes
// differ, 4 for an unreadable file or a bad argument.
import { readFile } from 'node:fs/promises';
import { hasPngSignature } from 'fast-png';
import { compareImages, decodePicture, decodePng, type QuantizedImage } from '../index.ts';
import { EXIT } from './render.ts';

export interface CompareCommandOptions {
  /** --tolerance: largest channel difference (0..255) that still counts as equal. */
  tolerance: string;
}

/** A picture as 8-bit RGBA: grey spread to RGB, no alpha read as opaque. */
async function readRgba8(file: string): Promise<QuantizedImage> {
  const bytes = new Uint8Array(await readFile(file));
  if (hasPngSignature(bytes)) return decodePng(bytes);
  const picture = decodePicture(bytes);
  const count = picture.width * picture.height;
  const rgba = new Uint8Array(count * 4);
  const { channels, data } = picture;
  const at = (i: number, c: number): number => Math.round(Math.min(Math.max(data[i * channels + c]!, 0), 1) * 255);
  for (let i = 0; i < count; i++) {
    const grey = channels <= 2;
    rgba[i * 4] = at(i, 0);
    rgba[i * 4 + 1] = at(i, grey ? 0 : 1);
    rgba[i * 4 + 2] = at(i, grey ? 0 : 2);
    rgba[i * 4 + 3] = channels === 2 ? at(i, 1) : channels >= 4 ? at(i, 3) : 255;
  }
  return { width: picture.width, height: picture.height, rgba, bitDepth: 8 };
}

export async function compareCommand(first: string, second: string, options: CompareCommandOptions): Promise<number> {
  const tolerance = Number(options.tolerance);
  if (!(Number.isInteger(tolerance) && tolerance >= 0 && tolerance <= 255)) {
    console.error(`reyes compare: --tolerance must be an integer from 0 to 255, not "${options.tolerance}"`);
    return EXIT.usage;
  }
  const images: QuantizedImage[] = [];
  for (const file of [first, second]) {
    try {
      images.push(await readRgba8(file));
    } catch (error) {
      console.error(`reyes compare: cannot read ${file}: ${(error as Error).message}`);
      return EXIT.usage;
    }
  }
  const [a, b] = images as [QuantizedImage, QuantizedImage];
  if (a.width !== b.width || a.height !== b.height) {
    console.log(`sizes differ: ${first} is ${a.width}×${a.height}, ${second} is ${b.width}×${b.height}`);
    return 1;
  }
  const { max, mean, over } = compareImages(a, b, tolerance);
  console.log(`max ${max}  mean ${mean.toFixed(4)}  over ${over} of ${a.rgba.length} channels (tolerance ${tolerance})`);
  return over > 0 ? 1 : EXIT.ok;
}
