// Streamed input: the same tokens, positions and scenes however the input is cut into chunks,
// gzip inflated incrementally, and input buffering bounded by the chunk plus the token at hand.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunkDecoder, RibLexer, parseRib, parseRibStream, parseRibSync, tokenize } from '../../src/rib/index.ts';
import type { SourcePosition } from '../../src/rib/index.ts';
import { parseRibFile, readFileChunks } from '../../src/rib/resolver-node.ts';
import { BinaryRibWriter } from './binary-rib.ts';

const text = (s: string) => new TextEncoder().encode(s);

function* chunksOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

/** Cuts at seeded pseudo-random places, sizes 1..max. */
function* randomChunks(bytes: Uint8Array, seed: number, max: number): Generator<Uint8Array> {
  let s = seed;
  for (let i = 0; i < bytes.length;) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const n = 1 + (s % max);
    yield bytes.slice(i, i + n);
    i += n;
  }
}

// Every token kind, with the awkward cases at every possible cut: escapes (octal ones too),
// multi-line strings, line continuations, CRLF, comments, bad tokens, binary numbers, strings,
// definitions and float arrays, and an unterminated string at the very end.
const MIXED = new BinaryRibWriter()
  .ascii('##RenderMan RIB\r\n# comment\nFormat 640 480 -1.5e-3\nSurface "plastic" "Kd" [.5] "s" "a\\"b\\\\c\\n\\101\\7x"\n')
  .ascii('Attribute "user" "string note" "two\nlines \\\nvanish" 12abc -x { 1.2.3 +7 1e300 3.14159265358979323846\n')
  .defineRequest(3, 'Sphere').request(3).int(1, 1).int(200, 1).int(-5, 4).fixed(1.5, 2, 1).float32(360).float64(0.1)
  .defineString(300, 'a defined string over 16').raw(0xcd + 1, 1, 44).string('two-byte token').stringRef(300).raw(0xd0, 1, 44)
  .string('a long binary string, longer than sixteen bytes').floatArray([1, 2.5, -3])
  .ascii('\nWorldBegin\n"unterminated\nWorldEnd')
  .toBytes();

