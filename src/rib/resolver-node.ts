// Node only: scenes and archives from disk. Kept apart from the rest of src/rib so that the page
// never imports node:fs. Files are read in 1 MiB chunks, never whole. Besides the string check
// the reader already made, the resolver resolves links (realpath) and refuses a file whose real
// location is outside every root.

import { closeSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { parseRib } from './index.ts';
import type { ParseOptions } from './index.ts';
import type { RibResolver } from './resolver.ts';
import type { Scene } from './scene.ts';

/** Bytes read from disk at a time. */
export const CHUNK_SIZE = 1 << 20;

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The file's chunks, read synchronously (so that parseRibSync can use them too). The file is
 * opened on the first pull and closed at its end or when the reader stops early.
 */
export function* readFileChunks(path: string, chunkSize = CHUNK_SIZE): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      // A fresh buffer per chunk: the lexer may still hold the previous one.
      const buffer = new Uint8Array(chunkSize);
      const n = readSync(fd, buffer, 0, chunkSize, null);
      if (n === 0) return;
      yield n === chunkSize ? buffer : buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** The archive resolver: files inside the roots, answered as chunk streams. */
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
        return readFileChunks(real);
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Parses a scene file streamed from disk (plain or gzip), with archives from disk unless
 * options.resolver says otherwise. Rejects when the file cannot be opened; read errors later
 * on become errors in the Scene.
 */
export async function parseRibFile(path: string, options: ParseOptions = {}): Promise<Scene> {
  const handle = await open(path, 'r');
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const buffer = new Uint8Array(CHUNK_SIZE);
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_SIZE, null);
        if (bytesRead === 0) return;
        yield bytesRead === CHUNK_SIZE ? buffer : buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }
  return parseRib(chunks(), { fileName: path, resolver: createNodeResolver(), ...options });
}

/** Reads a whole scene file for parseRib. Prefer parseRibFile, which streams it. */
export function readSceneFile(path: string): { bytes: Uint8Array; fileName: string } {
  return { bytes: new Uint8Array(readFileSync(path)), fileName: path };
}
