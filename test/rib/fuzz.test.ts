// Mutation fuzzing of the scenes under scenes/: bytes flipped, cut, duplicated, tokens swapped.
// Whatever the damage, parsing must return a Scene (never throw), finish quickly, and the
// damage must be visible in the report. Seeded, so a failure reproduces.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const scenes = readdirSync('scenes/ribtools').filter((f) => f.endsWith('.rib')).map((f) => {
  const bytes = new Uint8Array(readFileSync(`scenes/ribtools/${f}`));
  // Large scenes are cut to their first 40 kB to keep the suite fast; the damage is what matters.
  return { name: f, bytes: bytes.subarray(0, 40_000) };
});

type Mutation = (b: Uint8Array, r: () => number) => Uint8Array;
const at = (b: Uint8Array, r: () => number) => Math.floor(r() * b.length);
const MUTATIONS: Record<string, Mutation> = {
  flip(b, r) {
    const out = b.slice();
    for (let i = 0; i < 1 + Math.floor(r() * 8); i++) out[at(b, r)] = Math.floor(r() * 256);
    return out;
  },
  cut(b, r) {
    return b.slice(0, at(b, r));
  },
  duplicate(b, r) {
    const from = at(b, r);
    const to = Math.min(b.length, from + Math.floor(r() * 2000));
    const insert = at(b, r);
    return new Uint8Array([...b.subarray(0, insert), ...b.subarray(from, to), ...b.subarray(insert)]);
  },
  swapTokens(b, r) {
    const tokens = new TextDecoder().decode(b).split(/(\s+)/);
    for (let k = 0; k < 4; k++) {
      const i = Math.floor(r() * tokens.length), j = Math.floor(r() * tokens.length);
      [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
    }
    return new TextEncoder().encode(tokens.join(''));
  },
};

describe('fuzz', () => {
  it.each(Object.keys(MUTATIONS))('%s: 60 mutated scenes each parse to a report without throwing', (kind) => {
    const random = mulberry32(kind.length * 7919);
    const mutate = MUTATIONS[kind]!;
    let damaged = 0;
    for (let i = 0; i < 60; i++) {
      const source = scenes[i % scenes.length]!;
      const input = mutate(source.bytes, random);
      const start = performance.now();
      const scene = parseRibSync(input, { fileName: source.name });
      const ms = performance.now() - start;
      expect(ms).toBeLessThan(2000);
      expect(Array.isArray(scene.frames) && Array.isArray(scene.errors) && Array.isArray(scene.warnings)).toBe(true);
      for (const d of [...scene.errors, ...scene.warnings]) {
        expect(d.file).toBe(source.name);
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeGreaterThanOrEqual(1);
        expect(d.message.length).toBeGreaterThan(0);
      }
      if (scene.errors.length > 0) damaged++;
    }
    // Most mutations break something, and the reports must say so.
    expect(damaged).toBeGreaterThan(10);
  });
});
