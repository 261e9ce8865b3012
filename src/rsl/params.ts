// Packing shader and light parameter values into the GPU parameter block, following the layout the
// compiler returned: the page edits values here and never recompiles.
import { invert4 } from '../layout/grid-layout.ts';
import type { CompiledPipeline } from './compile.ts';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/**
 * One parameter block: defaults, with `overrides` by "instance.name" (e.g. "light0.intensity") or by
 * plain name (every instance with that parameter). Strings are stored as their tokens.
 *
 * The space matrices (ParamLayout.spaceMatrices) take 16 numbers, space → current (camera),
 * column-major, by "surface.__shaderToCurrent", "light0.__shaderToCurrent", ... and
 * "__objectToCurrent" (or "object.__objectToCurrent"); the inverse is computed here. Absent ones are
 * the identity, i.e. that space is camera space.
 *
 * match() tables (ParamLayout.matchTables) are computed here from the strings the block holds.
 *
 * Texture lookups (ParamLayout.textures) get the atlas slot `textureSlot` gives for the map's name.
 *
 * attribute() values (ParamLayout.attributes) come by "attribute:NAME" (e.g. "attribute:ShadingRate",
 * "attribute:user:weight"): numbers, or a string; absent or of another shape, attribute() returns 0.
 */
export function packParameters(
  compiled: Pick<CompiledPipeline, 'params' | 'strings'>, overrides: Record<string, number[] | string> = {}, textureSlot?: (name: string) => number,
): Float32Array {
  const block = new Float32Array(compiled.params.blockBytes / 4);
  const words = new Uint32Array(block.buffer);
  // A string the shaders never mention cannot equal any of theirs: it gets a fresh token, one per text.
  const fresh = new Map<string, number>();
  const tokenOf = (text: string): number => {
    const token = compiled.strings.indexOf(text);
    if (token >= 0) return token;
    if (!fresh.has(text)) fresh.set(text, compiled.strings.length + fresh.size);
    return fresh.get(text)!;
  };
  for (const entry of compiled.params.entries) {
    const value = overrides[`${entry.instance}.${entry.name}`] ?? overrides[entry.name] ?? entry.default;
    const at = entry.offset / 4;
    if (typeof value === 'string') {
      words[at] = tokenOf(value);
    } else block.set(value, at);
  }
  // attribute() queries: "attribute:NAME" gives the primitive's value (numbers or a string); the kernel
  // sees it (has = 1) only when it has the shape the shader asked for, else has = 0.
  for (const entry of compiled.params.attributes ?? []) {
    const value = overrides[`attribute:${entry.name}`];
    const at = entry.offset / 4;
    const count = (entry.type === 'matrix' ? 16 : entry.type === 'float' || entry.type === 'string' ? 1 : 3) * (entry.arrayLength ?? 1);
    block[at] = 0;
    if (typeof value === 'string') {
      if (entry.type !== 'string' || entry.arrayLength !== undefined) continue;
      words[at + 1] = tokenOf(value);
      block[at] = 1;
    } else if (value !== undefined && entry.type !== 'string' && value.length === count) {
      block.set(value, at + 1);
      block[at] = 1;
    }
  }
  // match() tables: the result for every token, the pipeline's strings and the fresh ones above.
  const texts = [...compiled.strings];
  for (const [text, token] of fresh) texts[token] = text;
  for (const table of compiled.params.matchTables ?? []) {
    const pattern = new RegExp(table.pattern);
    const at = table.offset / 4;
    words[at] = table.tableOffset / 4;
    words[at + 1] = table.tableLength;
    block[at + 2] = 0;
    for (let token = 0; token < table.tableLength; token++) {
      const text = texts[token];
      block[table.tableOffset / 4 + token] = text !== undefined && pattern.test(text) ? 1 : 0;
    }
  }
  // Texture maps: the slot `textureSlot` gives the name (the constant, or the parameter's value), -1 for none.
  for (const entry of compiled.params.textures ?? []) {
    const value = entry.name ?? overrides[`${entry.instance}.${entry.param}`] ?? overrides[entry.param!] ??
      compiled.params.entries.find((p) => p.instance === entry.instance && p.name === entry.param)?.default;
    block[entry.offset / 4] = typeof value === 'string' && value !== '' && textureSlot ? textureSlot(value) : -1;
  }
  for (const entry of compiled.params.spaceMatrices ?? []) {
    const given = overrides[`${entry.instance}.${entry.name}`] ?? overrides[entry.name];
    const m = Array.isArray(given) && given.length === 16 ? given : IDENTITY;
    block.set(m, entry.offset / 4);
    // Invert what the kernel will read (f32), so both matrices agree.
    block.set(invert4(Array.from(m, Math.fround)), entry.offset / 4 + 16);
  }
  return block;
}
