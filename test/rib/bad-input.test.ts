import { describe, expect, it } from 'vitest';
import { formatDiagnostic, parseRibSync } from '../../src/rib/index.ts';
import type { Diagnostic } from '../../src/rib/index.ts';
import { BinaryRibWriter } from './binary-rib.ts';

const brief = (d: Diagnostic) => [d.line, d.column, d.request, d.message];

/** Parses a world with a bad line in it, followed by a good sphere that must still be read. */
function withBadLine(line: string) {
  const scene = parseRibSync(`WorldBegin\n${line}\nSphere 1 -1 1 360\nWorldEnd\n`, { fileName: 'bad.rib' });
  expect(scene.frames).toHaveLength(1);
  expect(scene.frames[0]!.primitives.at(-1)!.geometry.type).toBe('Sphere');
  return scene;
}

describe('bad input gives positioned diagnostics and parsing goes on', () => {
  it.each([
    ['unterminated string', 'Surface "plastic', [2, 9, 'Surface', 'unterminated string']],
    ['unterminated array', 'Color [1 0 0', [2, 7, 'Color', "unterminated array: '[' without ']' before request name Sphere"]],
    ['bad number', 'Translate 1 2x 3', [2, 13, 'Translate', "bad number '2x'"]],
    ['too few arguments', 'Cylinder 1 -1', [2, 1, 'Cylinder', 'expected 4 arguments (radius zmin zmax thetamax), got 2']],
    ['wrong argument type', 'Sides "two"', [2, 7, 'Sides', 'argument \'sides\' must be an integer, found string "two"']],
    ['non-integer for an integer', 'Sides 1.5', [2, 7, 'Sides', "argument 'sides' must be an integer, found 1.5"]],
    ['bad value', 'Sides 3', [2, 1, 'Sides', 'sides must be 1 or 2, got 3']],
    ['parameter without a value', 'Surface "plastic" "Kd"', [2, 19, 'Surface', "parameter 'Kd' has no value (found request name Sphere)"]],
    ['mixed array', 'Surface "plastic" "Kd" [1 "a"]', [2, 24, 'Surface', 'array mixes numbers and strings']],
    ['nested array', 'Color [1 [0] 0]', [2, 10, 'Color', 'arrays cannot be nested']],
    ['undeclared primitive variable', 'Disk 0 1 360 "heat" [1]', [2, 14, 'Disk', 'parameter "heat" is not declared (use Declare or an inline declaration such as "varying float heat")']],
    ['bad inline declaration', 'Disk 0 1 360 "varyin float heat" [1]', [2, 14, 'Disk', "bad inline declaration 'varyin float heat': unknown storage class 'varyin' in 'varyin float'"]],
    ['string where numbers are declared', 'Surface "plastic" "Kd" "high"', [2, 19, 'Surface', 'parameter "Kd" is declared uniform float but has strings']],
    ['missing positions', 'Polygon "Cs" [1 0 0]', [2, 1, 'Polygon', 'Polygon needs positions: a "P" or "Pw" parameter']],
    ['option inside the world', 'Format 10 10 1', [2, 1, 'Format', 'not valid inside WorldBegin/WorldEnd']],
    ['unknown light', 'Illuminate 7 1', [2, 1, 'Illuminate', 'no light source has the handle 7']],
    ['unknown object', 'ObjectInstance "ghost"', [2, 1, 'ObjectInstance', 'no object was defined with the handle ghost']],
    ['unbalanced end', 'AttributeEnd', [2, 1, 'AttributeEnd', 'AttributeEnd without a matching AttributeBegin; the innermost open block is WorldBegin at line 1']],
    ['index out of range', 'PointsPolygons [3] [0 1 5] "P" [0 0 0 1 0 0 0 1 0]', [2, 1, 'PointsPolygons', 'vertex index 5 is out of range: P has 3 points']],
    ['zero rotation axis', 'Rotate 30 0 0 0', [2, 1, 'Rotate', 'the rotation axis has zero length']],
  ])('%s', (_, line, expected) => {
    const scene = withBadLine(line);
    expect(scene.errors.map(brief)).toEqual([expected]);
    expect(scene.errors[0]!.file).toBe('bad.rib');
  });

  it('stray values after a complete request are reported and dropped; the request is kept', () => {
    const scene = withBadLine('Translate 1 2 3 4 5\nAttributeBegin 42\nAttributeEnd');
    expect(scene.errors.map(brief)).toEqual([
      [2, 17, 'Translate', 'too many arguments: unexpected number 4; ignored up to the next request'],
      [3, 16, 'AttributeBegin', 'too many arguments: unexpected number 42; ignored up to the next request'],
    ]);
    expect(scene.frames[0]!.primitives[0]!.objectToWorld.slice(12, 15)).toEqual([1, 2, 3]);
  });

  it('values before any request are reported', () => {
    const scene = parseRibSync('42 "x"\nWorldBegin\nWorldEnd\n', { fileName: 'v.rib' });
    expect(scene.errors.map(brief)).toEqual([[1, 1, null, 'expected a request name, found number 42']]);
    expect(scene.frames).toHaveLength(1);
  });

  it('an unknown request is a warning naming it, and its arguments are skipped', () => {
    const scene = withBadLine('Frobnicate 1 "two" [3] -x');
    expect(scene.errors).toEqual([]);
    expect(scene.warnings.map(brief)).toEqual([[2, 1, 'Frobnicate', "unknown request 'Frobnicate'; skipped with its arguments"]]);
  });

  it('geometry outside the world block is an error', () => {
    const scene = parseRibSync('Sphere 1 -1 1 360\nWorldBegin\nWorldEnd\n', { fileName: 'g.rib' });
    expect(scene.errors.map(brief)).toEqual([[1, 1, 'Sphere', 'only valid inside WorldBegin/WorldEnd']]);
  });

  it('unclosed blocks are reported at their Begin and the world is still delivered', () => {
    const scene = parseRibSync('WorldBegin\nAttributeBegin\nSphere 1 -1 1 360\n', { fileName: 'open.rib' });
    expect(scene.errors.map(brief)).toEqual([
      [2, 1, 'AttributeBegin', 'AttributeBegin is never closed (end of input at line 4)'],
      [1, 1, 'WorldBegin', 'WorldBegin is never closed (end of input at line 4)'],
    ]);
    expect(scene.frames[0]!.primitives).toHaveLength(1);
  });

  it('a mismatched End is skipped and the right one still closes its block', () => {
    const scene = parseRibSync('WorldBegin\nAttributeBegin\nTransformEnd\nColor [1 0 0]\nAttributeEnd\nSphere 1 -1 1 360\nWorldEnd\n');
    expect(scene.errors.map(brief)).toEqual([[3, 1, 'TransformEnd', 'TransformEnd without a matching TransformBegin; the innermost open block is AttributeBegin at line 2']]);
    expect(scene.frames[0]!.primitives[0]!.attributes.color).toEqual([1, 1, 1]);
  });

  it('a motion block with the wrong number of samples is reported', () => {
    const scene = withBadLine('MotionBegin [0 1]\nTranslate 1 0 0\nMotionEnd');
    expect(scene.errors.map(brief)).toEqual([[2, 1, 'MotionEnd', 'MotionBegin gives 2 times but the block holds 1 requests']]);
  });

  it('a truncated binary file reports and ends cleanly', () => {
    const bytes = new BinaryRibWriter().ascii('WorldBegin\nSphere 1 -1 1 360\nTranslate ').raw(0xa4, 0x3f, 0x80).toBytes();
    const scene = parseRibSync(bytes, { fileName: 'cut.rib' });
    expect(scene.errors.map(brief)).toEqual([
      [3, 11, 'Translate', 'truncated binary RIB'],
      [1, 1, 'WorldBegin', 'WorldBegin is never closed (end of input at line 3)'],
    ]);
    expect(scene.frames[0]!.primitives).toHaveLength(1);
  });

  it('formats a diagnostic as file:line:column: severity: request: message', () => {
    const scene = withBadLine('Sides 3');
    expect(formatDiagnostic(scene.errors[0]!)).toBe('bad.rib:2:1: error: Sides: sides must be 1 or 2, got 3');
  });

  it('keeps the number of diagnostics bounded on garbage', () => {
    const garbage = 'Sides 3\n'.repeat(5000);
    const scene = parseRibSync(`WorldBegin\n${garbage}\nWorldEnd\n`, { maxDiagnostics: 50 });
    expect(scene.errors).toHaveLength(50);
    expect(scene.frames).toHaveLength(1);
  });
});
