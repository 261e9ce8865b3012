import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/rsl/diagnostics.ts';
import { checkSource } from '../../src/rsl/frontend.ts';
import { STANDARD_SHADERS } from '../../src/rsl/standard-shaders.ts';

const EXPECTED_KINDS: Record<string, string> = {
  constant: 'surface', matte: 'surface', metal: 'surface', shinymetal: 'surface', plastic: 'surface', paintedplastic: 'surface',
  ambientlight: 'light', distantlight: 'light', pointlight: 'light', spotlight: 'light', shadowdistant: 'light',
  shadowpoint: 'light', shadowspot: 'light', dented: 'displacement', bumpy: 'displacement', depthcue: 'volume', fog: 'volume',
  background: 'imager',
};

describe('standard shaders', () => {
  it('are all present', () => {
    expect(Object.keys(STANDARD_SHADERS).sort()).toEqual(Object.keys(EXPECTED_KINDS).sort());
  });
  for (const [name, source] of Object.entries(STANDARD_SHADERS)) {
    it(`${name} parses and typechecks`, () => {
      const result = checkSource(source, `${name}.sl`);
      expect(result.diagnostics.list.map(formatDiagnostic)).toEqual([]);
      expect(result.ast.shaders.map((s) => [s.name, s.shaderKind])).toEqual([[name, EXPECTED_KINDS[name]]]);
    });
  }
});
