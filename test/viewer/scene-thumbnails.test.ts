// Every bundled scene the page lists has a thumbnail for its scene gallery (made by `npm run
// thumbnails`), or is in NO_THUMBNAIL with the reason; each thumbnail is a PNG as wide as
// THUMBNAIL_WIDTH with the aspect ratio of the picture the page shows (Format and CropWindow).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseRibFile } from '../../src/node.ts';
import { bundledScenes } from '../../src/viewer/scene-sources.ts';
import { NO_THUMBNAIL, THUMBNAIL_WIDTH, thumbnailPath } from '../../src/viewer/scene-thumbnails.ts';

const root = path.resolve(import.meta.dirname, '../..');
const publicDir = path.join(root, 'public');
// The page's own list (import.meta.glob('/scenes/**/*.rib')), as Vite gives it to the test.
const scenes = bundledScenes().map((s) => s.name);

function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]);
}

describe('scene gallery thumbnails', () => {
  it('the page lists the bundled scenes', () => {
    expect(scenes).toContain('viewer/showcase.rib');
    expect(scenes.length).toBeGreaterThan(50);
  });

  it('every bundled scene has a thumbnail or a reason in NO_THUMBNAIL', () => {
    const missing = scenes.filter((name) => {
      const file = thumbnailPath(name);
      return file !== undefined && !existsSync(path.join(publicDir, file));
    });
    expect(missing, `${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no thumbnail in public/thumbnails: run \`npm run thumbnails\` `
      + '(or, for a scene that cannot be thumbnailed, list it in NO_THUMBNAIL in src/viewer/scene-thumbnails.ts with the reason)').toEqual([]);
  });

  it('NO_THUMBNAIL names bundled scenes, each with a reason, and none of them has a thumbnail', () => {
    for (const [name, why] of Object.entries(NO_THUMBNAIL)) {
      expect(scenes, `NO_THUMBNAIL names ${name}, which is not a bundled scene`).toContain(name);
      expect(why.length, `NO_THUMBNAIL gives no reason for ${name}`).toBeGreaterThan(10);
      expect(thumbnailPath(name)).toBeUndefined();
    }
  });

  it('public/thumbnails holds only thumbnails of bundled scenes, well under 1.5 MB in all', () => {
    const wanted = new Set(scenes.map(thumbnailPath).filter((p) => p !== undefined).map((p) => path.join(publicDir, p)));
    const files = allFiles(path.join(publicDir, 'thumbnails'));
    const stray = files.filter((f) => !wanted.has(f)).map((f) => path.relative(root, f));
    expect(stray, 'thumbnails of no bundled scene (`npm run thumbnails` removes them)').toEqual([]);
    const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
    expect(bytes).toBeLessThan(1_000_000);
  });

  it('each thumbnail is a PNG with the aspect ratio of the picture the page shows', async () => {
    for (const name of scenes) {
      const file = thumbnailPath(name);
      if (!file || !existsSync(path.join(publicDir, file))) continue;
      const png = PNG.sync.read(readFileSync(path.join(publicDir, file)));
      const frame = (await parseRibFile(path.join(root, 'scenes', name))).frames[0];
      expect(frame, `${name} has no frame to show`).toBeDefined();
      const { xResolution, yResolution, cropWindow: [x0, x1, y0, y1] } = frame!.options;
      const height = (THUMBNAIL_WIDTH * yResolution * (y1 - y0)) / (xResolution * (x1 - x0));
      expect(png.width, `${file}'s width`).toBe(THUMBNAIL_WIDTH);
      expect(Math.abs(png.height - height), `${file} is ${png.width}×${png.height}, the scene's picture ${THUMBNAIL_WIDTH}×${height.toFixed(1)}`).toBeLessThanOrEqual(1);
    }
  });
});
