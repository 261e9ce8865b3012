import { describe, expect, it } from 'vitest';
import { pruneToEntryPoint } from '../../src/gpu/wgsl-prune.ts';
import { kernelSource } from '../../src/layout/kernel-sources.ts';

/** The names of the functions `code` still declares. */
function declared(code: string): string[] {
  return [...code.matchAll(/^fn\s+(\w+)/gm)].map((m) => m[1]!);
}

const SOURCE = `const K: u32 = 3u;
fn leaf(x: u32) -> u32 { return x * K; }
fn middle(x: u32) -> u32 {
  // a brace in a comment: }
  return leaf(x) + 1u;
}
/* a block comment /* nested */ with fn fake() { */
fn unused(x: u32) -> u32 { return middle(x); }
fn helperOfOther() {}
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@compute @workgroup_size(64)
fn first(@builtin(global_invocation_id) id: vec3u) { data[id.x] = middle(id.x); }
@compute
@workgroup_size(64)
fn second(@builtin(global_invocation_id) id: vec3u) { helperOfOther(); data[id.x] = leaf(id.x); }
`;

describe('pruneToEntryPoint', () => {
  it('keeps what the entry point calls, directly or not, and empties the rest', () => {
    expect(declared(pruneToEntryPoint(SOURCE, 'first'))).toEqual(['leaf', 'middle', 'first']);
    expect(declared(pruneToEntryPoint(SOURCE, 'second'))).toEqual(['leaf', 'helperOfOther', 'second']);
  });

  it('removes the other entry points with their attributes, and keeps declarations that are not functions', () => {
    const pruned = pruneToEntryPoint(SOURCE, 'first');
    expect(pruned.match(/@compute/g)).toHaveLength(1);
    expect(pruned.match(/@workgroup_size/g)).toHaveLength(1);
    expect(pruned).toContain('const K: u32 = 3u;');
    expect(pruned).toContain('var<storage, read_write> data');
    expect(pruned).toContain('/* a block comment /* nested */ with fn fake() { */');
  });

  it('keeps every line where it was, so compiler messages keep their positions', () => {
    const pruned = pruneToEntryPoint(SOURCE, 'second');
    const before = SOURCE.split('\n');
    const after = pruned.split('\n');
    expect(after).toHaveLength(before.length);
    after.forEach((line, k) => expect(line === '' || line === before[k]).toBe(true));
  });

  it('leaves a source alone when it lacks the entry point or its braces do not balance', () => {
    expect(pruneToEntryPoint(SOURCE, 'missing')).toBe(SOURCE);
    const unbalanced = 'fn a() { \n@compute @workgroup_size(1) fn main() { a(); }\nfn b() {}\n';
    expect(pruneToEntryPoint(unbalanced, 'main')).toBe(unbalanced);
  });

  it('cuts the opaque depth pass down from the whole sampling kernel', () => {
    const code = kernelSource('reyes-sample-pinhole.wgsl');
    const pruned = pruneToEntryPoint(code, 'opaqueDepth');
    const kept = declared(pruned);
    expect(kept).toContain('opaqueDepth');
    expect(kept).not.toContain('opaqueColour');
    expect(kept).not.toContain('writeSamples');
    expect(kept.length).toBeLessThan(declared(code).length);
  });
});
