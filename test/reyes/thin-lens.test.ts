// DepthOfField's lens from its three numbers (RI 3.2: lens radius focallength / (2 fstop)), the
// cases that render through a pinhole (depth-of-field.test.ts checks the blur itself).
import { describe, expect, it } from 'vitest';
import { thinLens } from '../../src/reyes/motion/thin-lens.ts';

describe('thin lens', () => {
  it('has radius focallength / (2 fstop) and the focal distance', () => {
    expect(thinLens({ fstop: 2, focalLength: 1, focalDistance: 6 }, true, () => {})).toEqual({ radius: 0.25, focalDistance: 6 });
  });

  it('is a pinhole without DepthOfField, with an infinite f-stop, and (with a warning) for orthographic cameras or a bad focal distance', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(thinLens(null, true, warn)).toBeNull();
    expect(thinLens({ fstop: 1e38, focalLength: 1, focalDistance: 6 }, true, warn)).toBeNull();
    expect(warnings).toEqual([]);
    expect(thinLens({ fstop: 2, focalLength: 1, focalDistance: 6 }, false, warn)).toBeNull();
    expect(thinLens({ fstop: 2, focalLength: 1, focalDistance: 0 }, true, warn)).toBeNull();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/orthographic/);
    expect(warnings[1]).toMatch(/focal distance 0 is not positive/);
  });
});
