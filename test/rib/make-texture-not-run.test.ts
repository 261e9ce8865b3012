// Texture-making requests are recorded but not run before issue 12: each one says so at its position
// rather than being dropped silently.
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

describe('MakeTexture, MakeShadow and the environment requests', () => {
  it('give one positioned warning each, naming the file they would make', () => {
    const scene = parseRibSync([
      'MakeTexture "a.tif" "a.tex" "periodic" "clamp" "gaussian" 2 2',
      'MakeShadow "z.zfile" "z.shd"',
      'FrameBegin 1',
      '  MakeLatLongEnvironment "sky.tif" "sky.env" "gaussian" 2 2',
      '  MakeCubeFaceEnvironment "px.tif" "nx.tif" "py.tif" "ny.tif" "pz.tif" "nz.tif" "cube.env" 95 "gaussian" 2 2',
      '  WorldBegin',
      '  WorldEnd',
      'FrameEnd',
    ].join('\n'), { fileName: 'm.rib' });
    expect(scene.errors).toEqual([]);
    expect(scene.warnings.map((w) => [w.file, w.line, w.column, w.request, w.message])).toEqual([
      ['m.rib', 1, 1, 'MakeTexture', 'MakeTexture "a.tex" is not run yet: textures arrive with issue 12'],
      ['m.rib', 2, 1, 'MakeShadow', 'MakeShadow "z.shd" is not run yet: textures arrive with issue 12'],
      ['m.rib', 4, 3, 'MakeLatLongEnvironment', 'MakeLatLongEnvironment "sky.env" is not run yet: textures arrive with issue 12'],
      ['m.rib', 5, 3, 'MakeCubeFaceEnvironment', 'MakeCubeFaceEnvironment "cube.env" is not run yet: textures arrive with issue 12'],
    ]);
  });
});
