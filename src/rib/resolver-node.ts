// The Node resolver: archives from disk. Kept apart from the rest of src/rib so that the page
// never imports node:fs. Besides the string check the reader already made, it resolves links
// (realpath) and refuses a file whose real location is outside every root.

import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { RibResolver } from './resolver.ts';

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function createNodeResolver(): RibResolver {
  return {
    read(path, roots) {
      const absolute = resolve(path);
      try {
        if (!statSync(absolute).isFile()) return undefined;
        const real = realpathSync(absolute);
        const realRoots = roots.map((r) => {
          try { return realpathSync(resolve(r === '' ? '.' : r)); } catch { return null; }
        });
        if (!realRoots.some((r) => r !== null && inside(r, real))) return undefined;
        return new Uint8Array(readFileSync(real));
      } catch {
        return undefined;
      }
    },
  };
}

/** Reads a scene file from disk for parseRib, with its path as the file name. */
export function readSceneFile(path: string): { bytes: Uint8Array; fileName: string } {
  return { bytes: new Uint8Array(readFileSync(path)), fileName: path };
}
