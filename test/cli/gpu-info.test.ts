import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

describe('reyes gpu-info', () => {
  it('prints the adapter, its limits and features', async () => {
    const { code, stdout } = await reyes(['gpu-info']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^adapter: +\S/m);
    expect(stdout).toMatch(/^runtime: +dawn\/vulkan/m);
    expect(stdout).toMatch(/maxStorageBufferBindingSize +\d+ \(\d/);
    expect(stdout).toMatch(/^features: /m);
  });

  it('exits non-zero with a clear message when no adapter is available', async () => {
    const { code, stdout, stderr } = await reyes(['gpu-info'], { REYES_VULKAN: '', VK_ICD_FILENAMES: '/nonexistent/icd.json' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/reyes: no WebGPU adapter: Dawn found no GPU adapter .*VK_ICD_FILENAMES/);
  });

  it('rejects an unknown command', async () => {
    const { code, stderr } = await reyes(['no-such-command']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/unknown command 'no-such-command'/);
  });
});
