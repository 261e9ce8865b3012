/**
 * RIB front end: reads RenderMan Interface Bytestream scenes into a `Scene`.
 *
 * Data flows one way:
 *
 *     chunks ─▶ chunk-decoder (gunzip, incremental) ─▶ lexer (ASCII + binary tokens) ─▶ parser
 *     (requests, checked against the request table in requests.ts) ─▶ scene-builder (graphics
 *     state: options, attribute and transform stacks, lights, objects, motion) ─▶ Scene (scene.ts)
 *
 * - Input is streamed: a file arrives whole or as chunks (`parseRibStream`, `parseRibFile` in
 *   Node), gzip is inflated a slice at a time, and the lexer holds only the current chunk plus the
 *   token being read (a token cut by a chunk end is lexed again once the next chunk is there).
 *   The parser's methods are generators that pause where the lexer needs the next chunk.
 *
 * - `requests.ts` describes every RI 3.2 request once as data (arguments, parameter list,
 *   category); `scopes.ts` says where each category is valid. Parsing and checking are driven
 *   from these tables.
 * - `declarations.ts` and `param-typing.ts` type parameter lists (standard, Declare'd and inline
 *   declarations); `primitive-counts.ts` gives the value count of each storage class per
 *   primitive, against which primitive variables are checked.
 * - `reader.ts` runs the pipeline over a file and its archives as a generator that asks for
 *   files and chunks; `parseRib` (async) and `parseRibSync` drive it with a resolver. `archive-paths.ts`
 *   keeps every archive inside the scene folder and the search paths.
 * - Resolvers: `resolver.ts` (in-memory files, fetch of relative URLs: page and Node) and
 *   `resolver-node.ts` (disk, read in 1 MiB chunks, and `parseRibFile`; import it only in Node).
 *   A resolver may answer with bytes, text, or chunks.
 * - Bad input never throws: each problem becomes a Diagnostic (file, line, column, request,
 *   message) in `scene.errors` or `scene.warnings`, the request is skipped, reading goes on.
 */

import type { ByteChunks, RibSource } from './input-bytes.ts';
import { readScene } from './reader.ts';
import type { ChunkAnswer, ReadOptions, ReaderAnswer, ReaderRequest } from './reader.ts';
import type { RibResolver } from './resolver.ts';
import type { Scene } from './scene.ts';

export interface ParseOptions extends ReadOptions {
  /** Where ReadArchive and DelayedReadArchive find files; without one, archives are reported missing. */
  resolver?: RibResolver;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A chunk as the reader wants it: bytes (a stream of text or ArrayBuffers is accepted too). */
function chunkAnswer(step: IteratorResult<unknown>): ChunkAnswer {
  if (step.done) return null;
  const v = step.value;
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return new TextEncoder().encode(v);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return { error: 'the stream gave something other than bytes' };
}

async function answer(request: ReaderRequest, options: ParseOptions): Promise<ReaderAnswer> {
  if (request.kind === 'file') return options.resolver ? await options.resolver.read(request.path, request.roots) : undefined;
  try {
    return chunkAnswer(await request.chunks.next());
  } catch (e) {
    return { error: errorText(e) };
  }
}

function answerSync(request: ReaderRequest, options: ParseOptions): ReaderAnswer {
  if (request.kind === 'file') {
    const file = options.resolver?.read(request.path, request.roots);
    if (!(file instanceof Promise)) return file;
    file.catch(() => undefined);
    return undefined;
  }
  try {
    const step = request.chunks.next();
    if (!(step instanceof Promise)) return chunkAnswer(step);
    step.catch(() => undefined);
    return { error: 'an asynchronous stream needs parseRib, not parseRibSync' };
  } catch (e) {
    return { error: errorText(e) };
  }
}

/**
 * Parses a RIB scene, reading archives through the resolver. The input is text, bytes (plain or
 * gzip), or a stream of chunks, which is read one chunk at a time (see parseRibStream).
 */
export async function parseRib(input: RibSource, options: ParseOptions = {}): Promise<Scene> {
  const reader = readScene(input, options);
  let step = reader.next();
  while (!step.done) step = reader.next(await answer(step.value, options));
  return step.value;
}

/**
 * Parses a RIB file given as a stream of chunks (plain or gzip; a Node read stream, a fetch
 * body, a generator): only the current chunk and the token being read are held, never the file.
 */
export function parseRibStream(chunks: ByteChunks, options: ParseOptions = {}): Promise<Scene> {
  return parseRib(chunks, options);
}

/**
 * The synchronous form, for tests and in-memory scenes. The resolver and any streams must
 * answer synchronously; a file answered with a promise counts as missing.
 */
export function parseRibSync(input: RibSource, options: ParseOptions = {}): Scene {
  const reader = readScene(input, options);
  let step = reader.next();
  while (!step.done) step = reader.next(answerSync(step.value, options));
  return step.value;
}

export { readScene } from './reader.ts';
export type { ChunkAnswer, ChunkRequest, FileRequest, ReadOptions, ReaderAnswer, ReaderRequest } from './reader.ts';
export { RibLexer, tokenize } from './lexer.ts';
export type { Token, TokenKind } from './lexer.ts';
export { ChunkDecoder } from './chunk-decoder.ts';
export { RibParser } from './parser.ts';
export type { ArgValue, NeedInput, RawParam, RibRequest } from './parser.ts';
export { SceneBuilder } from './scene-builder.ts';
export { DiagnosticSink, formatDiagnostic } from './diagnostics.ts';
export type { Diagnostic, Severity, SourcePosition } from './diagnostics.ts';
export { REQUESTS } from './requests.ts';
export type { ArgKind, ArgSpec, RequestCategory, RequestDef } from './requests.ts';
export { STANDARD_DECLARATIONS, parseDeclaration, valuesPerElement } from './declarations.ts';
export type { Declaration, StorageClass, ValueType } from './declarations.ts';
export { storageCounts } from './primitive-counts.ts';
export { findParameter } from './param-typing.ts';
export { createMemoryResolver, createFetchResolver, chainResolvers } from './resolver.ts';
export type { RibResolver, ResolvedFile } from './resolver.ts';
export { isGzip, ribBytes } from './input-bytes.ts';
export type { ByteChunks, RibInput, RibSource } from './input-bytes.ts';
export type * from './scene.ts';
