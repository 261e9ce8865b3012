// Texture-making requests are recorded with where they run (before which frame) and the texture
// search path in force; src/texture/make-textures.ts runs them (test/texture/make-texture.test.ts).
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

describe('MakeTexture, MakeShadow and the environment requests', () => {
  it('are recorded in order with the frame they precede and the texture search path', () => {
    const scene = parseRibSync([
      'MakeTexture "a.tif" "a.tex" "periodic" "clamp" "gaussian" 2 2',
      'MakeShadow "z.zfile" "z.shd"',
      'FrameBegin 1',
      '  Option "searchpath" "texture" ["maps:@"]',
      '  MakeLatLongEnvironment "sky.tif" "sky.env" "gaussian" 2 2',
      '  WorldBegin',
      '  WorldEnd',
      'FrameEnd',
      'MakeCubeFaceEnvironment "px.tif" "nx.tif" "py.tif" "ny.tif" "pz.tif" "nz.tif" "cube.env" 95 "gaussian" 2 2',
    ].join('\n'), { fileName: 'm.rib' });
    expect(scene.errors).toEqual([]);
    expect(scene.warnings).toEqual([]);
    expect(scene.textureRequests.map((r) => [r.request, r.args['texture'], r.frameIndex, r.searchPath, r.source.line])).toEqual([
      ['MakeTexture', 'a.tex', 0, undefined, 1],
      ['MakeShadow', 'z.shd', 0, undefined, 2],
      ['MakeLatLongEnvironment', 'sky.env', 0, 'maps:@', 5],
      ['MakeCubeFaceEnvironment', 'cube.env', 1, undefined, 9],
    ]);
    expect(scene.textureRequests[0]!.args).toMatchObject({ picture: 'a.tif', swrap: 'periodic', twrap: 'clamp', filter: 'gaussian', swidth: 2, twidth: 2 });
  });
});
