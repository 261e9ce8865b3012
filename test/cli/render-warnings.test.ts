// A shader's compile warning reaches `reyes render`'s stderr once, at the shader's position, with
// its severity said once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

describe('reyes render: shader warnings', () => {
  it('prints a compiler warning as file:line:col: warning: text', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-shader-warning-'));
    writeFileSync(path.join(dir, 'tracer.sl'), 'surface tracer() { Ci = trace(P, N); Oi = 1; }\n');
    const rib = path.join(dir, 'scene.rib');
    writeFileSync(rib, 'Format 8 8 1\nPixelSamples 1 1\nDisplay "out.png" "png" "rgba"\nWorldBegin\nTranslate 0 0 3\nSurface "tracer"\nSphere 1 -1 1 360\nWorldEnd\n');
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter((l) => l.includes('does not trace rays'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${path.join(dir, 'tracer.sl').replace(/[.]/g, '\\.')}:1:25: warning: this renderer does not trace rays`));
    expect(result.stderr).not.toContain('warning: warning:');
  });
});
