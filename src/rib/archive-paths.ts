// Path arithmetic for archives, on '/'-separated strings so it runs in the page and in Node alike.
// Decides which files a ReadArchive may open: only those inside the scene's folder or a
// configured search path ("roots"); anything that climbs out with '..' or an absolute path
// elsewhere is refused before a resolver is ever asked.

/** Collapses '.', '..', repeated and back slashes. A relative path keeps leading '..'. */
export function normalizePath(path: string): string {
  const absolute = path.startsWith('/') || path.startsWith('\\');
  const parts: string[] = [];
  for (const part of path.split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push('..');
      // '..' at the root of an absolute path stays at the root.
    } else parts.push(part);
  }
  const joined = parts.join('/');
  return absolute ? `/${joined}` : joined;
}

export function dirname(path: string): string {
  const normal = normalizePath(path);
  const slash = normal.lastIndexOf('/');
  if (slash < 0) return '';
  return slash === 0 ? '/' : normal.slice(0, slash);
}

export function joinPath(dir: string, name: string): string {
  if (name.startsWith('/') || name.startsWith('\\') || dir === '') return normalizePath(name);
  return normalizePath(`${dir}/${name}`);
}

/** True when `path` is `root` or below it (both normalised; '' is the current folder). */
export function isInside(root: string, path: string): boolean {
  if (root === '') return !path.startsWith('/') && path !== '..' && !path.startsWith('../');
  if (root === '/') return path.startsWith('/');
  return path === root || path.startsWith(`${root}/`);
}

export interface ArchiveCandidates {
  /** Paths to try in order, all inside a root. */
  paths: string[];
  /** Paths that were considered but refused because they leave every root. */
  refused: string[];
}

/**
 * Where to look for an archive named `name` read from `currentFile`: beside the current file,
 * then in each search path. `roots` are the scene folder and the search paths.
 */
export function archiveCandidates(name: string, currentFile: string, searchPaths: readonly string[], roots: readonly string[]): ArchiveCandidates {
  const tries = [joinPath(dirname(currentFile), name)];
  if (!name.startsWith('/')) for (const dir of searchPaths) tries.push(joinPath(dir, name));
  const paths: string[] = [];
  const refused: string[] = [];
  for (const p of new Set(tries)) (roots.some((r) => isInside(r, p)) ? paths : refused).push(p);
  return { paths, refused };
}
