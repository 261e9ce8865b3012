// ClippingPlane against RI 3.2: "All geometry on the positive side of the plane (that is, in the
// direction that the normal points) will be clipped from the scene. The point and normal parameters
// are interpreted as being in the active local coordinate system at the time that the
// RiClippingPlane statement is issued." Edges are checked where they land analytically.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

/** Alpha of every pixel of row y (or column x) of a float image. */
function alphaRow(image: { rgba: Float32Array; width: number }, y: number): number[] {
  return Array.from({ length: image.width }, (_, x) => Number(image.rgba[(y * image.width + x) * 4 + 3]!.toFixed(4)));
}

function alphaColumn(image: { rgba: Float32Array; width: number; height: number }, x: number): number[] {
  return Array.from({ length: image.height }, (_, y) => Number(image.rgba[(y * image.width + x) * 4 + 3]!.toFixed(4)));
}

// Orthographic, 10 pixels per unit over x ∈ [−2, 2], y ∈ [−1, 1]; a constant wall fills the picture.
function wallScene(planes: string): string {
  return `Format 40 20 1
PixelSamples 4 4
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -2 2 -1 1
${planes}
WorldBegin
Surface "constant"
Polygon "P" [-3 -2 5  3 -2 5  3 2 5  -3 2 5]
WorldEnd`;
}

describe('ClippingPlane', () => {
  const gpu = useGpuRuntime();

  it('clips the side the normal points to, with the edge where the plane crosses', async () => {
    // x > 0.55 is clipped: raster x = (0.55 + 2) · 10 = 25.5 halves column 25.
    const { rendered } = await render(gpu(), await frameFromText(wallScene('ClippingPlane 0.55 0 0  1 0 0')));
    const row = alphaRow(rendered.image, 10);
    expect(row.slice(0, 25)).toEqual(new Array(25).fill(1));
    expect(row[25]).toBe(0.5);
    expect(row.slice(26)).toEqual(new Array(14).fill(0));
    expect(rendered.warnings).toEqual([]);
  });

  it('takes the plane in the current transformation, and several planes all clip', async () => {
    // Rotate 90 about z maps the normal (0, −1, 0) to (1, 0, 0) and the point (0, −0.5, 0) to
    // (0.5, 0, 0): x > 0.5 is clipped (raster column 25 on). The second plane, given after the
    // rotation is undone, clips y > 0.35 (raster row (1 − 0.35) · 10 = 6.5 is half covered). The
    // rotation is part of the camera, so the wall turns with it and still fills the picture.
    const planes = `Rotate 90 0 0 1
ClippingPlane 0 -0.5 0  0 -1 0
Rotate -90 0 0 1
ClippingPlane 0 0.35 0  0 1 0`;
    const { rendered } = await render(gpu(), await frameFromText(wallScene(planes)));
    const row = alphaRow(rendered.image, 15);
    expect(row.slice(0, 25)).toEqual(new Array(25).fill(1));
    expect(row.slice(25)).toEqual(new Array(15).fill(0));
    const column = alphaColumn(rendered.image, 10);
    expect(column.slice(0, 6)).toEqual(new Array(6).fill(0));
    expect(column[6]).toBe(0.5);
    expect(column.slice(7)).toEqual(new Array(13).fill(1));
  });

  it('clips in perspective along an oblique plane', async () => {
    // A floor y = −1 seen with fov 90 over 40 × 40 pixels; the plane through (0, −1, 4) with normal
    // (0, 1, 1) clips y + z > 3, on the floor z > 4, whose image is the row y = (1 + 1/4) · 20 = 25:
    // rows 20 (the horizon) to 24 are clipped, rows 25 on are the floor in front of z = 4.
    const frame = await frameFromText(`Format 40 40 1
PixelSamples 4 4
PixelFilter "box" 1 1
Projection "perspective" "fov" 90
ClippingPlane 0 -1 4  0 1 1
WorldBegin
Surface "constant"
Polygon "P" [-100 -1 0.5  100 -1 0.5  100 -1 1000  -100 -1 1000]
WorldEnd`);
    const { rendered } = await render(gpu(), frame);
    const column = alphaColumn(rendered.image, 20);
    expect(column.slice(0, 25)).toEqual(new Array(25).fill(0));
    expect(column.slice(25)).toEqual(new Array(15).fill(1));
  });

  it('does not dice what lies wholly on the clipped side', async () => {
    const sphere = (planes: string): string => `Format 32 32 1
PixelSamples 2 2
Projection "perspective" "fov" 40
${planes}
Translate 0 0 4
WorldBegin
Sphere 1 -1 1 360
WorldEnd`;
    // Grids of 4 × 4 vertices, so that few of them straddle the plane.
    const small = { maxVertices: 16 };
    const whole = await render(gpu(), await frameFromText(sphere('')), small);
    const half = await render(gpu(), await frameFromText(sphere('ClippingPlane 0 0 0  1 0 0')), small);
    const none = await render(gpu(), await frameFromText(sphere('ClippingPlane 0 0 0  0 0 -1')), small);
    // x > 0 clipped: the grids right of the plane (but those its bound pads across) are never made.
    expect(half.rendered.stats.grids).toBeLessThan(0.7 * whole.rendered.stats.grids);
    expect(half.rendered.stats.grids).toBeGreaterThan(0.35 * whole.rendered.stats.grids);
    // n = (0, 0, −1) through the eye clips z < 0, behind the eye: none of the sphere, the same grids.
    expect(none.rendered.stats.grids).toBe(whole.rendered.stats.grids);
    // n = (0, 0, 1) clips everything in front of the eye: no grid at all, an empty picture.
    const all = await render(gpu(), await frameFromText(sphere('ClippingPlane 0 0 0  0 0 1')), small);
    expect(all.rendered.stats.grids).toBe(0);
    expect(all.rendered.image.rgba.every((v) => v === 0)).toBe(true);
  });
});
