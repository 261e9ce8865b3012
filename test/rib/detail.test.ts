// Level of detail as the scene records it for the renderer: the detail box with the space it was
// given in, the ranges per primitive (array forms too), and RelativeDetail.
import { mat4, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

const parse = (src: string) => parseRibSync(src, { fileName: 'd.rib' });

describe('Detail, DetailRange, RelativeDetail', () => {
  it('records per primitive the detail box, the transformation it was given under, and each range', () => {
    const scene = parse(`RelativeDetail [0.5]
      WorldBegin
      AttributeBegin
        Translate 0 0 10
        Detail [-1 1 -1 1 -1 1]
        Scale 2 2 2
        AttributeBegin DetailRange [0 0 20 30] Sphere 1 -1 1 360 AttributeEnd
        AttributeBegin DetailRange 20 30 1e38 1e38 Sphere 0.5 -0.5 0.5 360 AttributeEnd
      AttributeEnd
      Sphere 1 -1 1 360
      WorldEnd`);
    expect(scene.errors).toEqual([]);
    const frame = scene.frames[0]!;
    expect(frame.options.relativeDetail).toBe(0.5);
    const [low, high, plain] = frame.primitives.map((p) => p.attributes);
    expect(low!.detail).toEqual([-1, 1, -1, 1, -1, 1]);
    expect(low!.detailRange).toEqual([0, 0, 20, 30]);
    expect(high!.detailRange).toEqual([20, 30, 1e38, 1e38]);
    // The box lives in the space of the Detail call (before Scale): its corner (1 1 1) is at (1 1 11).
    const corner = vec3.transformMat4(vec3.create(), [1, 1, 1], low!.detailToWorld as unknown as mat4);
    expect(Array.from(corner)).toEqual([1, 1, 11]);
    expect(high!.detailToWorld).toEqual(low!.detailToWorld);
    // The primitive itself is scaled: its own transformation differs from the detail's.
    expect(frame.primitives[0]!.objectToWorld[0]).toBe(2);
    expect([plain!.detail, plain!.detailToWorld, plain!.detailRange]).toEqual([null, null, [0, 0, 1e38, 1e38]]);
  });

  it('refuses a DetailRange that is not in order, at its position', () => {
    const scene = parse('WorldBegin\nDetailRange [0 30 20 40]\nSphere 1 -1 1 360\nWorldEnd');
    expect(scene.errors.map((e) => [e.line, e.column, e.request, e.message])).toEqual([
      [2, 1, 'DetailRange', 'need minvisible ≤ lowertransition ≤ uppertransition ≤ maxvisible, got 0 30 20 40'],
    ]);
    expect(scene.frames[0]!.primitives[0]!.attributes.detailRange).toEqual([0, 0, 1e38, 1e38]);
  });
});
