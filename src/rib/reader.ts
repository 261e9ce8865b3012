// Drives lexer → parser → scene builder over a file and the archives it reads. Written as a
// generator that yields each archive path it needs and receives the file's contents back, so
// the same code serves a synchronous caller (tests, in-memory files) and an asynchronous one
// (fetch in the page) without duplicating the reading logic.

import { archiveCandidates, dirname, joinPath, normalizePath } from './archive-paths.ts';
import { DiagnosticSink } from './diagnostics.ts';
import type { SourcePosition } from './diagnostics.ts';
import { ribBytes } from './input-bytes.ts';
import type { RibInput } from './input-bytes.ts';
import { RibLexer } from './lexer.ts';
import { RibParser } from './parser.ts';
import type { ResolvedFile } from './resolver.ts';
import { findParameter } from './param-typing.ts';
import { SceneBuilder } from './scene-builder.ts';
import type { Scene } from './scene.ts';

export interface ReadOptions {
  /** Name of the scene file, used in messages and as the base for archive paths. */
  fileName?: string;
  /** Extra folders to look for archives in; relative ones are taken from the scene's folder. */
  searchPaths?: readonly string[];
  /** Most diagnostics of each severity kept (default 1000). */
  maxDiagnostics?: number;
}

/** What the reader asks its driver for: the contents of `path`, or undefined. */
export interface FileRequest {
  path: string;
  roots: readonly string[];
}

const MAX_ARCHIVE_DEPTH = 32;

interface Context {
  builder: SceneBuilder;
  diagnostics: DiagnosticSink;
  roots: string[];
  searchPaths: string[];
  sceneDir: string;
}

/** Archive folders a scene adds with Option "searchpath" "archive" ("&" stands for the configured ones). */
function sceneSearchPaths(ctx: Context): string[] {
  const option = ctx.builder.optionValue('searchpath');
  const param = option ? findParameter(option, 'archive') : undefined;
  const text = param ? (param.values as string[])[0] : undefined;
  if (text === undefined) return ctx.searchPaths;
  return text.split(':').flatMap((p) => (p === '&' ? ctx.searchPaths : [joinPath(ctx.sceneDir, p)]));
}

function* readFile(ctx: Context, bytes: Uint8Array, file: string, depth: number): Generator<FileRequest, SourcePosition, ResolvedFile> {
  const lexer = new RibLexer(bytes, file, ctx.builder.onStructureComment);
  const parser = new RibParser(lexer, ctx.diagnostics);
  for (let req = parser.next(); req; req = parser.next()) {
    const need = ctx.builder.apply(req);
    if (!need) continue;
    if (depth >= MAX_ARCHIVE_DEPTH) {
      ctx.diagnostics.error(need.pos, need.request, `archives nested deeper than ${MAX_ARCHIVE_DEPTH} (does "${need.fileName}" read itself?); not read`);
      continue;
    }
    const { paths, refused } = archiveCandidates(need.fileName, file, sceneSearchPaths(ctx), ctx.roots);
    let found: { path: string; data: Uint8Array | string } | null = null;
    for (const path of paths) {
      const data = yield { path, roots: ctx.roots };
      if (data !== undefined) { found = { path, data }; break; }
    }
    if (!found) {
      const message = paths.length === 0
        ? `archive "${need.fileName}" is outside the scene folder and the search paths (${refused.join(', ')}); not read`
        : `archive "${need.fileName}" not found (looked for ${paths.join(', ')})`;
      ctx.diagnostics.error(need.pos, need.request, message);
      continue;
    }
    const archive = ribBytes(found.data);
    if (!(archive instanceof Uint8Array)) {
      ctx.diagnostics.error(need.pos, need.request, `archive "${found.path}": ${archive.error}`);
      continue;
    }
    if (need.isolated) ctx.builder.beginIsolated(need.pos);
    yield* readFile(ctx, archive, found.path, depth + 1);
    if (need.isolated) ctx.builder.endIsolated();
  }
  return { file, line: lexer.line, column: lexer.column };
}

/** The whole read as a generator of file requests; returns the Scene. */
export function* readScene(input: RibInput, options: ReadOptions = {}): Generator<FileRequest, Scene, ResolvedFile> {
  const fileName = options.fileName ?? '<input>';
  const diagnostics = new DiagnosticSink(options.maxDiagnostics);
  const builder = new SceneBuilder(diagnostics);
  const sceneDir = dirname(fileName);
  const searchPaths = (options.searchPaths ?? []).map((p) => joinPath(sceneDir, p));
  const ctx: Context = { builder, diagnostics, roots: [sceneDir, ...searchPaths].map(normalizePath), searchPaths, sceneDir };
  const bytes = ribBytes(input);
  const start: SourcePosition = { file: fileName, line: 1, column: 1 };
  if (!(bytes instanceof Uint8Array)) {
    diagnostics.error(start, null, bytes.error);
    return builder.finish(start);
  }
  const end = yield* readFile(ctx, bytes, fileName, 0);
  return builder.finish(end);
}
