/**
 * RIB front end: reads RenderMan Interface Bytestream scenes into a `Scene`.
 *
 * Data flows one way:
 *
 *     bytes ─▶ input-bytes (gunzip) ─▶ lexer (ASCII + binary tokens) ─▶ parser (requests,
 *     checked against the request table in requests.ts) ─▶ scene-builder (graphics state:
 *     options, attribute and transform stacks, lights, objects, motion) ─▶ Scene (scene.ts)
 *
 * - `requests.ts` describes every RI 3.2 request once as data (arguments, parameter list,
 *   category); `scopes.ts` says where each category is valid. Parsing and checking are driven
 *   from these tables.
 * - `declarations.ts` and `param-typing.ts` type parameter lists (standard, Declare'd and inline
 *   declarations); `primitive-counts.ts` gives the value count of each storage class per
 *   primitive, against which primitive variables are checked.
 * - `reader.ts` runs the pipeline over a file and its archives as a generator that asks for
 *   files; `parseRib` (async) and `parseRibSync` drive it with a resolver. `archive-paths.ts`
 *   keeps every archive inside the scene folder and the search paths.
 * - Resolvers: `resolver.ts` (in-memory files, fetch of relative URLs: page and Node) and
 *   `resolver-node.ts` (disk; import it only in Node).
 * - Bad input never throws: each problem becomes a Diagnostic (file, line, column, request,
 *   message) in `scene.errors` or `scene.warnings`, the request is skipped, reading goes on.
 */

import type { RibInput } from './input-bytes.ts';
import { readScene } from './reader.ts';
import type { ReadOptions } from './reader.ts';
import type { RibResolver } from './resolver.ts';
import type { Scene } from './scene.ts';

export interface ParseOptions extends ReadOptions {
  /** Where ReadArchive and DelayedReadArchive find files; without one, archives are reported missing. */
  resolver?: RibResolver;
}

/** Parses a RIB scene (text, bytes, or gzip-compressed bytes), reading archives through the resolver. */
export async function parseRib(input: RibInput, options: ParseOptions = {}): Promise<Scene> {
  const reader = readScene(input, options);
  let step = reader.next();
  while (!step.done) {
    const file = options.resolver ? await options.resolver.read(step.value.path, step.value.roots) : undefined;
    step = reader.next(file);
  }
  return step.value;
}

/**
 * The synchronous form, for tests and in-memory scenes. The resolver must answer synchronously;
 * a file it answers with a promise counts as missing.
 */
export function parseRibSync(input: RibInput, options: ParseOptions = {}): Scene {
  const reader = readScene(input, options);
  let step = reader.next();
  while (!step.done) {
    const file = options.resolver?.read(step.value.path, step.value.roots);
    step = reader.next(file instanceof Promise ? undefined : file);
  }
  return step.value;
}

export { readScene } from './reader.ts';
export type { FileRequest, ReadOptions } from './reader.ts';
export { RibLexer, tokenize } from './lexer.ts';
export type { Token, TokenKind } from './lexer.ts';
export { RibParser } from './parser.ts';
export type { ArgValue, RawParam, RibRequest } from './parser.ts';
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
export type { RibInput } from './input-bytes.ts';
export type * from './scene.ts';
