// Node only: finds #include files and shaders on disk, confined to the given search directories
// (a scene may name files only inside its own folder and the configured search paths), exactly as
// archives are: by name first, then by real location, so a symbolic link inside a root that
// leads out is refused like a name that climbs out with '..'.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { IncludeResolver } from './preprocessor.ts';

function inside(directory: string, file: string): boolean {
  const rel = relative(directory, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function realRoot(root: string): string | undefined {
  try {
    return realpathSync(root);
  } catch {
    return undefined;
  }
}

/** The text of `file` when it is a file whose name and real location are both inside one of `roots`. */
function readConfined(file: string, roots: readonly string[]): { file: string; text: string } | undefined {
  if (!roots.some((root) => inside(root, file))) return undefined;
  try {
    if (!statSync(file).isFile()) return undefined;
    const real = realpathSync(file);
    if (!roots.some((root) => { const r = realRoot(root); return r !== undefined && inside(r, real); })) return undefined;
    return { file, text: readFileSync(real, 'utf8') };
  } catch {
    return undefined;
  }
}

/** Resolves an include relative to the including file first, then in each search directory. */
export function fileIncludeResolver(searchPath: string[]): IncludeResolver {
  const roots = searchPath.map((d) => resolve(d));
  return (name, fromFile) => {
    const candidates = [resolve(dirname(resolve(fromFile)), name), ...roots.map((root) => resolve(root, name))];
    for (const file of candidates) {
      const found = readConfined(file, roots);
      if (found) return found;
    }
    return undefined;
  };
}

/** Finds "name.sl" in the search path; undefined when absent (the caller then tries the standard shaders). */
export function findShaderFile(name: string, searchPath: string[]): { file: string; text: string } | undefined {
  for (const root of searchPath.map((d) => resolve(d))) {
    const found = readConfined(resolve(root, name.endsWith('.sl') ? name : `${name}.sl`), [root]);
    if (found) return found;
  }
  return undefined;
}
