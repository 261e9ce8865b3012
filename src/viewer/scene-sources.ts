// Where scenes come from: the RIB files bundled in scenes/ (Vite lists them at build time), a URL
// (?scene=), or files the user opened or dropped (several at once, so archives and .sl shaders
// resolve from memory).
import { parseSource } from '../index.ts';

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

/** Folders listed first in the scene picker, in this order; the rest follow alphabetically, the
 * feature test scenes (features and its subfolders, such as features/maps) last. */
const FOLDER_ORDER = ['viewer', 'ribtools'];

/** Bundled scenes by folder ("viewer", "features", ...): the viewer scenes first, feature test scenes last. */
export function groupedScenes(scenes: readonly BundledScene[]): [string, BundledScene[]][] {
  const groups = new Map<string, BundledScene[]>();
  for (const scene of scenes) {
    const folder = scene.name.includes('/') ? scene.name.slice(0, scene.name.lastIndexOf('/')) : '';
    groups.set(folder, [...(groups.get(folder) ?? []), scene]);
  }
  const rank = (folder: string): number => {
    const k = FOLDER_ORDER.indexOf(folder);
    const feature = folder === 'features' || folder.startsWith('features/');
    return k >= 0 ? k : feature ? FOLDER_ORDER.length + 1 : FOLDER_ORDER.length;
  };
  return [...groups].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
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

/** Opened .sl files by the names of the shaders they declare (`surface stripes` in good.sl is
 * "stripes"), as a renderer finds compiled shaders; a file that declares none (it does not parse) is
 * listed under its file name, so that its errors still reach the request that names it. */
export function shaderSources(files: ReadonlyMap<string, Uint8Array>): Map<string, { source: string; file: string }> {
  const sources = new Map<string, { source: string; file: string }>();
  const decoder = new TextDecoder();
  for (const [name, bytes] of files) {
    const m = /([^/\\]+)\.sl$/i.exec(name);
    if (!m) continue;
    const entry = { source: decoder.decode(bytes), file: name };
    const declared = parseSource(entry.source, name).ast.shaders.map((s) => s.name);
    for (const shader of declared.length ? declared : [m[1]!]) sources.set(shader, entry);
  }
  return sources;
}
