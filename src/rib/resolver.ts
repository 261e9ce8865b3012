// Resolvers hand the reader the bytes of archive files. This module has the ones that work in a
// page (and in Node): files held in memory (what the user opened) and relative URLs fetched
// from a base. The Node disk resolver is apart, in resolver-node.ts, so that the page bundle
// never imports node:fs.

import { normalizePath } from './archive-paths.ts';
import type { ByteChunks } from './input-bytes.ts';

/** A file's bytes, its text, its chunks (read as they come), or undefined when it is not there. */
export type ResolvedFile = Uint8Array | string | ByteChunks | undefined;

export interface RibResolver {
  /**
   * The bytes, text or chunks of the file at `path`, or undefined when there is none. `path` is
   * normalised and already checked to lie inside one of `roots` (the scene folder and the
   * search paths); a resolver that can see links should check again on the real path.
   */
  read(path: string, roots: readonly string[]): ResolvedFile | Promise<ResolvedFile>;
}

/** Files by name, e.g. those the user dropped on the page: { "scene.rib": bytes, "lib/a.rib": text }. */
export function createMemoryResolver(files: ReadonlyMap<string, Uint8Array | string> | Record<string, Uint8Array | string>): RibResolver {
  const table = new Map<string, Uint8Array | string>();
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  for (const [name, data] of entries) table.set(normalizePath(name), data);
  return { read: (path) => table.get(normalizePath(path)) };
}

/** Fetches paths relative to `base` (a page URL or folder URL); a failed request means "not there". */
export function createFetchResolver(base: string | URL, fetchFn: typeof fetch = (...a) => fetch(...a)): RibResolver {
  return {
    async read(path) {
      if (path.startsWith('/')) return undefined; // only relative URLs: the page's own folder tree
      try {
        const response = await fetchFn(new URL(path, base));
        if (!response.ok) return undefined;
        // Read the body as it arrives rather than holding the whole archive.
        return response.body ? streamBody(response.body) : new Uint8Array(await response.arrayBuffer());
      } catch {
        return undefined;
      }
    },
  };
}

async function* streamBody(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Asks each resolver in turn: e.g. the opened files first, then the web server. */
export function chainResolvers(...resolvers: RibResolver[]): RibResolver {
  return {
    async read(path, roots) {
      for (const r of resolvers) {
        const found = await r.read(path, roots);
        if (found !== undefined) return found;
      }
      return undefined;
    },
  };
}
