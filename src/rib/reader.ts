// Drives lexer → parser → scene builder over a file and the archives it reads. Written as a
// generator that yields what it needs from outside, so the same code serves a synchronous
// caller (tests, in-memory files) and an asynchronous one (fetch, disk streams) without
// duplicating the reading logic. It asks for two things:
// - { kind: 'file' }: the contents of an archive path (bytes, text, a chunk stream, undefined);
// - { kind: 'chunk' }: the next raw chunk of a streamed file (null at its end).
// A streamed file is held one chunk at a time: raw chunk → ChunkDecoder (gunzip, lazily) →
// lexer (current chunk + the token in progress) → parser → scene builder.
// An archive is read and parsed once: its requests are kept (up to a size cap) and replayed on
// every later ReadArchive or DelayedReadArchive of the same file, under the graphics state of
// that call. An archive that reads itself (directly or through others) is refused at the request,
// and the total of requests archives bring in is bounded, so two lines reading a file twice over
// cannot expand to billions of requests.

import { archiveCandidates, dirname, isInside, joinPath, normalizePath } from './archive-paths.ts';
import { DiagnosticSink } from './diagnostics.ts';
import type { SourcePosition } from './diagnostics.ts';
import { ChunkDecoder } from './chunk-decoder.ts';
import type { ByteChunks, RibInput, RibSource } from './input-bytes.ts';
import { RibLexer } from './lexer.ts';
import { RibParser } from './parser.ts';
import type { ArchiveNeed } from './scene-builder.ts';
import type { RibRequest } from './parser.ts';
import type { ResolvedFile } from './resolver.ts';
import { findParameter } from './param-typing.ts';
import { SceneBuilder } from './scene-builder.ts';
import type { Scene } from './scene.ts';
import { expandDefaults, searchPathEntries } from './search-paths.ts';

