// A kernel's WGSL cut down to what one entry point calls, before the WGSL compiler sees it. Dawn
// parses and resolves a module on the calling thread (on lavapipe 13 ms for the 85 KB sampling
// kernel) and, for every pipeline made from it, transforms the whole module again before dropping
// what the entry point does not use; a frame's kernels share large files of functions (the
// sampling kernel's four opaque-path entry points, bound/split's two), so most of what each
// pipeline made them parse and transform was never called. The functions no call chain from the
// entry point reaches are emptied, their lines left blank so the compiler's messages keep their
// line and column. Everything else (structs, constants, overrides, bindings) stays: pipeline
// constants name overrides, and the 'auto' layout takes only the bindings the entry point uses.

const FUNCTION = /^fn[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(/gm;
const CALL = /\b([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(/g;
/** Line comments, and block comments (nested ones end at their first close: matched again inside). */
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

/** A module's functions: where each is declared (with its attributes) and which of them it calls. */
interface CallGraph {
  functions: Map<string, { start: number; end: number; calls: string[] }>;
}

/** Call graphs of the sources pruned lately: a frame's kernels take several entry points of one source. */
const graphs = new Map<string, CallGraph | undefined>();
const GRAPHS_KEPT = 16;

/** `code` with the functions that `entryPoint` cannot reach emptied; unchanged where it has no such
 * entry point (the compiler then says so) or its braces do not balance. */
export function pruneToEntryPoint(code: string, entryPoint: string): string {
  const graph = callGraph(code);
  if (!graph?.functions.has(entryPoint)) return code;
  const reached = new Set<string>();
  const pending = [entryPoint];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (reached.has(name)) continue;
    reached.add(name);
    for (const callee of graph.functions.get(name)!.calls) if (!reached.has(callee)) pending.push(callee);
  }
  if (reached.size === graph.functions.size) return code;
  const parts: string[] = [];
  let at = 0;
  for (const [name, { start, end }] of graph.functions) {
    if (reached.has(name)) continue;
    parts.push(code.slice(at, start), '\n'.repeat(lineBreaks(code, start, end)));
    at = end;
  }
  parts.push(code.slice(at));
  return parts.join('');
}

function callGraph(code: string): CallGraph | undefined {
  if (graphs.has(code)) return graphs.get(code);
  const masked = code.replace(COMMENT, (comment) => (comment.startsWith('//') ? ' '.repeat(comment.length) : comment.replace(/[^\n]/g, ' ')));
  const functions: CallGraph['functions'] = new Map();
  let graph: CallGraph | undefined = { functions };
  for (const match of masked.matchAll(FUNCTION)) {
    const end = bodyEnd(masked, match.index);
    if (end < 0 || functions.has(match[1]!)) {
      graph = undefined;
      break;
    }
    functions.set(match[1]!, { start: withAttributes(masked, match.index), end, calls: [] });
  }
  for (const entry of graph ? functions.values() : []) {
    const calls = new Set<string>();
    for (const call of masked.slice(entry.start, entry.end).matchAll(CALL)) if (functions.has(call[1]!)) calls.add(call[1]!);
    entry.calls = [...calls];
  }
  if (graphs.size >= GRAPHS_KEPT) graphs.delete(graphs.keys().next().value!);
  graphs.set(code, graph);
  return graph;
}

function lineBreaks(code: string, start: number, end: number): number {
  let count = 0;
  for (let k = code.indexOf('\n', start); k >= 0 && k < end; k = code.indexOf('\n', k + 1)) count++;
  return count;
}

/** The index after the closing brace of the function declared at `start`, -1 if it has none. */
function bodyEnd(masked: string, start: number): number {
  const braces = /[{}]/g;
  braces.lastIndex = start;
  let depth = 0;
  for (let match = braces.exec(masked); match; match = braces.exec(masked)) {
    if (match[0] === '{') depth++;
    else if (--depth === 0) return braces.lastIndex;
  }
  return -1;
}

/** Where the declaration at `start` begins, taking in the attribute lines right above it
 * (`@compute @workgroup_size(64)`). */
function withAttributes(masked: string, start: number): number {
  let begin = start;
  while (begin > 0) {
    const lineStart = masked.lastIndexOf('\n', begin - 2) + 1;
    if (!/^[ \t]*@/.test(masked.slice(lineStart, begin - 1))) break;
    begin = lineStart;
  }
  return begin;
}
