// Image tests: every scene in scenes/features/ (one feature each) against its golden PNG in
// test/reyes/golden/, and the viewer scenes VIEWER_SCENES names against theirs in
// test/reyes/golden/viewer/. Tolerance: channels may differ by at most 2/255, and at most 0.5% of the
// channels may differ at all (driver float differences on micropolygon edges). Jitter is a hash of
// subpixel coordinates, so the same driver reproduces a golden exactly. Shading is compiled RSL
// (the shade-* scenes exercise shaders and lights). UPDATE_GOLDEN=1 writes
// the goldens (inspect each before committing).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { decodePng, encodePng } from '../../src/image/png.ts';
import { nodeRslShading } from '../../src/reyes/shading/node-shaders.ts';
import { parseRib } from '../../src/rib/index.ts';
import { createNodeResolver } from '../../src/rib/resolver-node.ts';
import { runTextureRequests, texturesBetween } from '../../src/texture/make-textures.ts';
import { nodeTextureStorage } from '../../src/texture/node-texture-storage.ts';
import { TextureRegistry } from '../../src/texture/texture-registry.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { coverage, loadFrame, render, ROOT } from './render-helpers.ts';

const SCENES = path.join(ROOT, 'scenes/features');
const VIEWER = path.join(ROOT, 'scenes/viewer');
/** Viewer scenes with a golden image: still-life uses a texture, an "auto" shadow map and a
 * reflection map together, as a user finds them in the page. */
const VIEWER_SCENES = ['still-life.rib'];
const GOLDEN = path.join(ROOT, 'test/reyes/golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const MAX_DIFFERENCE = 2;
const MAX_DIFFERING_SHARE = 0.005;

describe('feature scenes and the viewer scenes with maps match their golden images', () => {
  const gpu = useGpuRuntime();
  // Compiled RSL shading, with each folder's shaders/ reachable through its scenes' search path;
  // texture files the scenes make (Make* before their first frame) go to a temporary folder.
  const folders = new Map<string, { textureStorage: ReturnType<typeof nodeTextureStorage>; textures: TextureRegistry; shading: ReturnType<typeof nodeRslShading>['provide'] }>();
  const folder = (dir: string) => {
    if (!folders.has(dir)) {
      const textureStorage = nodeTextureStorage(dir, mkdtempSync(path.join(os.tmpdir(), 'reyes-golden-textures-')));
      const textures = new TextureRegistry(textureStorage);
      folders.set(dir, { textureStorage, textures, shading: nodeRslShading({ sceneDir: dir, textures }).provide });
    }
    return folders.get(dir)!;
  };
  const scenes = readdirSync(SCENES).filter((f) => f.endsWith('.rib')).sort();
  const cases = [
    ...scenes.map((file) => ({ dir: SCENES, file, name: file.replace(/\.rib$/, '') })),
    ...VIEWER_SCENES.map((file) => ({ dir: VIEWER, file, name: `viewer/${file.replace(/\.rib$/, '')}` })),
  ];

  it('has at least 20 feature scenes', () => {
    expect(scenes.length).toBeGreaterThanOrEqual(20);
  });

  for (const { dir, file, name } of cases) {
    it(name, async () => {
      const { textureStorage, textures, shading } = folder(dir);
      const frame = await loadFrame(path.join(dir, file));
      const scene = await parseRib(readFileSync(path.join(dir, file)), { fileName: file, resolver: createNodeResolver() });
      expect(runTextureRequests(texturesBetween(scene, 0, 0), textureStorage).warnings).toEqual([]);
      textures.forget();
      const { image, rendered } = await render(gpu(), frame, { shading });
      expect(coverage(image)).toBeGreaterThan(0.02);
      // Every shader a scene names is found and compiles.
      expect(rendered.warnings.filter((w) => /not found|does not compile|default surface|skipped|left out/.test(w))).toEqual([]);
      const golden = path.join(GOLDEN, `${name}.png`);
      if (UPDATE || !existsSync(golden)) {
        if (!UPDATE) throw new Error(`no golden image ${golden}; run with UPDATE_GOLDEN=1 and inspect it`);
        mkdirSync(path.dirname(golden), { recursive: true });
        writeFileSync(golden, encodePng(image));
        return;
      }
      const difference = compareImages(image, decodePng(readFileSync(golden)), MAX_DIFFERENCE);
      expect(difference.max, `${name}: ${JSON.stringify(difference)} ${rendered.warnings.join('; ')}`).toBeLessThanOrEqual(MAX_DIFFERENCE + 6);
      expect(difference.over / image.rgba.length).toBeLessThanOrEqual(MAX_DIFFERING_SHARE);
    });
  }
});
