// Packing shader and light parameter values into the GPU parameter block, following the layout the
// compiler returned: the page edits values here and never recompiles.
import type { CompiledPipeline } from './compile.ts';

/**
 * One parameter block: defaults, with `overrides` by "instance.name" (e.g. "light0.intensity") or by
 * plain name (every instance with that parameter). Strings are stored as their tokens.
 */
export function packParameters(compiled: Pick<CompiledPipeline, 'params' | 'strings'>, overrides: Record<string, number[] | string> = {}): Float32Array {
  const block = new Float32Array(compiled.params.blockBytes / 4);
  const words = new Uint32Array(block.buffer);
  for (const entry of compiled.params.entries) {
    const value = overrides[`${entry.instance}.${entry.name}`] ?? overrides[entry.name] ?? entry.default;
    const at = entry.offset / 4;
    if (typeof value === 'string') {
      const token = compiled.strings.indexOf(value);
      // A string the shaders never mention cannot equal any of theirs: give it a fresh token.
      words[at] = token >= 0 ? token : compiled.strings.length;
    } else block.set(value, at);
  }
  return block;
}
