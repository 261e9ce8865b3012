// What `reyes render` reads: one RIB file, standard input ("-", as exporters pipe into prman), or
// several of these read in order as one stream, as PRMan does (`reyes render options.rib
// scene.rib`: the options the first sets apply to the frames of the second). Several inputs are
// read through a top-level stream of ReadArchive requests, one per input (RI 3.2: ReadArchive
// reads a file as if its requests were inline), so each file's diagnostics keep its own name,
// line and column, and the files and stdin stream one chunk at a time as a single file does.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { chainResolvers, joinArchivePath as joinPath, normalizeArchivePath as normalizePath, type ParseOptions, parseRib, type RibResolver, type Scene } from '../index.ts';
import { createNodeResolver, parseRibFile } from '../node.ts';

/** The input name that stands for standard input. */
export const STDIN = '-';
/** How standard input is named in diagnostics. */
const STDIN_NAME = '<stdin>';

/** The folder relative names in the scene are taken from: the last input's (the scene's, after
 * its options files), the current folder for standard input. */
export function sceneFolder(inputs: readonly string[]): string {
  const last = inputs[inputs.length - 1]!;
  return last === STDIN ? process.cwd() : path.dirname(path.resolve(last));
}

/** Rejects with a message naming the first input that cannot be read, or a second "-". */
async function checkInputs(inputs: readonly string[]): Promise<void> {
  if (inputs.filter((i) => i === STDIN).length > 1) throw new Error('standard input ("-") can be read only once');
  for (const input of inputs) {
    if (input === STDIN) continue;
    try {
      await access(input);
    } catch (error) {
      throw new Error(`cannot read ${input}: ${(error as Error).message}`);
    }
  }
}

function stdinResolver(stdinPath: string): RibResolver {
  return { read: (p) => (normalizePath(p) === stdinPath ? process.stdin : undefined) };
}

/** Parses the inputs in order as one RIB stream, archives read from disk. */
export async function parseRibInputs(inputs: readonly string[], options: ParseOptions = {}): Promise<Scene> {
  await checkInputs(inputs);
  if (inputs.length === 1 && inputs[0] === STDIN) {
    return parseRib(process.stdin, { ...options, fileName: STDIN_NAME, resolver: createNodeResolver() });
  }
  const names = inputs.map((i) => (i === STDIN ? STDIN_NAME : i));
  // Streamed from disk, so a big scene is never in memory whole.
  if (names.length === 1) return parseRibFile(names[0]!, options);
  // Names as the user gave them, relative to the last input's folder, where the top-level
  // stream stands; every input's folder is a root, so the reader lets each be read.
  const last = names[names.length - 1]!;
  const absolute = path.isAbsolute(last);
  const form = (p: string): string => (absolute ? path.resolve(p) : path.isAbsolute(p) ? p : path.relative('.', p) || '.');
  const topDir = form(path.dirname(last));
  const relativeToTop = (p: string): string => (path.isAbsolute(p) ? p : path.relative(topDir, p) || '.');
  const requests = names.map((n) => `ReadArchive ${JSON.stringify(relativeToTop(form(n)))}\n`).join('');
  const roots = names.map((n) => relativeToTop(form(path.dirname(n))));
  const stdinPath = joinPath(topDir, relativeToTop(form(STDIN_NAME)));
  return parseRib(requests, {
    ...options,
    fileName: joinPath(topDir, '<command line>'),
    searchPaths: [...roots, ...(options.searchPaths ?? [])],
    resolver: chainResolvers(stdinResolver(stdinPath), createNodeResolver()),
  });
}
