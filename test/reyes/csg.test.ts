// CSG (RI 3.2 SolidBegin): resolved per subpixel in compositing. Checked against the geometry:
// covered areas of set operations on unit spheres seen along z (an intersection covers the lens
// where the two disks overlap; a difference the disk less the part the other sphere swallows), the
// depth of a bite's inner surface, and nested operations; then the table compositing reads.
import { describe, expect, it } from 'vitest';
import { frameSolids } from '../../src/reyes/convert/solids.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { alphaSum, frameFromText, render } from './render-helpers.ts';

const W = 160;
const HALF = 2;
const PIXELS_PER_UNIT = W / (2 * HALF);

/** A W × W orthographic frame of [-HALF, HALF]² looking down +z at the origin, box filter. */
function scene(body: string): string {
  return `Format ${W} ${W} 1\nPixelSamples 4 4\nPixelFilter "box" 1 1\nProjection "orthographic"
ScreenWindow ${-HALF} ${HALF} ${-HALF} ${HALF}\nClipping 0.1 100\nTranslate 0 0 5\nWorldBegin\nSurface "constant"\n${body}\nWorldEnd`;
}

/** A unit sphere about (x, y, z) in its own primitive solid. */
const ball = (x: number, y = 0, z = 0, r = 1) => `SolidBegin "primitive" AttributeBegin Translate ${x} ${y} ${z} Sphere ${r} ${-r} ${r} 360 AttributeEnd SolidEnd`;

/** Area of the part of a unit disk beyond a chord at distance h from its centre. */
const segment = (h: number) => Math.acos(h) - h * Math.sqrt(1 - h * h);

describe('CSG solids', () => {
  const gpu = useGpuRuntime();

  async function covered(body: string): Promise<{ area: number; depth: Float32Array; warnings: string[] }> {
    const { rendered } = await render(gpu(), await frameFromText(scene(body)));
    return { area: alphaSum(rendered.image) / PIXELS_PER_UNIT ** 2, depth: rendered.image.depth, warnings: rendered.warnings };
  }

  it('the intersection of two unit spheres a unit apart covers exactly the lens where their disks overlap (within 1%)', async () => {
    const { area, warnings } = await covered(`SolidBegin "intersection" ${ball(-0.5)} ${ball(0.5)} SolidEnd`);
    expect(warnings).toEqual([]);
    const lens = 2 * segment(0.5);
    expect(Math.abs(area / lens - 1)).toBeLessThan(0.01);
  }, 300_000);

  it('a sphere less a sphere beside it keeps the disk short of the plane halfway between them (within 1%)', async () => {
    const { area } = await covered(`SolidBegin "difference" ${ball(-0.5)} ${ball(0.5)} SolidEnd`);
    expect(Math.abs(area / (Math.PI - segment(0.5)) - 1)).toBeLessThan(0.01);
  }, 300_000);

  it('a bite taken from the front shows its inner surface at the depth the geometry says', async () => {
    // Sphere B (radius 0.8) sits 0.9 in front of unit sphere A: along a ray at distance ρ from the
    // axis, A − B shows B's far side where B reaches into A, else A's front.
    const rB = 0.8;
    const { area, depth } = await covered(`SolidBegin "difference" ${ball(0)} ${ball(0, 0, -0.9, rB)} SolidEnd`);
    expect(Math.abs(area / Math.PI - 1)).toBeLessThan(0.01);
    const expected = (rho: number): number => {
      const front = -Math.sqrt(1 - rho * rho);
      if (rho >= rB) return front;
      const biteBack = -0.9 + Math.sqrt(rB * rB - rho * rho);
      return Math.max(front, biteBack);
    };
    let bitePixels = 0;
    const row = W / 2;
    for (let x = W / 2; x < W / 2 + 0.7 * PIXELS_PER_UNIT; x++) {
      // The pixel spans [rho0, rho1] from the axis; the nearest sample in it lies between the extremes.
      const [rho0, rho1] = [(x - W / 2) / PIXELS_PER_UNIT, (x + 1 - W / 2) / PIXELS_PER_UNIT];
      const z = depth[row * W + x]! - 5;
      const [a, b] = [expected(rho0), expected(rho1)];
      expect(z).toBeGreaterThan(Math.min(a, b) - 0.01);
      expect(z).toBeLessThan(Math.max(a, b) + 0.01);
      if (expected(rho1) > -Math.sqrt(1 - rho1 * rho1) + 0.05) bitePixels++;
    }
    expect(bitePixels).toBeGreaterThan(15);
  }, 300_000);

  it('nested: an intersection holding a difference holding a union keeps the band between the two bites (within 1%)', async () => {
    const big = `SolidBegin "primitive" Sphere 3 -3 3 360 SolidEnd`;
    const { area, warnings } = await covered(`SolidBegin "intersection" ${big} SolidBegin "difference" ${ball(0)} SolidBegin "union" ${ball(1)} ${ball(-1)} SolidEnd SolidEnd SolidEnd`);
    expect(warnings).toEqual([]);
    expect(Math.abs(area / (Math.PI - 2 * segment(0.5)) - 1)).toBeLessThan(0.01);
  }, 300_000);
});

