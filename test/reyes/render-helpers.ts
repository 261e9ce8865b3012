// Rendering RIB scenes in tests: parse, render a frame on the test runtime, quantize.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import type { FloatImage, QuantizedImage } from '../../src/image/image.ts';
import { quantizeImage } from '../../src/image/quantize.ts';
import { renderFrame, type RenderedFrame, type RenderOptions } from '../../src/reyes/render-frame.ts';
import { parseRib } from '../../src/rib/index.ts';
import { createNodeResolver } from '../../src/rib/resolver-node.ts';
import type { Frame } from '../../src/rib/scene.ts';
import { RENDERANTS_PIPELINE, type PipelineConfig } from '../../src/reyes/pipeline/pipeline-config.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The default pipeline with sample points written and composited even where the frame is opaque
 * (the fused opaque path's reference). */
export const UNFUSED_COMPOSITE: PipelineConfig = { ...RENDERANTS_PIPELINE, fusion: { 'sample+composite': false } };

export async function loadFrame(file: string): Promise<Frame> {
  const scene = await parseRib(readFileSync(file), { fileName: file, resolver: createNodeResolver() });
  const frame = scene.frames[0];
  if (!frame) throw new Error(`${file} has no frame`);
  return frame;
}

export async function frameFromText(text: string): Promise<Frame> {
  const scene = await parseRib(text);
  if (scene.errors.length) throw new Error(scene.errors.map((e) => e.message).join('\n'));
  return scene.frames[0]!;
}

export interface TestRender {
  rendered: RenderedFrame;
  image: QuantizedImage;
}

export async function render(gpu: GpuRuntime, frame: Frame, options: RenderOptions = {}): Promise<TestRender> {
  const rendered = await renderFrame(gpu, frame, options);
  return { rendered, image: quantizeImage(rendered.image, frame.options.exposure, frame.options.quantize.rgba) };
}

/** The float RGBA of one pixel of a rendered image. */
export function pixel(image: FloatImage, x: number, y: number): number[] {
  return Array.from(image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));
}

/** Fraction of pixels with non-zero alpha. */
export function coverage(image: QuantizedImage): number {
  let covered = 0;
  for (let i = 3; i < image.rgba.length; i += 4) if (image.rgba[i]! > 0) covered++;
  return covered / (image.width * image.height);
}

/** A 128 × 128 frame of the square [-2, 2]² seen straight on by an orthographic camera, constant
 * shading, with `body` in its world (the primitive tests' common stage). */
export function orthographicScene(body: string, samples = 4): string {
  return `Format 128 128 1
PixelSamples ${samples} ${samples}
Projection "orthographic"
ScreenWindow -2 2 -2 2
Translate 0 0 5
WorldBegin
Surface "constant"
${body}
WorldEnd`;
}

/** The image's alpha summed: the area it covers, in pixels. */
export function alphaSum(image: { rgba: Float32Array }): number {
  let area = 0;
  for (let i = 3; i < image.rgba.length; i += 4) area += image.rgba[i]!;
  return area;
}
