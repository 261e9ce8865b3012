// Matte objects against the RenderMan Interface Specification 3.2 (RiMatte): "Matte objects are not
// shaded and are set to be completely opaque so that they hide objects behind them. However, regions
// in the output image where a matte object is visible are treated as transparent." So a matte hides
// whatever is behind it whatever its Opacity, adds no colour, and leaves alpha 0 where it is seen;
// what is in front of it composites over that hole as over the background.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render, UNFUSED_COMPOSITE } from './render-helpers.ts';


// Orthographic, 10 pixels per unit over x ∈ [−3, 3], y ∈ [−2, 2]; constant surfaces, box filter, so
// every value below is exact. An opaque orange wall at z = 5 fills the picture.
const SCENE = `Format 60 40 1
PixelSamples 4 4
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -3 3 -2 2
WorldBegin
Surface "constant"
Color [1 0.6 0.2]
Polygon "P" [-3 -2 5  3 -2 5  3 2 5  -3 2 5]
# x ∈ [−3, −0.95]: an opaque matte in front of the wall; its right edge halves pixel column 20.
AttributeBegin
Matte 1
Polygon "P" [-3 -2 4  -0.95 -2 4  -0.95 2 4  -3 2 4]
AttributeEnd
# x ∈ [−0.5, 1]: a matte with Opacity 0.5, still completely opaque as a matte.
AttributeBegin
Matte 1
Opacity [0.5 0.5 0.5]
Polygon "P" [-0.5 -2 4  1 -2 4  1 2 4  -0.5 2 4]
AttributeEnd
# x ∈ [1, 3]: an opaque matte behind an opaque blue square (top) and a half-transparent green one (bottom).
AttributeBegin
Matte 1
Polygon "P" [1 -2 4  3 -2 4  3 2 4  1 2 4]
AttributeEnd
Color [0.2 0.4 1]
Polygon "P" [1 0 3  3 0 3  3 2 3  1 2 3]
Color [0.2 1 0.2]
Opacity [0.5 0.5 0.5]
Polygon "P" [1 -2 3  3 -2 3  3 0 3  1 0 3]
# Behind the wall: a matte that the wall hides.
AttributeBegin
Matte 1
Polygon "P" [-3 -2 6  3 -2 6  3 2 6  -3 2 6]
AttributeEnd
WorldEnd`;

describe('Matte', () => {
  const gpu = useGpuRuntime();

  it('hides what is behind it, adds no colour, leaves alpha 0, whatever its opacity', async () => {
    const { rendered } = await render(gpu(), await frameFromText(SCENE));
    const { rgba, width } = rendered.image;
    const pixel = (x: number, y: number): number[] => Array.from(rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)).map((v) => Number(v.toFixed(4)));
    // Opaque matte over the wall: a hole.
    for (const [x, y] of [[2, 3], [10, 20], [19, 37]] as const) expect(pixel(x, y)).toEqual([0, 0, 0, 0]);
    // Its edge halves column 20: half a hole, half the wall (premultiplied).
    expect(pixel(20, 20)).toEqual([0.5, 0.3, 0.1, 0.5]);
    // Between the two mattes the wall shows.
    for (const [x, y] of [[21, 5], [24, 30]] as const) expect(pixel(x, y)).toEqual([1, 0.6, 0.2, 1]);
    // The matte with Opacity 0.5 is a complete hole too.
    for (const [x, y] of [[25, 5], [30, 20], [39, 35]] as const) expect(pixel(x, y)).toEqual([0, 0, 0, 0]);
    // An opaque object in front of a matte is unaffected.
    expect(pixel(50, 10)).toEqual([0.2, 0.4, 1, 1]);
    // A half-transparent one composites over the hole: half its colour, alpha 0.5.
    expect(pixel(50, 30)).toEqual([0.1, 0.5, 0.1, 0.5]);
    // No matte shows through anywhere right of x = 1 or through the wall.
    expect(rendered.warnings).toEqual([]);
  });

  it('takes the opaque fast path, with the same picture as compositing', async () => {
    // Without the half-transparent square every sample is opaque, mattes included.
    const opaqueScene = SCENE.replace(/Color \[0\.2 1 0\.2\]\nOpacity \[0\.5 0\.5 0\.5\]\n/, 'Color [0.2 1 0.2]\n');
    expect(opaqueScene).not.toEqual(SCENE);
    const frame = await frameFromText(opaqueScene);
    const fast = await render(gpu(), frame);
    const composited = await render(gpu(), frame, { pipeline: UNFUSED_COMPOSITE });
    expect(fast.rendered.stats.opaqueFastPath).toBe(true);
    expect(composited.rendered.stats.opaqueFastPath).toBe(false);
    const { rgba, width } = fast.rendered.image;
    const pixel = (x: number, y: number): number[] => Array.from(rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)).map((v) => Number(v.toFixed(4)));
    expect(pixel(10, 20)).toEqual([0, 0, 0, 0]);
    expect(pixel(30, 20)).toEqual([0, 0, 0, 0]);
    expect(pixel(20, 20)).toEqual([0.5, 0.3, 0.1, 0.5]);
    expect(pixel(50, 30)).toEqual([0.2, 1, 0.2, 1]);
    const other = composited.rendered.image.rgba;
    for (let i = 0; i < rgba.length; i++) expect(Math.abs(rgba[i]! - other[i]!)).toBeLessThan(1e-5);
  });

  it('a matte behind an opaque object changes nothing', async () => {
    const frame = await frameFromText(`Format 20 20 1
PixelSamples 2 2
PixelFilter "box" 1 1
Projection "orthographic"
WorldBegin
Surface "constant"
Color [0.3 0.6 0.9]
Polygon "P" [-2 -2 5  2 -2 5  2 2 5  -2 2 5]
Matte 1
Polygon "P" [-2 -2 6  2 -2 6  2 2 6  -2 2 6]
WorldEnd`);
    const { rendered } = await render(gpu(), frame);
    const { rgba } = rendered.image;
    for (let i = 0; i < rgba.length; i += 4) {
      expect(Array.from(rgba.subarray(i, i + 4)).map((v) => Number(v.toFixed(4)))).toEqual([0.3, 0.6, 0.9, 1]);
    }
  });
});
