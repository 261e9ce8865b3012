// ClippingPlane is given in the current space at the call (RI 3.2) and kept in camera space.
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

const planes = (before: string) => {
  const scene = parseRibSync(`${before}\nWorldBegin\nWorldEnd\n`, { fileName: 'c.rib' });
  return { scene, planes: scene.frames[0]?.camera.clippingPlanes ?? [] };
};
const round = (v: number[]) => v.map((x) => Math.round(x * 1e9) / 1e9 + 0);

describe('ClippingPlane', () => {
  it('keeps a plane given right after Projection as written: that space is camera space', () => {
    const { scene, planes: p } = planes('Projection "perspective"\nClippingPlane 0 0 5 0 0 1');
    expect(scene.errors).toEqual([]);
    expect(p).toEqual([[0, 0, 5, 0, 0, 1]]);
  });

  it('takes the point and normal through the camera transformation given before it', () => {
    // Rotate 90 about y takes x to -z; Translate 0 0 5 then moves it to z = 4.
    const { planes: p } = planes('Projection "perspective"\nTranslate 0 0 5\nRotate 90 0 1 0\nClippingPlane 1 0 0 1 0 0');
    expect(p.map(round)).toEqual([[0, 0, 4, 0, 0, -1]]);
  });

  it('keeps which points lie on the plane and on its clipped side under a non-uniform scale', () => {
    // Local plane x + z = 1 (point (0 0 1), normal (1 0 1)) under Scale 1 1 2.
    const { planes: p } = planes('Scale 1 1 2\nClippingPlane 0 0 1 1 0 1');
    const [px, py, pz, nx, ny, nz] = p[0]!;
    const side = (q: number[]) => nx! * (q[0]! - px!) + ny! * (q[1]! - py!) + nz! * (q[2]! - pz!);
    // Local points (1 0 0) on the plane, (1 0 1) beyond it, (0 0 0) before it; camera z doubles.
    expect(side([1, 0, 0])).toBeCloseTo(0, 12);
    expect(side([1, 0, 2])).toBeGreaterThan(0);
    expect(side([0, 0, 0])).toBeLessThan(0);
  });

  it('refuses a zero normal with its position', () => {
    const { scene, planes: p } = planes('ClippingPlane 0 0 1 0 0 0');
    expect(scene.errors.map((e) => [e.line, e.column, e.request, e.message])).toEqual([[1, 1, 'ClippingPlane', 'the clipping plane normal has zero length']]);
    expect(p).toEqual([]);
  });
});
