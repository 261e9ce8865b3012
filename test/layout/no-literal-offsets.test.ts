// The GPU layouts are written once (src/layout/): no kernel declares a layout constant by hand or
// indexes a layout buffer with a literal stride or offset, and no TypeScript stage does piece or grid
// arithmetic with literal field offsets.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSTANT_LAYOUTS } from '../../src/layout/kernel-sources.ts';
import { constantName } from '../../src/layout/wgsl-constants.ts';

const root = join(import.meta.dirname, '../..');

function files(dir: string, ext: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(ext))
    .map((name) => join(dir, name));
}

/** `file:line: text` for every line of the files matching one of the patterns. */
function offending(paths: string[], patterns: RegExp[]): string[] {
  const found: string[] = [];
  for (const path of paths) {
    readFileSync(join(root, path), 'utf8').split('\n').forEach((line, k) => {
      if (patterns.some((p) => p.test(line))) found.push(`${path}:${k + 1}: ${line.trim()}`);
    });
  }
  return found;
}

const generated = new Set(
  Object.values(CONSTANT_LAYOUTS).flatMap((groups) => groups.flatMap((g) => Object.keys(g.values).map((key) => constantName(g, key)))),
);
const prefixes = [...new Set(Object.values(CONSTANT_LAYOUTS).flatMap((groups) => groups.map((g) => g.prefix)).filter((p) => p !== ''))];

describe('no GPU layout written by hand', () => {
  const kernels = files('shaders/kernels', '.wgsl');

  it('finds the kernels', () => {
    expect(kernels.length).toBeGreaterThan(10);
  });

  it('no kernel declares a layout constant', () => {
    const declared = offending(kernels, [
      new RegExp(`^\\s*const (${prefixes.join('|')})\\w+\\s*:`),
      { test: (line: string) => generated.has(/^\s*const (\w+)\s*:/.exec(line)?.[1] ?? '') } as RegExp,
    ]);
    expect(declared).toEqual([]);
  });

  it('no kernel indexes pieces, grid info, records or sample points with literal numbers', () => {
    const literal = offending(kernels, [
      /\b(readyList|queue|nextQueue)\[[^\]]*(\* \d+u|PIECE_WORDS \+ \d+u)/,
      /\bgridInfo\[[^\]]*(\* \d+u|GRID_INFO_WORDS \+ \d+u)/,
      /\bprims\[[^\]]*REC_FLOATS \+ \d+u\]/,
      /\b(keys|payload)\[[^\]]*\* \d+u/,
    ]);
    expect(literal).toEqual([]);
  });

  it('no TypeScript stage does piece or grid-info arithmetic with literal offsets', () => {
    const sources = files('src', '.ts').filter((path) => !path.startsWith(join('src', 'layout')));
    const literal = offending(sources, [
      /\bconst (REC|PIECE|GRID_INFO|SAMPLE_KEY|SAMPLE_PAYLOAD|SEAM)_\w+ = \d+;/,
      /\bPIECE_WORDS\b/,
      /\* PIECE\.words \+ \d/,
      /\bGRID_INFO(\.words)? \+ \d/,
    ]);
    expect(literal).toEqual([]);
  });
});
