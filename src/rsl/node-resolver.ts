// Node only: finds #include files and shaders on disk, confined to the given search directories
// (a scene may name files only inside its own folder and the configured search paths).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { IncludeResolver } from './preprocessor.ts';

function inside(directory: string, file: string): boolean {
  const rel = relative(directory, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Resolves an include relative to the including file first, then in each search directory. */
export function fileIncludeResolver(searchPath: string[]): IncludeResolver {
  const roots = searchPath.map((d) => resolve(d));
  return (name, fromFile) => {
    const candidates = [resolve(dirname(resolve(fromFile)), name), ...roots.map((root) => resolve(root, name))];
    for (const file of candidates) {
      if (!roots.some((root) => inside(root, file))) continue;
      if (existsSync(file)) return { file, text: readFileSync(file, 'utf8') };
    }
    return undefined;
  };
}

/** Finds "name.sl" in the search path; undefined when absent (the caller then tries the standard shaders). */
export function findShaderFile(name: string, searchPath: string[]): { file: string; text: string } | undefined {
  for (const root of searchPath.map((d) => resolve(d))) {
    const file = resolve(root, name.endsWith('.sl') ? name : `${name}.sl`);
    if (inside(root, file) && existsSync(file)) return { file, text: readFileSync(file, 'utf8') };
  }
  return undefined;
}
