// The page runs a scene's Make* requests in memory on the files the user opened or that are fetched
// beside the scene, and hands the maps to the shading provider (src/viewer/scene-loader.ts).
import { encode as encodePng } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { createMemoryResolver } from '../../src/rib/resolver.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { fetchPictures } from '../../src/texture/fetch-pictures.ts';
import { texturesBetween } from '../../src/texture/make-textures.ts';
import { loadSceneFromFiles } from '../../src/viewer/scene-loader.ts';

const RIB = 'Option "searchpath" "texture" ["maps:@"]\nMakeTexture "a.png" "a.tex" "clamp" "clamp" "box" 1 1\nMakeTexture "gone.png" "b.tex" "clamp" "clamp" "box" 1 1\nWorldBegin\nWorldEnd\n';
const PNG = encodePng({ width: 2, height: 1, data: Uint8Array.of(255, 0, 0, 0, 0, 255), channels: 3, depth: 8 });

describe('texture files in the page', () => {
  it('opened files: the Make* requests run in memory and the maps reach the provider', async () => {
    const files = new Map([['scene/scene.rib', new TextEncoder().encode(RIB)], ['scene/maps/a.png', PNG]]);
    const loaded = await loadSceneFromFiles('scene/scene.rib', files.get('scene/scene.rib')!, files);
    expect(loaded.scene.warnings.map((w) => [w.line, w.message])).toEqual([
      [3, 'picture "gone.png" not found (looked in "maps/gone.png", "gone.png"); "b.tex" is not made'],
    ]);
    const warnings: string[] = [];
    const slot = loaded.textures.slot('a.tex', undefined, (m) => warnings.push(m));
    expect(warnings).toEqual([]);
    expect(Array.from(loaded.textures.map(slot)!.levels[0]!.data)).toEqual([1, 0, 0, 0, 0, 1]);
  });

  it('fetched scenes: the pictures are read through the resolver at each search path place', async () => {
    const scene = parseRibSync(RIB);
    const fetched = await fetchPictures(texturesBetween(scene, 0, 0), createMemoryResolver({ 'maps/a.png': PNG }));
    expect([...fetched.keys()]).toEqual(['maps/a.png']);
  });
});
