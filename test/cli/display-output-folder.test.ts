// A RIB from anywhere must not write where it likes: Display names land in the output folder
// (--output-dir, default the scene's folder); absolute names, '..' escapes and symbolic links
// leading out are refused at the Display's position unless --allow-any-output, and even then an
// existing file outside the folder is left alone.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeDisplayFile } from '../../src/image/display-files.ts';
import { reyes } from './run-reyes.ts';

describe('placeDisplayFile', () => {
  it('places relative names inside the output folder and flags absolute names and escapes', () => {
    expect(placeDisplayFile('out.tif', '/scenes/a')).toEqual({ path: '/scenes/a/out.tif', escapes: false });
    expect(placeDisplayFile('sub/./out.tif', '/scenes/a')).toEqual({ path: '/scenes/a/sub/out.tif', escapes: false });
    expect(placeDisplayFile('sub/../out.tif', '/scenes/a')).toEqual({ path: '/scenes/a/out.tif', escapes: false });
    expect(placeDisplayFile('../out.tif', '/scenes/a').escapes).toBe(true);
    expect(placeDisplayFile('sub/../../../etc/x', '/scenes/a').escapes).toBe(true);
    expect(placeDisplayFile('..', '/scenes/a').escapes).toBe(true);
    expect(placeDisplayFile('/tmp/x.png', '/scenes/a').escapes).toBe(true);
    // Absolute even when it lands inside: a scene names files relative to its output folder.
    expect(placeDisplayFile('/scenes/a/x.png', '/scenes/a').escapes).toBe(true);
    expect(placeDisplayFile('..\\..\\x.png', '/scenes/a').escapes).toBe(true);
    expect(placeDisplayFile('C:\\x.png', '/scenes/a').escapes).toBe(true);
  });
});

/** A one-frame 4×3 scene whose Displays are `displays` (one per line, from line 3). */
function scene(dir: string, displays: string[]): string {
  const rib = path.join(dir, 'scene.rib');
  writeFileSync(rib, `Format 4 3 1\nPixelSamples 1 1\n${displays.join('\n')}\nWorldBegin\nWorldEnd\n`);
  return rib;
}

describe('reyes render: where Displays may write', () => {
  it('refuses absolute names, .. escapes and symbolic links out, at the Display, and writes the rest (exit 5)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'reyes-out-'));
    const dir = path.join(root, 'scene');
    const outside = path.join(root, 'outside');
    mkdirSync(dir);
    mkdirSync(outside);
    symlinkSync(outside, path.join(dir, 'link'));
    symlinkSync(path.join(outside, 'target.tif'), path.join(dir, 'alias.tif'));
    const absolute = path.join(outside, 'absolute.tif');
    const rib = scene(dir, [
      'Display "inside.tif" "file" "rgba"',
      `Display "+${absolute}" "file" "rgba"`,
      'Display "+../escape.tif" "file" "rgba"',
      'Display "+link/through.tif" "file" "rgba"',
      'Display "+alias.tif" "file" "rgba"',
    ]);
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(5);
    expect(existsSync(path.join(dir, 'inside.tif'))).toBe(true);
    expect(result.stdout).toContain(`wrote ${path.join(dir, 'inside.tif')}`);
    expect(result.stderr).toContain(`${rib}:4:1: error: Display "${absolute}": ${absolute} is outside the output folder ${dir} (pass --allow-any-output to allow it); not written`);
    expect(result.stderr).toContain(`${rib}:5:1: error: Display "../escape.tif": ../escape.tif is outside the output folder ${dir}`);
    expect(result.stderr).toContain(`${rib}:6:1: error: Display "link/through.tif": ${path.join(dir, 'link')} leads outside the output folder ${dir} through a symbolic link; not written`);
    expect(result.stderr).toContain(`${rib}:7:1: error: Display "alias.tif": ${path.join(dir, 'alias.tif')} is a symbolic link`);
    expect(existsSync(absolute)).toBe(false);
    expect(existsSync(path.join(root, 'escape.tif'))).toBe(false);
    expect(existsSync(path.join(outside, 'through.tif'))).toBe(false);
    expect(existsSync(path.join(outside, 'target.tif'))).toBe(false);
  });

  it('--output-dir places the names there; --allow-any-output writes new files outside but overwrites none', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'reyes-out-'));
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    const existing = path.join(outside, 'existing.tif');
    writeFileSync(existing, 'the user\'s file');
    const fresh = path.join(outside, 'fresh.tif');
    const rib = scene(root, ['Display "here.tif" "file" "rgba"', `Display "+${fresh}" "file" "rgba"`, `Display "+${existing}" "file" "rgba"`]);
    const out = path.join(root, 'renders');
    const result = await reyes(['render', rib, '--output-dir', out, '--allow-any-output']);
    expect(result.code, result.stderr).toBe(5);
    expect(existsSync(path.join(out, 'here.tif'))).toBe(true);
    expect(existsSync(path.join(root, 'here.tif'))).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(readFileSync(existing, 'utf8')).toBe('the user\'s file');
    expect(result.stderr).toContain(`${rib}:5:1: error: Display "${existing}": ${existing} exists outside the output folder ${out}; only files inside it are overwritten; not written`);
  });
});
