// Warnings about a Display name the request's file, line and column, so a user can find it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

describe('reyes render: Display warnings carry positions', () => {
  it('places a driver warning and an overwritten file at the Display that caused them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-display-at-'));
    const rib = path.join(dir, 'positions.rib');
    const frame = (n: number): string => `FrameBegin ${n}\nFormat 8 6 1\nPixelSamples 1 1\n  Display "same.tif" "weird" "rgba"\nWorldBegin\nWorldEnd\nFrameEnd\n`;
    writeFileSync(rib, frame(1) + frame(2));
    const result = await reyes(['render', rib]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`frame 1: warning: ${rib}:4:3: Display "same.tif" "weird" "rgba": unknown display driver "weird"; written as a TIFF`);
    expect(result.stderr).toContain(`frame 2: warning: ${rib}:11:3: Display "same.tif" "weird" "rgba": unknown display driver "weird"`);
    expect(result.stderr).toContain(`frame 2: warning: ${path.join(dir, 'same.tif')} replaces the file frame 1 wrote there (Display at ${rib}:11:3)`);
  });
});
