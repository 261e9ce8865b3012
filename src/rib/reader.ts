// Drives lexer → parser → scene builder over a file and the archives it reads. Written as a
// generator that yields what it needs from outside, so the same code serves a synchronous
// caller (tests, in-memory files) and an asynchronous one (fetch, disk streams) without
// duplicating the reading logic. It asks for two things:
// - { kind: 'file' }: the contents of an archive path (bytes, text, a chunk stream, undefined);
// - { kind: 'chunk' }: the next raw chunk of a streamed file (null at its end).
// A streamed file is held one chunk at a time: raw chunk → ChunkDecoder (gunzip, lazily) →
// lexer (current chunk + the token in progress) → parser → scene builder.

import { archiveCandidates, dirname, joinPath, normalizePath } from './archive-paths.ts';
import { DiagnosticSink } from './diagnostics.ts';
import type { SourcePosition } from './diagnostics.ts';
import { ChunkDecoder } from './chunk-decoder.ts';
import type { ByteChunks, RibInput, RibSource } from './input-bytes.ts';
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

/** The reader asks its driver for the contents of `path`; the answer is a ResolvedFile. */
export interface FileRequest {
  kind: 'file';
  path: string;
  roots: readonly string[];
}

/** The reader asks for the next chunk from `chunks`; the answer is a ChunkAnswer. */
export interface ChunkRequest {
  kind: 'chunk';
  chunks: Iterator<Uint8Array> | AsyncIterator<Uint8Array>;
}

/** A chunk, null at the end of the stream, or why it could not be read. */
export type ChunkAnswer = Uint8Array | null | { error: string };

export type ReaderRequest = FileRequest | ChunkRequest;
export type ReaderAnswer = ResolvedFile | ChunkAnswer;

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

function isWhole(source: RibSource): source is RibInput {
  return typeof source === 'string' || source instanceof Uint8Array || source instanceof ArrayBuffer;
}

function wholeBytes(input: RibInput): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input instanceof Uint8Array ? input : new Uint8Array(input);
}

function chunkIterator(chunks: ByteChunks): Iterator<Uint8Array> | AsyncIterator<Uint8Array> {
  return Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
}

/** Gets the next RIB bytes of one file into the lexer (feed, or end at the end of the file). */
class FileInput {
  private readonly decoder = new ChunkDecoder();
  private whole: Uint8Array | null;
  private readonly chunks: Iterator<Uint8Array> | AsyncIterator<Uint8Array> | null;
  private done = false;

  constructor(source: RibSource, private readonly lexer: RibLexer, private readonly diagnostics: DiagnosticSink) {
    this.whole = isWhole(source) ? wholeBytes(source) : null;
    this.chunks = isWhole(source) ? null : chunkIterator(source);
  }

  *refill(): Generator<ChunkRequest, void, ReaderAnswer> {
    for (;;) {
      const bytes = this.decoder.take();
      if (bytes instanceof Uint8Array) {
        this.lexer.feed(bytes);
        return;
      }
      if (bytes === null) {
        if (this.decoder.error) this.fail(this.decoder.error);
        this.lexer.end();
        return;
      }
      if (this.whole !== null) {
        this.decoder.give(this.whole);
        this.whole = null;
        continue;
      }
      if (this.chunks === null || this.done) {
        this.decoder.give(null);
        continue;
      }
      const answer = (yield { kind: 'chunk', chunks: this.chunks }) as ChunkAnswer;
      if (answer instanceof Uint8Array) this.decoder.give(answer);
      else {
        this.done = true;
        if (answer !== null) this.fail(`cannot read: ${answer.error}`);
        this.decoder.give(null);
      }
    }
  }

  /** Reports a read or inflate failure and stops reading (closing the stream early). */
  private fail(message: string): void {
    this.diagnostics.error(this.lexer.position(), null, message);
    if (!this.done && this.chunks?.return) {
      this.done = true;
      try {
        const closing = this.chunks.return();
        if (closing instanceof Promise) closing.catch(() => undefined);
      } catch { /* the stream is abandoned either way */ }
    }
    this.done = true;
    this.whole = null;
  }
}

function* readFile(ctx: Context, source: RibSource, file: string, depth: number): Generator<ReaderRequest, SourcePosition, ReaderAnswer> {
  const lexer = new RibLexer(new Uint8Array(0), file, ctx.builder.onStructureComment, true);
  const input = new FileInput(source, lexer, ctx.diagnostics);
  const parser = new RibParser(lexer, ctx.diagnostics);
  for (;;) {
    const requests = parser.next();
    let step = requests.next();
    while (!step.done) {
      yield* input.refill();
      step = requests.next();
    }
    const req = step.value;
    if (req === null) break;
    const need = ctx.builder.apply(req);
    if (!need) continue;
    if (depth >= MAX_ARCHIVE_DEPTH) {
      ctx.diagnostics.error(need.pos, need.request, `archives nested deeper than ${MAX_ARCHIVE_DEPTH} (does "${need.fileName}" read itself?); not read`);
      continue;
    }
    const { paths, refused } = archiveCandidates(need.fileName, file, sceneSearchPaths(ctx), ctx.roots);
    let found: { path: string; data: RibSource } | null = null;
    for (const path of paths) {
      const data = (yield { kind: 'file', path, roots: ctx.roots }) as ResolvedFile;
      if (data !== undefined) { found = { path, data }; break; }
    }
    if (!found) {
      const message = paths.length === 0
        ? `archive "${need.fileName}" is outside the scene folder and the search paths (${refused.join(', ')}); not read`
        : `archive "${need.fileName}" not found (looked for ${paths.join(', ')})`;
      ctx.diagnostics.error(need.pos, need.request, message);
      continue;
    }
    if (need.isolated) ctx.builder.beginIsolated(need.pos);
    yield* readFile(ctx, found.data, found.path, depth + 1);
    if (need.isolated) ctx.builder.endIsolated();
  }
  return { file, line: lexer.line, column: lexer.column };
}

/** The whole read as a generator of requests to its driver; returns the Scene. */
export function* readScene(input: RibSource, options: ReadOptions = {}): Generator<ReaderRequest, Scene, ReaderAnswer> {
  const fileName = options.fileName ?? '<input>';
  const diagnostics = new DiagnosticSink(options.maxDiagnostics);
  const builder = new SceneBuilder(diagnostics);
  const sceneDir = dirname(fileName);
  const searchPaths = (options.searchPaths ?? []).map((p) => joinPath(sceneDir, p));
  const ctx: Context = { builder, diagnostics, roots: [sceneDir, ...searchPaths].map(normalizePath), searchPaths, sceneDir };
  const end = yield* readFile(ctx, input, fileName, 0);
  return builder.finish(end);
}
