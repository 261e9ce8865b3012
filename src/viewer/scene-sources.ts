// Where scenes come from: the RIB files bundled in scenes/ (Vite lists them at build time), a URL
// (?scene=), or files the user opened or dropped (several at once, so archives and .sl shaders
// resolve from memory).

export interface BundledScene {
  /** e.g. "viewer/lit-spheres.rib" */
  name: string;
  url: string;
}

export function bundledScenes(): BundledScene[] {
  // Path under the project root → the URL Vite serves it at (transformed by Vite at build time).
  const bundled = import.meta.glob('/scenes/**/*.rib', { query: '?url', import: 'default', eager: true }) as Record<string, string>;
  return Object.entries(bundled)
    .map(([path, url]) => ({ name: path.replace(/^\/scenes\//, ''), url }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A set of files the user opened: the scene to render and everything else by relative name. */
export interface OpenedFiles {
  scene: { name: string; bytes: Uint8Array } | undefined;
  /** Every opened file by its name (relative path when a folder was dropped). */
  files: Map<string, Uint8Array>;
}

export async function readOpenedFiles(list: Iterable<File>): Promise<OpenedFiles> {
  const files = new Map<string, Uint8Array>();
  for (const file of list) {
    const name = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
    files.set(name, new Uint8Array(await file.arrayBuffer()));
  }
  const ribs = [...files.keys()].filter((n) => /\.rib(\.gz)?$/i.test(n));
  // With several RIB files the scene is the one with WorldBegin (the others are archives).
  const decoder = new TextDecoder();
  const main = ribs.find((n) => decoder.decode(files.get(n)!.subarray(0, 1 << 20)).includes('WorldBegin')) ?? ribs[0];
  return { scene: main === undefined ? undefined : { name: main, bytes: files.get(main)! }, files };
}

/** Opened .sl files by shader name (the file name without .sl). */
export function shaderSources(files: ReadonlyMap<string, Uint8Array>): Map<string, { source: string; file: string }> {
  const sources = new Map<string, { source: string; file: string }>();
  const decoder = new TextDecoder();
  for (const [name, bytes] of files) {
    const m = /([^/\\]+)\.sl$/i.exec(name);
    if (m) sources.set(m[1]!, { source: decoder.decode(bytes), file: name });
  }
  return sources;
}
