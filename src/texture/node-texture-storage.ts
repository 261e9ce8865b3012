// Node only (the command line): texture files on disk. Relative names are read from the output
// folder first (where earlier frames wrote their depth maps and Make* their textures), then from
// the scene's folder; made textures go to the output folder and may not leave it.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TextureStorage } from './texture-storage.ts';

export function nodeTextureStorage(sceneDir: string, outputDir: string): TextureStorage {
  const inside = (root: string, p: string): boolean => {
    const rel = path.relative(root, p);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  return {
    read: (name) => {
      for (const dir of [outputDir, sceneDir]) {
        const file = path.resolve(dir, name);
        if (statSync(file, { throwIfNoEntry: false })?.isFile()) return new Uint8Array(readFileSync(file));
      }
      return undefined;
    },
    write: (name, bytes) => {
      const file = path.resolve(outputDir, name);
      if (!inside(outputDir, file)) throw new Error(`${name} is outside the output folder ${outputDir}`);
      writeFileSync(file, bytes);
      return file;
    },
  };
}