describe('chunked lexing', () => {
  const whole = tokenize(MIXED);

  it('has a token of every kind to compare', () => {
    const kinds = new Set(whole.map((t) => t.kind));
    expect([...kinds].sort()).toEqual(['bad', 'close', 'eof', 'floats', 'name', 'number', 'open', 'string']);
    expect(whole.filter((t) => t.kind === 'bad').map((t) => t.value)).toEqual([
      "bad number '12abc'", "bad number '-x'", "unexpected characters '{'", "bad number '1.2.3'", 'unterminated string',
    ]);
  });

  it.each([1, 2, 3, 7, 64])('gives the same tokens and positions in chunks of %i bytes', (size) => {
    expect(tokenize(chunksOf(MIXED, size))).toEqual(whole);
  });

  it('gives the same tokens for random cuts', () => {
    for (let seed = 1; seed <= 40; seed++) expect(tokenize(randomChunks(MIXED, seed, 13))).toEqual(whole);
  });

  it('reports a structure comment once, at the same place, however it is cut', () => {
    const seen = (chunked: boolean, size: number) => {
      const got: Array<[string, SourcePosition]> = [];
      const bytes = text('Display "x" "file" "rgb"\n##Shaders PIXAR\nWorldBegin\n');
      const lexer = new RibLexer(chunked ? new Uint8Array(0) : bytes, 'a.rib', (t, p) => got.push([t, p]), chunked);
      const chunks = chunksOf(bytes, size);
      for (let kind = lexer.next(); kind !== 'eof'; kind = lexer.next()) {
        if (kind !== 'more') continue;
        const step = chunks.next();
        if (step.done) lexer.end();
        else lexer.feed(step.value);
      }
      return got;
    };
    const expected = [['Shaders PIXAR', { file: 'a.rib', line: 2, column: 1 }]];
    expect(seen(false, 0)).toEqual(expected);
    for (const size of [1, 2, 5]) expect(seen(true, size)).toEqual(expected);
  });

  it('holds only the chunk and the token in progress', () => {
    const numbers = text(Array.from({ length: 400_000 }, (_, i) => (i * 0.37).toFixed(3)).join(' ') + '\n');
    const chunk = 64 * 1024;
    const lexer = new RibLexer(new Uint8Array(0), 'big.rib', undefined, true);
    const chunks = chunksOf(numbers, chunk);
    let maxBuffered = 0;
    let count = 0;
    for (let kind = lexer.next(); kind !== 'eof'; kind = lexer.next()) {
      if (kind === 'number') count++;
      if (kind !== 'more') continue;
      const step = chunks.next();
      if (step.done) lexer.end();
      else lexer.feed(step.value);
      maxBuffered = Math.max(maxBuffered, lexer.buffered);
    }
    expect(count).toBe(400_000);
    expect(numbers.length).toBeGreaterThan(40 * chunk);
    // A chunk plus the few bytes of a number cut by its end, with the spare buffer's slack.
    expect(maxBuffered).toBeLessThanOrEqual(chunk * 1.25 + 64);
  });

  it('gathers a long token over many small chunks in linear time', () => {
    const long = 'x'.repeat(200_000);
    const bytes = text(`"${long}" 1`);
    const start = performance.now();
    const tokens = tokenize(chunksOf(bytes, 16));
    expect(tokens.map((t) => t.kind)).toEqual(['string', 'number', 'eof']);
    expect(tokens[0]!.value).toBe(long);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});

describe('array fast path', () => {
  it('reads numbers in arrays exactly as single tokens, in every form and across chunk ends', () => {
    const forms = '0 -0 7 -12 3.25 -0.5 .5 5. 1e3 +4 123456789012345678 0.1234567890123456789 1.5E-2\t9\r\n-1';
    const expected = tokenize(text(forms)).filter((t) => t.kind === 'number').map((t) => t.value);
    const rib = text(`WorldBegin\nPoints "P" [${forms} 0 0 0]\nWorldEnd\n`);
    for (const input of [rib, chunksOf(rib, 3), chunksOf(rib, 11)]) {
      const scene = parseRibSync(input);
      const values = scene.frames[0]!.primitives[0]!.geometry.params.find((p) => p.name === 'P')!.values;
      expect(values.slice(0, -3)).toEqual(expected);
    }
  });
});

describe('binary encoding (RI 3.2 Appendix C)', () => {
  const decode = (...bytes: number[]) => tokenize(new Uint8Array(bytes)).map((t) => t.value ?? t.kind);

  it('reads integers as 32-bit RtInt: short forms unsigned, four bytes two\'s complement', () => {
    expect(decode(0x80, 0xc8)).toEqual([200, 'eof']);
    expect(decode(0x81, 0xff, 0xff)).toEqual([65535, 'eof']);
    expect(decode(0x82, 0x80, 0x00, 0x00)).toEqual([8388608, 'eof']);
    expect(decode(0x83, 0xff, 0xff, 0xff, 0xff)).toEqual([-1, 'eof']);
    expect(decode(0x83, 0x7f, 0xff, 0xff, 0xff)).toEqual([2147483647, 'eof']);
  });

  it('reads fixed point with d bytes after the binary point (0200 + 4d + w)', () => {
    expect(decode(0x85, 0x01, 0x80)).toEqual([1.5, 'eof']); // b.b
    expect(decode(0x84, 0x40)).toEqual([0.25, 'eof']); // .b
    expect(decode(0x88, 0x80)).toEqual([0.5 / 256, 'eof']); // ._b
    expect(decode(0x8c, 0x80)).toEqual([0.5 / 65536, 'eof']); // .__b
    expect(decode(0x8f, 0x01, 0x00, 0x00, 0x00)).toEqual([1, 'eof']); // b.bbb
    expect(decode(0x87, 0xff, 0xff, 0xff, 0x80)).toEqual([-0.5, 'eof']); // bbb.b, negative
  });

  it('refuses an empty request name, and definitions whose string is missing', () => {
    expect(decode(0xcc, 1, 0x90)[0]).toBe('binary request definition with an empty name');
    expect(decode(0xcc, 1, 0x80, 1)[0]).toBe('binary request definition lacks its string');
    expect(decode(0xcd, 1)[0]).toBe('binary string definition lacks its string');
  });
});

describe('streamed gzip', () => {
  const rib = text(Array.from({ length: 50_000 }, (_, i) => `Translate ${i} ${i * 0.5} -${i}.25\n`).join(''));
  const gz = gzipSync(rib);

  it('inflates lazily: a large compressed chunk comes out in small pieces', () => {
    expect(gz.length).toBeGreaterThan(200_000);
    const decoder = new ChunkDecoder();
    decoder.give(gz);
    let total = 0;
    let largest = 0;
    for (let out = decoder.take(); out !== null; out = decoder.take()) {
      if (out === undefined) { decoder.give(null); continue; }
      total += out.length;
      largest = Math.max(largest, out.length);
    }
    expect(total).toBe(rib.length);
    expect(largest).toBeLessThan(256 * 1024);
    expect(decoder.error).toBeNull();
  });

  it('parses gzip in chunks of any size into the same scene', () => {
    const reference = parseRibSync(rib);
    expect(reference.errors).toEqual([]);
    for (const size of [2, 1000]) {
      const scene = parseRibSync(chunksOf(gz, size));
      expect(scene).toEqual(reference);
    }
  });

  it('reports a truncated gzip stream after parsing what came before', () => {
    const scene = parseRibSync(chunksOf(gzipSync(text('WorldBegin\nSphere 1 -1 1 360\n' + ' '.repeat(100_000) + 'WorldEnd\n')).slice(0, -30), 5), { fileName: 'cut.rib.gz' });
    expect(scene.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/^corrupt gzip data/));
  });

  it('stops reading a corrupt gzip stream and closes it', () => {
    let closed = false;
    let pulled = 0;
    const bad = gz.slice();
    bad.fill(0xff, 20, 200);
    function* source(): Generator<Uint8Array> {
      try {
        for (const c of chunksOf(bad, 100)) { pulled++; yield c; }
      } finally { closed = true; }
    }
    const scene = parseRibSync(source());
    expect(scene.errors[0]!.message).toMatch(/^corrupt gzip data/);
    expect(closed).toBe(true);
    expect(pulled).toBeLessThan(bad.length / 100);
  });
});

describe('stream entry points', () => {
  const sceneText = 'Format 64 48 1\nWorldBegin\nReadArchive "part.rib.gz"\nSphere 1 -1 1 360\nWorldEnd\n';
  const dir = mkdtempSync(join(tmpdir(), 'rib-stream-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'main.rib'), sceneText);
  writeFileSync(join(dir, 'main.rib.gz'), gzipSync(text(sceneText)));
  writeFileSync(join(dir, 'part.rib.gz'), gzipSync(text('Disk 0 1 360\n')));

  it('parseRibStream reads an async stream', async () => {
    async function* slow(): AsyncGenerator<Uint8Array> {
      for (const c of chunksOf(text(sceneText.replace('ReadArchive "part.rib.gz"\n', '')), 4)) {
        await new Promise((r) => setTimeout(r, 0));
        yield c;
      }
    }
    const scene = await parseRibStream(slow(), { fileName: 's.rib' });
    expect(scene.errors).toEqual([]);
    expect(scene.frames[0]!.primitives.map((p) => p.geometry.type)).toEqual(['Sphere']);
  });

  it('reports a stream that fails part way, and an async stream given to parseRibSync', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield text('WorldBegin\nSphere 1 -1 1 360\n');
      throw new Error('disk on fire');
    }
    const scene = await parseRibStream(failing(), { fileName: 'f.rib' });
    expect(scene.errors.map((e) => e.message)).toContain('cannot read: disk on fire');
    expect(scene.frames[0]!.primitives).toHaveLength(1);
    const sync = parseRibSync(failing(), { fileName: 'f.rib' });
    expect(sync.errors[0]!.message).toBe('cannot read: an asynchronous stream needs parseRib, not parseRibSync');
  });

  it('parseRibFile streams plain and gzip files from disk, archives included', async () => {
    for (const name of ['main.rib', 'main.rib.gz']) {
      const scene = await parseRibFile(join(dir, name));
      expect(scene.errors).toEqual([]);
      expect(scene.frames[0]!.primitives.map((p) => [p.geometry.type, p.source.file])).toEqual([
        ['Disk', join(dir, 'part.rib.gz')], ['Sphere', join(dir, name)],
      ]);
    }
    await expect(parseRibFile(join(dir, 'missing.rib'))).rejects.toThrow(/ENOENT/);
  });

  it('readFileChunks reads a file in chunks of the given size', () => {
    const sizes = [...readFileChunks(join(dir, 'main.rib'), 16)].map((c) => c.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(sceneText.length);
    expect(sizes.slice(0, -1).every((n) => n === 16)).toBe(true);
  });

  it('parses every ribtools scene the same in 7-byte chunks as whole', () => {
    for (const f of readdirSync('scenes/ribtools').filter((n) => n.endsWith('.rib')).slice(0, 6)) {
      const bytes = new Uint8Array(readFileSync(`scenes/ribtools/${f}`)).subarray(0, 200_000);
      expect(parseRibSync(chunksOf(bytes, 7), { fileName: f })).toEqual(parseRibSync(bytes, { fileName: f }));
    }
  });
});
