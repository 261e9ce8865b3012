import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseCommand } from '../../src/cli/parse.ts';
import { reyes } from './run-reyes.ts';

const scratch = mkdtempSync(join(tmpdir(), 'reyes-parse-'));

describe('reyes parse', () => {
  it('summarises a real scene: format, primitives by type, lights and shaders', async () => {
    const { code, stdout } = await reyes(['parse', 'scenes/ribtools/SpheresSpecular.rib']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/SpheresSpecular\.rib: 1 frame\(s\), 0 error\(s\)/);
    expect(stdout).toMatch(/primitives +Sphere \d+/);
    expect(stdout).toMatch(/shaders +.*plastic/);
  });

  it('prints JSON with --json', async () => {
    const { code, stdout } = await reyes(['parse', 'scenes/ribtools/SimpleMug.rib', '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.frames[0].format).toEqual([300, 400]);
    expect(summary.frames[0].primitives).toEqual({ Disk: 2, Cylinder: 2, Torus: 3 });
    expect(summary.errors).toEqual([]);
  });

  it('lists every error (stderr, exit status 1) and warning with file, line and column, and still reads the rest', async () => {
    const file = join(scratch, 'broken.rib');
    writeFileSync(file, 'WorldBegin\nSphere 1 -1 1\nFooBar 1\nSphere 1 -1 1 360\nWorldEnd\n');
    const { code, stdout, stderr } = await reyes(['parse', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}:2:1: error: Sphere: expected 4 arguments`);
    expect(stdout).not.toContain('error: Sphere');
    expect(stdout).toContain(`${file}:3:1: warning: FooBar: unknown request 'FooBar'`);
    expect(stdout).toMatch(/primitives +Sphere 1/);
    const json = await reyes(['parse', file, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).errors).toHaveLength(1);
  });

  it('exits 0 when a scene has warnings and no errors', async () => {
    const file = join(scratch, 'warned.rib');
    writeFileSync(file, 'WorldBegin\nFooBar 1\nSphere 1 -1 1 360\nWorldEnd\n');
    const { code, stdout, stderr } = await reyes(['parse', file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`${file}:2:1: warning: FooBar: unknown request 'FooBar'`);
    expect(stderr).not.toContain('error');
  });

  it('exits 1 for an archive fragment with an error, errors on stderr', async () => {
    const file = join(scratch, 'broken-fragment.rib');
    writeFileSync(file, 'Sphere 1 -1 1 360\nSphere 1 -1\n');
    const { code, stdout, stderr } = await reyes(['parse', file]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/archive fragment .*1 error\(s\)/);
    expect(stdout).toMatch(/primitives +Sphere 1\n/);
    expect(stderr).toContain(`${file}:2:1: error: Sphere: expected 4 arguments`);
  });

  it('fails with a message for a missing file or one that is not RIB', async () => {
    const missing = await reyes(['parse', join(scratch, 'missing.rib')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*missing\.rib: ENOENT/);
    const file = join(scratch, 'not-rib.rib');
    writeFileSync(file, '<html><body>404</body></html>\n');
    const garbage = await reyes(['parse', file]);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toMatch(/no world block and is not a readable archive fragment/);
  });

  it('reports an archive fragment (geometry outside any world) with its contents, not errors', async () => {
    const file = join(scratch, 'fragment.rib');
    writeFileSync(file, [
      'AttributeBegin', '  Surface "plastic"', '  Translate 1 0 0', '  Sphere 1 -1 1 360', '  Sphere 2 -2 2 360', 'AttributeEnd',
      'LightSource "pointlight" 1', 'PointsPolygons [3] [0 1 2] "P" [0 0 0 1 0 0 0 1 0]', '',
    ].join('\n'));
    const { code, stdout } = await reyes(['parse', file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`${file}: archive fragment (no WorldBegin: read as ReadArchive would read it), 0 error(s), 0 warning(s)`);
    expect(stdout).toMatch(/primitives +Sphere 2, PointsPolygons 1\n/);
    expect(stdout).toMatch(/lights +pointlight\n/);
    expect(stdout).toMatch(/shaders +plastic \(2\)\n/);
    const json = await reyes(['parse', file, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ fragment: true, contents: { primitives: { Sphere: 2, PointsPolygons: 1 } }, errors: [] });

    const camera = join(scratch, 'camera.rib');
    writeFileSync(camera, 'Format 320 240 1\nProjection "perspective" "fov" 40\n');
    const options = await reyes(['parse', camera]);
    expect(options.code).toBe(0);
    expect(options.stdout).toMatch(/archive fragment .*0 error\(s\)/);
  });

  it('exits 0 on every scene under scenes/', async () => {
    const ribs = readdirSync('scenes', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.rib')).map((f) => join('scenes', f));
    expect(ribs.length).toBeGreaterThan(40);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const failed: string[] = [];
      for (const rib of ribs) if ((await parseCommand(rib, {})) !== 0) failed.push(rib);
      expect(failed).toEqual([]);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });
});
