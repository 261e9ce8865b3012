// The page and the CLI use the package's public API, nothing private (issue 20): every import in
// src/cli and src/viewer that leaves its own folder goes through one of the package's entries, the
// page's through the browser ones only (it is bundled by Vite: src/node.ts reaches Dawn and files).
// The scan reads import/export-from statements and dynamic import() of relative paths.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');

/** The package's entries (package.json `exports`), as the source files they are built from. */
const BROWSER_ENTRIES = ['src/index.ts', 'src/gpu-tools.ts'];
const NODE_ENTRIES = ['src/node.ts', 'src/farm/index.ts'];

/** Which entries each front end may import from outside its own folder. */
const ALLOWED: Record<string, string[]> = {
  'src/cli': [...BROWSER_ENTRIES, ...NODE_ENTRIES],
  'src/viewer': BROWSER_ENTRIES,
};

const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every module specifier `file` imports or re-exports, with the line it is on. */
function specifiers(file: string): { specifier: string; line: number }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => ({ specifier: (m[1] ?? m[2])!, line: text.slice(0, m.index).split('\n').length }));
}

const relative = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');

/** The imports of the files under `folder` that leave it other than through `allowed`. */
function privateImports(folder: string, allowed: readonly string[]): string[] {
  const bad: string[] = [];
  for (const file of sourceFiles(path.join(ROOT, folder))) {
    for (const { specifier, line } of specifiers(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = relative(path.resolve(path.dirname(file), specifier.replace(/\?.*$/, '')));
      if (target.startsWith(`${folder}/`) || allowed.includes(target)) continue;
      bad.push(`${relative(file)}:${line}: ${specifier}`);
    }
  }
  return bad;
}

/** The modules under src/ that `entries` reach through static relative imports, with what each imports. */
function reachable(entries: readonly string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = entries.map((e) => path.join(ROOT, e));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(relative(file))) continue;
    const text = readFileSync(file, 'utf8');
    // Static imports only: a dynamic import() is the way a browser module reaches a Node one when it runs in Node.
    const statics = [...text.matchAll(IMPORT)].filter((m) => m[1] !== undefined).map((m) => m[1]!);
    seen.set(relative(file), statics);
    for (const s of statics) {
      if (!s.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), s.replace(/\?.*$/, ''));
      if (/\.tsx?$/.test(target) && target.startsWith(SRC)) queue.push(target);
    }
  }
  return seen;
}

describe('the page and the CLI use the public API', () => {
  for (const [folder, allowed] of Object.entries(ALLOWED)) {
    it(`${folder} imports other folders only through ${allowed.join(', ')}`, () => {
      expect(privateImports(folder, allowed)).toEqual([]);
    });
  }

  it('finds private imports where there are some (the scan works)', () => {
    // src/reyes reaches into src/rib, src/gpu, ... directly, as the renderer's own modules do.
    expect(privateImports('src/reyes', []).length).toBeGreaterThan(0);
    expect(specifiers(path.join(ROOT, 'src/cli/main.ts')).map((s) => s.specifier)).toContain('commander');
  });

  it('keeps Node built-ins and src/node.ts out of what the page reaches', () => {
    const node = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const modules = reachable(['src/viewer/main.ts', ...BROWSER_ENTRIES]);
    expect(modules.has('src/index.ts')).toBe(true);
    const bad = [...modules].flatMap(([file, imports]) => [
      ...imports.filter((s) => node.has(s) || s.startsWith('node:') || s === 'webgpu').map((s) => `${file}: ${s}`),
      ...(NODE_ENTRIES.includes(file) ? [`${file} is Node's entry`] : []),
    ]);
    expect(bad).toEqual([]);
  });
});
