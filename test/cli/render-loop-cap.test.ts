// `reyes render` of a shader whose loop never ends: the render finishes, and stderr carries the
// loop cap's warning once, at the loop's line and column in the shader file; with
// `Option "limits" "shaderloopiterations"` out of range, one warning at the Option as well.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

describe('reyes render: the shader loop cap', () => {
  it('prints file:line:col: warning: loop stopped after ... once for an endless loop', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-loop-cap-'));
    const shader = path.join(dir, 'spin.sl');
    writeFileSync(shader, 'surface spin() {\n  float x = 0;\n  for (;;) x += 1;\n  Oi = Os;\n  Ci = x / 100000;\n}\n');
    const rib = path.join(dir, 'scene.rib');
    writeFileSync(rib, 'Option "limits" "shaderloopiterations" [0]\nFormat 8 8 1\nPixelSamples 1 1\nDisplay "out.png" "png" "rgba"\nWorldBegin\nTranslate 0 0 3\nSurface "spin"\nSphere 1 -1 1 360\nWorldEnd\n');
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines.filter((l) => l.includes('loop stopped'))).toEqual([
      `${shader}:3:3: warning: loop stopped after 100000 iterations (Option "limits" "shaderloopiterations")`,
    ]);
    expect(lines.filter((l) => l.includes('shaderloopiterations" must'))).toEqual([
      `${rib}:1:1: warning: Option: Option "limits" "shaderloopiterations" must be a whole number of iterations from 1 to 100000000, not [0]; ignored`,
    ]);
  });
});
