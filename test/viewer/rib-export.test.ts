// The page's RIB writer (src/viewer/rib-export.ts), without a browser: every bundled scene written
// out and read back gives the same frame (options, camera, lights, primitives with their
// attributes, coordinate systems), apart from where each request stands in the file and the light
// handles, which the writer numbers itself; and what it cannot write is said in the file's head.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';
import { exportRib } from '../../src/viewer/rib-export.ts';

const SCENE_DIRS = ['scenes/viewer', 'scenes/features'];

/** The frame without source positions and light handles. */
function comparable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'source' || key === 'handle' ? undefined : v)));
}

describe('RIB export', () => {
  const scenes = SCENE_DIRS.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.rib')).map((f) => join(dir, f)));

  it.each(scenes)('%s reads back as the same frame', (path) => {
    const scene = parseRibSync(readFileSync(path, 'utf8'), { fileName: path });
    const frame = scene.frames[0]!;
    const { text } = exportRib(frame, path);
    const back = parseRibSync(text, { fileName: 'exported.rib' });
    expect(back.errors).toEqual([]);
    // No warnings beyond the scene's own (a request the renderer does not honour is written back).
    expect(back.warnings.filter((w) => !scene.warnings.some((o) => o.message === w.message)).map((w) => w.message)).toEqual([]);
    const again = back.frames[0]!;
    for (const key of ['options', 'camera', 'lights', 'primitives', 'coordinateSystems', 'textureRequests'] as const) {
      expect(comparable(again[key]), key).toEqual(comparable(frame[key]));
    }
  });

  it('lists what RIB written from the frame leaves out', () => {
    const frame = parseRibSync([
      'WorldBegin', 'AttributeBegin', 'AreaLightSource "arealight" 1', 'Sphere 1 -1 1 360', 'AttributeEnd',
      'SolidBegin "union"', 'Sphere 1 -1 1 360', 'SolidEnd', 'WorldEnd', '',
    ].join('\n')).frames[0]!;
    const { text, notExported } = exportRib(frame, 'area.rib');
    expect(notExported).toEqual([
      '1 CSG solid block(s): their primitives are written on their own',
      '1 area light(s): written as ordinary light sources, without their geometry',
    ]);
    expect(text).toContain('# Not exported: 1 area light(s)');
  });
});
