// A stray quote in a big RIB is an error at the quote, and costs neither the whole rest of the
// file in memory nor a rescan of it at every chunk: no string is longer than MAX_STRING_BYTES.
import { describe, expect, it } from 'vitest';
import { MAX_STRING_BYTES, RibLexer } from '../../src/rib/lexer.ts';
import { parseRibStream } from '../../src/rib/index.ts';

const encoder = new TextEncoder();
const FILLER = 'Sphere 1 -1 1 360 # filler\n';

/** `head`, then `bytes` bytes of filler lines, in 64 KiB chunks. */
function* chunks(head: string, bytes: number): Generator<Uint8Array> {
  const block = encoder.encode(FILLER.repeat(Math.ceil((64 * 1024) / FILLER.length)));
  yield encoder.encode(head);
  for (let sent = 0; sent < bytes; sent += block.length) yield block;
}

describe('an unterminated string in a big file', () => {
  it('is reported at its opening quote after at most MAX_STRING_BYTES held, and lexing goes on at the next line', () => {
    const lexer = new RibLexer(new Uint8Array(0), 'big.rib', undefined, true);
    const source = chunks('WorldBegin\nAttribute "identifier" "name" "oops\n', 24 << 20);
    let maxBuffered = 0;
    let names = 0;
    const bad: [number, number, string][] = [];
    const start = performance.now();
    for (let kind = lexer.next(); kind !== 'eof'; kind = lexer.next()) {
      if (kind === 'name') names++;
      if (kind === 'bad') bad.push([lexer.line, lexer.column, lexer.text]);
      if (kind !== 'more') continue;
      const step = source.next();
      if (step.done) lexer.end();
      else lexer.feed(step.value);
      maxBuffered = Math.max(maxBuffered, lexer.buffered);
    }
    expect(bad).toEqual([[2, 31, 'unterminated string (no closing quote within 1 MiB)']]);
    expect(maxBuffered).toBeLessThan(4 * MAX_STRING_BYTES);
    // Every filler line after the quote's line is read: WorldBegin, Attribute and the Spheres.
    const linesPerBlock = Math.ceil((64 * 1024) / FILLER.length);
    expect(names).toBe(2 + Math.ceil((24 << 20) / (linesPerBlock * FILLER.length)) * linesPerBlock);
    expect(performance.now() - start).toBeLessThan(20_000);
  });

  it('is one positioned error through the parser, and the requests after it are read', async () => {
    const scene = await parseRibStream(chunks('WorldBegin\nAttribute "identifier" "name" "oops\n', 2 << 20), { fileName: 'big.rib' });
    expect(scene.errors.slice(0, 1).map((e) => [e.line, e.column, e.message])).toEqual([[2, 31, 'unterminated string (no closing quote within 1 MiB)']]);
    expect(scene.frames[0]!.primitives.length).toBeGreaterThan((2 << 20) / FILLER.length - 10);
  });
});
