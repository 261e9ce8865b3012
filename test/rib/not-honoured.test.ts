// Nothing a scene asks for is dropped silently: requests the renderer does not act on yet get one
// positioned warning per scene, at their first use, saying what renders instead.
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

const parse = (src: string) => parseRibSync(src, { fileName: 'n.rib' });
const brief = (d: { line: number; column: number; request: string | null; message: string }) => [d.line, d.column, d.request];

describe('requests parsed but not honoured yet', () => {
  it('warns once per scene per kind, at the first use, across frames', () => {
    const scene = parse([
      'FrameBegin 1',
      'DepthOfField 2.8 0.05 10',
      'WorldBegin',
      '  Interior "water"',
      '  Exterior "air"',
      '  Deformation "bend" "float angle" [30]',
      '  MotionBegin [0 1] Translate 0 0 0 Translate 1 0 0 MotionEnd',
      '  Interior "water" Exterior "air" Deformation "bend"',
      'WorldEnd',
      'FrameEnd',
      'FrameBegin 2',
      'DepthOfField 4 0.05 10',
      'WorldBegin',
      '  Interior "glass" Exterior "fog" Deformation "twist"',
      '  MotionBegin [0 1] Sphere 1 -1 1 360 Sphere 2 -2 2 360 MotionEnd',
      'WorldEnd',
      'FrameEnd',
    ].join('\n'));
    expect(scene.errors).toEqual([]);
    expect(scene.frames).toHaveLength(2);
    expect(scene.warnings.map(brief)).toEqual([
      [4, 3, 'Interior'], [5, 3, 'Exterior'], [6, 3, 'Deformation'],
    ]);
    const text = Object.fromEntries(scene.warnings.map((w) => [w.request, w.message]));
    expect(text.Interior).toMatch(/not honoured yet: .*surfaces render without them/);
    expect(text.Deformation).toMatch(/not honoured yet: primitives render undeformed/);
    for (const w of scene.warnings) expect(w.message).toMatch(/\(reported once per scene\)$/);
  });

  it('records the Deformation shader on the primitives it applies to', () => {
    const scene = parse('WorldBegin\nAttributeBegin\nDeformation "bend" "float angle" [30]\nSphere 1 -1 1 360\nAttributeEnd\nSphere 1 -1 1 360\nWorldEnd');
    expect(scene.errors).toEqual([]);
    const [bent, plain] = scene.frames[0]!.primitives;
    expect(bent!.attributes.deformation).toMatchObject({ name: 'bend', params: [{ name: 'angle', type: 'float', values: [30] }] });
    expect(plain!.attributes.deformation).toBeNull();
  });

  it('says nothing where the renderer already gives what was asked', () => {
    // A union (or single primitive) solid renders as a union; "null" shaders and a DepthOfField
    // without arguments or with an infinite f-stop ask for nothing; one motion time is no motion.
    const scene = parse([
      'DepthOfField',
      'DepthOfField 1e38 0.05 10',
      'Shutter 0 1',
      'WorldBegin',
      'Interior "null" Exterior "null" Deformation "null"',
      'SolidBegin "union" SolidBegin "primitive" Sphere 1 -1 1 360 SolidEnd SolidEnd',
      'MotionBegin [0] Translate 1 0 0 MotionEnd',
      'Sphere 1 -1 1 360',
      'WorldEnd',
    ].join('\n'));
    expect(scene.errors).toEqual([]);
    expect(scene.warnings).toEqual([]);
    expect(scene.frames[0]!.primitives).toHaveLength(2);
  });
});
