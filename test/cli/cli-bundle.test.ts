// The `reyes` command runs from a bundle of its sources (src/node/cli-bundle.js). What a user relies
// on: it never runs stale code (a changed source rebuilds it before the command runs), and it does
// what the sources do (REYES_CLI_BUNDLE=off runs them through tsx).
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const INPUTS = path.join(ROOT, 'node_modules/.reyes-cli/inputs.json');
const SOURCE = 'src/cli/main.ts';

/** The modules a bundle file imports: statically (loaded with it) or through import(). */
function bundleImports(file: string): { static: string[]; dynamic: string[] } {
  const text = readFileSync(path.join(path.dirname(INPUTS), file), 'utf8');
  const found = (pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);
  // Statements start a line or follow a semicolon (the bundle's whitespace is minified).
  return { static: found(/(?:^|;)\s*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/gm), dynamic: found(/\bimport\(["']([^"']+)["']\)/g) };
}

/** Every module the bundle's main module loads before it runs: its static imports, followed through the bundle's own files. */
function loadedWithMain(): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    for (const spec of bundleImports(file).static) {
      if (seen.has(spec)) continue;
      seen.add(spec);
      if (spec.startsWith('./')) visit(spec);
    }
  };
  visit('main.js');
  return seen;
}

function recordedTime(file: string): number | undefined {
  return (JSON.parse(readFileSync(INPUTS, 'utf8')) as Record<string, number>)[file];
}

describe('the reyes command bundle', () => {
  it('is rebuilt before the command runs when a source it was built from has changed', async () => {
    expect((await reyes(['--version'])).code).toBe(0);
    expect(recordedTime(SOURCE)).toBe(statSync(path.join(ROOT, SOURCE)).mtimeMs);
    expect(recordedTime('shaders/kernels/reyes-sample.wgsl')).toBeDefined();

    const original = statSync(path.join(ROOT, SOURCE));
    const changed = new Date(original.mtimeMs + 1000);
    utimesSync(path.join(ROOT, SOURCE), original.atime, changed);
    try {
      const run = await reyes(['--version']);
      expect(run.code).toBe(0);
      expect(recordedTime(SOURCE)).toBe(statSync(path.join(ROOT, SOURCE)).mtimeMs);
    } finally {
      utimesSync(path.join(ROOT, SOURCE), original.atime, original.mtime);
    }
  });

  it('renders the same picture with the same messages as the sources run through tsx', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reyes-bundle-'));
    try {
      const render = (file: string, env: NodeJS.ProcessEnv = {}) =>
        reyes(['render', 'scenes/features/sphere-default.rib', '--res', '64x48', '-q', '-o', path.join(dir, file)], env);
      const bundled = await render('bundle.png');
      const sources = await render('sources.png', { REYES_CLI_BUNDLE: 'off' });
      expect([bundled.code, sources.code]).toEqual([0, 0]);
      expect(bundled.stderr).toBe(sources.stderr);
      expect(readFileSync(path.join(dir, 'bundle.png')).equals(readFileSync(path.join(dir, 'sources.png')))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads the farm\'s packages (BullMQ, ioredis) only for the farm commands, which still run', async () => {
    expect((await reyes(['--version'])).code).toBe(0);
    const loaded = loadedWithMain();
    expect([...loaded].filter((spec) => spec.startsWith('./')).length).toBeGreaterThan(0);
    expect([...loaded].filter((spec) => /^(bullmq|ioredis)\b/.test(spec))).toEqual([]);
    const farm = bundleImports('main.js').dynamic.filter((spec) => /^\.\/farm-/.test(spec));
    expect(farm).toHaveLength(1);
    expect(bundleImports(farm[0]!).static).toContain('bullmq');
    const status = await reyes(['farm', 'status'], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
  });
});
