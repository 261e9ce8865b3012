// `reyes render`'s progress display: lines on a pipe with --progress (or PRMan's -progress),
// nothing on a pipe without it or with --quiet, and a cli-progress bar on a pseudo-terminal.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TEAPOT = path.join(ROOT, 'scenes/features/geometry-teapot.rib');
const LINE = /^(\d+)% \((\d+) regions, (\d+\.\d) s elapsed(, about (\d+\.\d) s left)?\)$/;
const hasScript = spawnSync('script', ['--version']).status === 0;

function progressLines(stderr: string): RegExpExecArray[] {
  return stderr.split('\n').map((l) => LINE.exec(l)).filter((m): m is RegExpExecArray => m !== null);
}

describe('reyes render: progress', () => {
  it('prints rising percent lines ending at 100% on a pipe with --progress or -progress, none without', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-progress-'));
    for (const flag of ['--progress', '-progress']) {
      const result = await reyes(['render', TEAPOT, '--res', '64x48', '-o', path.join(dir, 'teapot.png'), flag]);
      expect(result.code, result.stderr).toBe(0);
      const lines = progressLines(result.stderr);
      expect(lines.length, result.stderr).toBeGreaterThan(0);
      const percents = lines.map((m) => Number(m[1]));
      for (let k = 1; k < percents.length; k++) expect(percents[k]).toBeGreaterThan(percents[k - 1]!);
      expect(percents.at(-1)).toBe(100);
      // The last line: every pixel's region sampled (at least one region), and no time left.
      expect(Number(lines.at(-1)![2])).toBeGreaterThan(0);
      expect(lines.at(-1)![4]).toBeUndefined();
      // stdout stays the list of files written.
      expect(result.stdout.trim()).toBe(`wrote ${path.join(dir, 'teapot.png')} (8-bit RGBA PNG)`);
    }
    const plain = await reyes(['render', TEAPOT, '--res', '64x48', '-o', path.join(dir, 'plain.png')]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(progressLines(plain.stderr)).toEqual([]);
    const both = await reyes(['render', TEAPOT, '--progress', '--quiet']);
    expect(both.code).toBe(4);
    expect(both.stderr).toContain("option '--progress' cannot be used with option '-q, --quiet'");
  });

  it.skipIf(!hasScript)('draws a bar on a terminal for a render longer than a second, nothing with --quiet', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-progress-tty-'));
    // `script` runs the command on a pseudo-terminal; 640 × 480 with 6 × 6 samples takes seconds on lavapipe.
    const run = (extra: string): string => execFileSync('script', ['-qec',
      `${process.execPath} bin/reyes.js render ${TEAPOT} --res 640x480 --samples 6 -o ${path.join(dir, 'teapot.png')} ${extra}`, '/dev/null'],
    { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    const bar = run('');
    // cli-progress redraws the line in place (cursor to column 1, erase to the end).
    const frames = bar.split('\x1b[1G').filter((f) => /% \| \d+ regions \| /.test(f));
    expect(frames.length, bar).toBeGreaterThan(1);
    expect(frames.at(-1)).toMatch(/^=+ 100% \| [1-9]\d* regions \| \d+s elapsed \| 0s left/);
    expect(run('--quiet')).not.toMatch(/% \| \d+ regions/);
  }, 300_000);
});
