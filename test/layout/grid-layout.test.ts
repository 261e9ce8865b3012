// The frame uniforms' inverse matrices (gl-matrix), including the singular case; grids packed into
// shared records.
import { describe, expect, it } from 'vitest';
import { frameUniformWords, gridLayout, invert4, packGridRecords, SPACES } from '../../src/layout/grid-layout.ts';

describe('invert4', () => {
  it('inverts a column-major affine matrix', () => {
    // Scale by 2 then translate by (1, 2, 3), column-major.
    const m = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1];
    const inv = invert4(m);
    expect(inv.map((x) => +x.toFixed(6))).toEqual([0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, -0.5, -1, -1.5, 1]);
  });
  it('gives the identity for a singular matrix', () => {
    expect(invert4(new Array<number>(16).fill(0))).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(invert4([1, 2, 3, 4, 2, 4, 6, 8, 0, 0, 1, 0, 0, 0, 0, 1])).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });
  it('fills fromCurrent with the inverses of toCurrent', () => {
    const world = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1]);
    const floats = new Float32Array(frameUniformWords(1, { world }).buffer);
    const k = SPACES.indexOf('world');
    expect(Array.from(floats.slice(4 + (SPACES.length + k) * 16, 4 + (SPACES.length + k + 1) * 16))).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -4, -5, -6, 1]);
  });
});

describe('packGridRecords', () => {
  const layout = gridLayout(195);

  it('packs grids in order into records, each within its record\'s vertex slots', () => {
    // Points' disks (18 vertices): ten to a record, the eleventh starts the next; a hair piece of
    // 130 fits beside it, a second one does not and starts a third record, where a disk fits again.
    const vertices = [...new Array<number>(11).fill(18), 130, 130, 18];
    const { bases, records } = packGridRecords(layout, vertices);
    const r = layout.recordFloats;
    expect(Array.from(bases)).toEqual([0, 18, 36, 54, 72, 90, 108, 126, 144, 162, r, r + 18, 2 * r, 2 * r + 130]);
    expect(records).toBe(3);
    bases.forEach((base, g) => expect(base % r + vertices[g]!).toBeLessThanOrEqual(layout.maxVertices));
  });

  it('gives whole grids a record each, and no grids no records', () => {
    expect(Array.from(packGridRecords(layout, [195, 195]).bases)).toEqual([0, layout.recordFloats]);
    expect(packGridRecords(layout, []).records).toBe(0);
  });
});