describe('the CSG table', () => {
  const solids = (body: string) => {
    const scene = parseRibSync(`WorldBegin\n${body}\nWorldEnd`, { fileName: 'c.rib' });
    const warnings: string[] = [];
    return { ...frameSolids(scene.frames[0]!, (m) => warnings.push(m)), warnings, parseWarnings: scene.warnings.map((w) => w.message) };
  };

  it('folds operations left, numbers leaves in order and gives each leaf its solid\'s nodes', () => {
    const { table, leafOf, warnings } = solids('SolidBegin "difference" SolidBegin "primitive" Sphere 1 -1 1 360 Disk 0 1 360 SolidEnd SolidBegin "primitive" Sphere 1 -1 1 360 SolidEnd SolidBegin "primitive" Sphere 1 -1 1 360 SolidEnd SolidEnd\nSphere 1 -1 1 360');
    expect(warnings).toEqual([]);
    // Leaves 0 (two primitives), 1, 2; the last sphere is outside every solid.
    expect(Array.from(leafOf)).toEqual([1, 1, 2, 3, 0]);
    // Header: 3 leaves, each with the node range [7, 12); nodes: L0 L1 − L2 −.
    expect(Array.from(table)).toEqual([3, 7, 12, 7, 12, 7, 12, 0 << 2, (1 << 2), 3, (2 << 2), 3]);
  });

  it('a primitive given directly in a set operation is a solid of its own, with a warning where it is given', () => {
    const { leafOf, parseWarnings } = solids('SolidBegin "union" Sphere 1 -1 1 360 Sphere 2 -2 2 360 SolidEnd');
    expect(Array.from(leafOf)).toEqual([1, 2]);
    expect(parseWarnings).toEqual(['a geometric primitive directly inside SolidBegin "union" is not allowed (RI 3.2); each such primitive is taken as a primitive solid of its own']);
  });

  it('an empty solid empties an intersection (its primitives are not drawn) and drops out of a union', () => {
    expect(Array.from(solids('SolidBegin "intersection" SolidBegin "primitive" Sphere 1 -1 1 360 SolidEnd SolidBegin "primitive" SolidEnd SolidEnd').leafOf)).toEqual([-1]);
    expect(Array.from(solids('SolidBegin "union" SolidBegin "primitive" Sphere 1 -1 1 360 SolidEnd SolidBegin "primitive" SolidEnd SolidEnd').leafOf)).toEqual([1]);
  });

  it('a difference of one solid is that solid, with a positioned warning', () => {
    const { leafOf, warnings } = solids('SolidBegin "difference" SolidBegin "primitive" Sphere 1 -1 1 360 SolidEnd SolidEnd');
    expect(Array.from(leafOf)).toEqual([1]);
    expect(warnings).toEqual(['c.rib:2:1: SolidBegin "difference" needs at least two solids; it is taken as its first']);
  });
});
