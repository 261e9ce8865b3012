import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('lists every error and warning with file, line and column, and still reads the rest', async () => {
    const file = join(scratch, 'broken.rib');
    writeFileSync(file, 'WorldBegin\nSphere 1 -1 1\nFooBar 1\nSphere 1 -1 1 360\nWorldEnd\n');
    const { code, stdout } = await reyes(['parse', file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`${file}:2:1: error: Sphere: expected 4 arguments`);
    expect(stdout).toContain(`${file}:3:1: warning: FooBar: unknown request 'FooBar'`);
    expect(stdout).toMatch(/primitives +Sphere 1/);
  });

  it('fails with a message for a missing file or a scene without a world', async () => {
    const missing = await reyes(['parse', join(scratch, 'missing.rib')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*missing\.rib: ENOENT/);
    const file = join(scratch, 'options-only.rib');
    writeFileSync(file, 'Format 320 240 1\n');
    const empty = await reyes(['parse', file]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no world block .*nothing to render/);
  });
});
