// Where texture files come from and where made ones go, the same for the command line and the page.
// Names are looked up through Option "searchpath" "texture" ("&" and "@" stand for the scene's
// folder; without the option, the scene's folder alone) and confined, as archives are, to the
// scene's folder and the search path's folders: a name that climbs out with ".." is refused.
// Paths are '/'-separated and relative to the scene's folder ('' is the folder itself).
import { isInside, joinPath, normalizePath } from '../rib/archive-paths.ts';
import type { Options } from '../rib/scene.ts';
import { expandDefaults } from '../rib/search-paths.ts';

export interface TextureStorage {
  /** The bytes of the file at `path`, or undefined when there is none. */
  read(path: string): Uint8Array | undefined;
  /** Writes a made texture file; returns where it went, or throws saying why it may not. */
  write(path: string, bytes: Uint8Array): string;
}

/** Option "searchpath" "texture" of a frame, if set. */
export function textureSearchPath(options: Options): string | undefined {
  const value = options.user['searchpath']?.find((p) => p.name === 'texture')?.values[0];
  return typeof value === 'string' ? value : undefined;
}

export interface TextureCandidates {
  /** Paths to try in order. */
  paths: string[];
  /** Paths refused because they leave the scene's folder and the search path. */
  refused: string[];
}

export function textureCandidates(name: string, searchPath: string | undefined): TextureCandidates {
  const folders = searchPath === undefined ? [''] : expandDefaults(searchPath, [''], normalizePath);
  const roots = ['', ...folders.filter((f) => f.startsWith('/'))];
  const tries = name.startsWith('/') ? [normalizePath(name)] : [...new Set(folders.map((dir) => joinPath(dir, name)))];
  const paths: string[] = [];
  const refused: string[] = [];
  for (const p of tries) (roots.some((r) => isInside(r, p)) ? paths : refused).push(p);
  return { paths, refused };
}

/** Finds `name`: its path and bytes, or a message saying where it was looked for. */
export function findTexture(storage: TextureStorage, name: string, searchPath: string | undefined): { path: string; bytes: Uint8Array } | { problem: string } {
  const { paths, refused } = textureCandidates(name, searchPath);
  for (const path of paths) {
    const bytes = storage.read(path);
    if (bytes) return { path, bytes };
  }
  const looked = paths.length ? ` (looked in ${paths.map((p) => `"${p}"`).join(', ')})` : '';
  const outside = refused.length ? `; ${refused.map((p) => `"${p}"`).join(', ')} ${refused.length === 1 ? 'is' : 'are'} outside the scene's folder and the texture search path` : '';
  return { problem: `"${name}" not found${looked}${outside}` };
}

/** Files in memory (the page: the files opened or dropped with the scene; tests). */
export function memoryTextureStorage(files: Map<string, Uint8Array>): TextureStorage {
  return {
    read: (path) => files.get(normalizePath(path)),
    write: (path, bytes) => {
      const at = normalizePath(path);
      if (!isInside('', at)) throw new Error(`${path} is outside the scene's folder`);
      files.set(at, bytes);
      return at;
    },
  };
}