export interface ReadOptions {
  /** Name of the scene file, used in messages and as the base for archive paths. */
  fileName?: string;
  /** Extra folders to look for archives in; relative ones are taken from the scene's folder. */
  searchPaths?: readonly string[];
  /** Folders besides the scene's that shaders may be read from (--shader-path): an Option
   * "searchpath" "shader" entry outside them and the scene's folder gets a warning at the Option,
   * as the shader lookup will not search it. Relative ones are taken from the scene's folder. */
  shaderSearchPaths?: readonly string[];
  /** Most diagnostics of each severity kept (default 1000). */
  maxDiagnostics?: number;
  /** Most requests all archives together may bring in (default MAX_ARCHIVE_REQUESTS). */
  maxArchiveRequests?: number;
  /** Read the input as an archive fragment: inside an implicit world block (Scene.frames[0]). */
  fragment?: boolean;
  /** Leave unread a DelayedReadArchive whose bound is off screen for the RIB's camera (default
   * true). Pass false where the camera may still move (an interactive viewer). */
  skipOffScreenArchives?: boolean;
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
/** Requests archives may bring in, all reads and replays together: far more than a scene's
 * instancing needs, far less than an archive bomb (2^32 reads from two lines) makes. */
export const MAX_ARCHIVE_REQUESTS = 10_000_000;
/** Most numbers kept from one archive for replay; a bigger archive is streamed again at each call. */
const MAX_CACHED_VALUES = 1 << 24;

/** What is known of an archive path: its requests, that it is not there, or too big to keep. */
type ArchiveEntry = { requests: RibRequest[] } | 'missing' | 'uncached';

interface Context {
  builder: SceneBuilder;
  diagnostics: DiagnosticSink;
  roots: string[];
  /** Where shaders may come from: the scene's folder and ReadOptions.shaderSearchPaths. */
  shaderRoots: string[];
  /** The default archive search path: the scene's folder, then the configured folders. */
  defaultSearchPath: string[];
  sceneDir: string;
  archives: Map<string, ArchiveEntry>;
  /** The archives being read, outermost first (the scene file before them): a cycle is refused. */
  reading: string[];
  /** Requests archives have brought in so far, and the most they may. */
  archiveRequests: number;
  maxArchiveRequests: number;
  /** Per kind ("archive", "shader"), the searchpath value last checked against its roots (each value is checked once). */
  checkedSearchPath: Map<string, string>;
}

/** The archive search path: the scene's Option "searchpath" "archive" ("&", "@": the default). */
function archiveSearchPath(ctx: Context): string[] {
  const option = ctx.builder.optionValue('searchpath');
  const param = option ? findParameter(option, 'archive') : undefined;
  const text = param ? (param.values as string[])[0] : undefined;
  if (text === undefined) return ctx.defaultSearchPath;
  return expandDefaults(text, ctx.defaultSearchPath, (entry) => joinPath(ctx.sceneDir, entry));
}

/** Warns, at the Option, about archive and shader search path folders outside every root: nothing there is read. */
function checkSearchPathOption(ctx: Context, req: RibRequest): void {
  if (req.name !== 'Option' || req.args[0] !== 'searchpath') return;
  for (const [kind, roots] of [['archive', ctx.roots], ['shader', ctx.shaderRoots]] as const) {
    const param = findParameter(ctx.builder.optionValue('searchpath') ?? [], kind);
    const text = param ? (param.values as string[])[0] : undefined;
    if (text === undefined || text === ctx.checkedSearchPath.get(kind)) continue;
    ctx.checkedSearchPath.set(kind, text);
    const outside = searchPathEntries(text).filter((e) => e !== '&' && e !== '@')
      .map((e) => joinPath(ctx.sceneDir, e)).filter((dir) => !roots.some((root) => isInside(root, dir)));
    if (outside.length > 0) {
      ctx.diagnostics.warning(req.pos, req.name, `${kind} search path ${outside.join(', ')} is outside the scene folder and the configured search paths; no ${kind} is read from there`);
    }
  }
}

/** Numbers a request holds, to bound what the archive cache keeps. */
function valueCount(req: RibRequest): number {
  let n = req.args.length;
  for (const a of req.args) if (Array.isArray(a)) n += a.length;
  for (const p of req.params) n += p.values.length;
  return n;
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

/** Reads one file, applying its requests; `record` (when given) receives them for replay. */
function* readFile(
  ctx: Context, source: RibSource, file: string, depth: number, record: RibRequest[] | null = null,
): Generator<ReaderRequest, { end: SourcePosition; recorded: boolean }, ReaderAnswer> {
  const lexer = new RibLexer(new Uint8Array(0), file, ctx.builder.onStructureComment, true);
  const input = new FileInput(source, lexer, ctx.diagnostics);
  const parser = new RibParser(lexer, ctx.diagnostics);
  let kept = 0;
  for (;;) {
    const requests = parser.next();
    let step = requests.next();
    while (!step.done) {
      yield* input.refill();
      step = requests.next();
    }
    const req = step.value;
    if (req === null) break;
    if (record) {
      kept += valueCount(req);
      if (kept <= MAX_CACHED_VALUES) record.push(req);
      else { record = null; }
    }
    yield* applyRequest(ctx, req, file, depth);
  }
  return { end: { file, line: lexer.line, column: lexer.column }, recorded: record !== null };
}

/** Applies one request, reading the archive it names. */
function* applyRequest(ctx: Context, req: RibRequest, file: string, depth: number): Generator<ReaderRequest, void, ReaderAnswer> {
  if (depth > 0 && ++ctx.archiveRequests > ctx.maxArchiveRequests) {
    if (ctx.archiveRequests === ctx.maxArchiveRequests + 1) {
      ctx.diagnostics.error(req.pos, req.name, `archives brought in more than ${ctx.maxArchiveRequests} requests (is an archive read over and over?); the rest of every archive is not read`);
    }
    return;
  }
  const need = ctx.builder.apply(req);
  checkSearchPathOption(ctx, req);
  if (need) yield* readArchive(ctx, need, file, depth);
}

/** Finds the archive a request names and applies its requests: replayed when read before. */
function* readArchive(ctx: Context, need: ArchiveNeed, file: string, depth: number): Generator<ReaderRequest, void, ReaderAnswer> {
  if (ctx.archiveRequests > ctx.maxArchiveRequests) return;
  if (depth >= MAX_ARCHIVE_DEPTH) {
    ctx.diagnostics.error(need.pos, need.request, `archives nested deeper than ${MAX_ARCHIVE_DEPTH} (does "${need.fileName}" read itself?); not read`);
    return;
  }
  const { paths, refused } = archiveCandidates(need.fileName, file, [ctx.sceneDir, ...archiveSearchPath(ctx)], ctx.roots);
  for (const path of paths) {
    const known = ctx.archives.get(path);
    if (known === 'missing') continue;
    if (ctx.reading.includes(path)) {
      const cycle = [...ctx.reading.slice(ctx.reading.indexOf(path)), path].join(' → ');
      ctx.diagnostics.error(need.pos, need.request, `archive "${need.fileName}" reads itself (${cycle}); not read`);
      return;
    }
    ctx.reading.push(path);
    try {
      if (known !== undefined && known !== 'uncached') {
        if (need.isolated) ctx.builder.beginIsolated(need.pos);
        for (const req of known.requests) yield* applyRequest(ctx, req, path, depth + 1);
        if (need.isolated) ctx.builder.endIsolated();
        return;
      }
      const data = (yield { kind: 'file', path, roots: ctx.roots }) as ResolvedFile;
      if (data === undefined) {
        ctx.archives.set(path, 'missing');
        continue;
      }
      const requests: RibRequest[] = [];
      if (need.isolated) ctx.builder.beginIsolated(need.pos);
      const { recorded } = yield* readFile(ctx, data, path, depth + 1, known === 'uncached' ? null : requests);
      if (need.isolated) ctx.builder.endIsolated();
      ctx.archives.set(path, recorded ? { requests } : 'uncached');
      return;
    } finally {
      ctx.reading.pop();
    }
  }
  const outside = refused.length > 0 ? `; refused ${refused.join(', ')}: outside the scene folder and the search paths` : '';
  const message = paths.length === 0
    ? `archive "${need.fileName}" is outside the scene folder and the search paths (${refused.join(', ')}); not read`
    : `archive "${need.fileName}" not found (looked for ${paths.join(', ')}${outside})`;
  ctx.diagnostics.error(need.pos, need.request, message);
}

/** The whole read as a generator of requests to its driver; returns the Scene. */
export function* readScene(input: RibSource, options: ReadOptions = {}): Generator<ReaderRequest, Scene, ReaderAnswer> {
  const fileName = options.fileName ?? '<input>';
  const diagnostics = new DiagnosticSink(options.maxDiagnostics);
  const builder = new SceneBuilder(diagnostics, { skipOffScreenArchives: options.skipOffScreenArchives ?? true });
  const sceneDir = dirname(fileName);
  const searchPaths = (options.searchPaths ?? []).map((p) => joinPath(sceneDir, p));
  const shaderRoots = [sceneDir, ...(options.shaderSearchPaths ?? []).map((p) => joinPath(sceneDir, p))].map(normalizePath);
  const ctx: Context = {
    builder, diagnostics, roots: [sceneDir, ...searchPaths].map(normalizePath), shaderRoots, defaultSearchPath: [sceneDir, ...searchPaths],
    sceneDir, archives: new Map(), checkedSearchPath: new Map(),
    reading: [normalizePath(fileName)], archiveRequests: 0, maxArchiveRequests: options.maxArchiveRequests ?? MAX_ARCHIVE_REQUESTS,
  };
  if (options.fragment) builder.beginFragment({ file: fileName, line: 1, column: 1 });
  const { end } = yield* readFile(ctx, input, fileName, 0);
  return builder.finish(end);
}
