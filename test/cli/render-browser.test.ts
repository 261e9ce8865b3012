// `reyes render --browser` (issue 20): the page in headless Chromium renders a scene and saves the
// picture; `reyes compare` then finds it equal to the command line's render of the same scene, as a
// user's CI would check. The scene is a sphere: the two drivers (SwiftShader in Chromium, lavapipe
// for Node) agree on quadrics to within 1 since the dicer computes its own sin and cos
// (shaders/kernels/trig.wgsl; see test/browser/golden-images.test.ts).
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../../src/image/png.ts';
import { reyes } from './run-reyes.ts';

const SCENE = 'scenes/features/sphere-default.rib';

describe('reyes render --browser', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'reyes-browser-'));

  it('renders a scene in headless Chromium as the command line does', async () => {
    const inBrowser = path.join(dir, 'browser.png');
    const inNode = path.join(dir, 'node.png');
    const [browser, node] = await Promise.all([
      reyes(['render', '--browser', SCENE, '-o', inBrowser]),
      reyes(['render', SCENE, '-o', inNode, '--quiet']),
    ]);
    expect(browser.code, browser.stderr).toBe(0);
    expect(browser.stdout).toBe(`${inBrowser}\n`);
    expect(node.code, node.stderr).toBe(0);
    const picture = decodePng(await readFile(inBrowser));
    expect([picture.width, picture.height]).toEqual([80, 60]);
    const compared = await reyes(['compare', inBrowser, inNode, '--tolerance', '2']);
    expect(compared.code, compared.stdout + compared.stderr).toBe(0);
    const figures = /^max (\d+) +mean ([\d.]+) +over (\d+) of (\d+) channels/.exec(compared.stdout);
    expect(figures, compared.stdout).not.toBeNull();
    const [, max, mean, over, channels] = figures!.map(Number);
    expect(channels).toBe(80 * 60 * 4);
    expect(max).toBeLessThanOrEqual(2);
    expect(mean).toBeLessThan(0.01);
    expect(over).toBe(0);
  });

  it('names the browser it looked for when there is none', async () => {
    const result = await reyes(['render', '--browser', SCENE, '-o', path.join(dir, 'none.png')], { REYES_CHROMIUM: '/nonexistent/chrome' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no Chromium found (looked at /nonexistent/chrome)');
    expect(result.stderr).toContain('REYES_CHROMIUM=');
  });

  it('refuses options the page cannot honour instead of ignoring them', async () => {
    const result = await reyes(['render', '--browser', SCENE, '-o', path.join(dir, 'res.png'), '--res', '20x10', '--samples', '2']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('--res, --samples cannot be used with --browser');
    const format = await reyes(['render', '--browser', SCENE, '-o', path.join(dir, 'out.jpg')]);
    expect(format.code).toBe(4);
    expect(format.stderr).toContain('the page saves .png, .tif (16-bit) or .exr');
  });
});
