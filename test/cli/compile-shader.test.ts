import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

const scratch = mkdtempSync(join(tmpdir(), 'reyes-compile-'));

describe('reyes compile-shader', () => {
  it('writes the WGSL kernel of a surface shader and reports its parameters', async () => {
    const output = join(scratch, 'plastic.wgsl');
    const { code, stderr } = await reyes(['compile-shader', 'shaders/plastic.sl', '-o', output]);
    expect(code).toBe(0);
    expect(readFileSync(output, 'utf8')).toMatch(/@compute @workgroup_size\(\d+\)/);
    expect(stderr).toMatch(/surface plastic: \d+ lines of WGSL .*parameters Ka:float Kd:float Ks:float roughness:float specularcolor:color/);
  });

  it('compiles a light shader alone and dumps its IR', async () => {
    const { code, stdout } = await reyes(['compile-shader', 'shaders/spotlight.sl', '--dump', 'ir']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).lights.length).toBe(1);
  });

  it('exits non-zero with every error and its position', async () => {
    const file = join(scratch, 'bad.sl');
    writeFileSync(file, 'surface bad(float Kd = 1) {\n  Ci = Kd * undefinedThing;\n  Oi = foo(1, 2);\n}\n');
    const { code, stdout, stderr } = await reyes(['compile-shader', file]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${file}:2:13: error: undefined variable 'undefinedThing'`);
    expect(stderr).toContain(`${file}:3:8: error: undefined function 'foo'`);
  });
});
