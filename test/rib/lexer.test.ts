import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { RibLexer, parseRibSync, tokenize } from '../../src/rib/index.ts';
import type { SourcePosition } from '../../src/rib/index.ts';
import { BinaryRibWriter } from './binary-rib.ts';

const text = (s: string) => new TextEncoder().encode(s);
const values = (s: string) => tokenize(text(s)).map((t) => t.value ?? t.kind);

describe('ASCII lexer', () => {
  it('reads request names, strings, brackets with line and column', () => {
    const tokens = tokenize(text('Sphere 1 -1 1 360\n  Surface "plastic" "Kd" [0.5]\n'));
    expect(tokens.map((t) => [t.kind, t.value, t.line, t.column])).toEqual([
      ['name', 'Sphere', 1, 1], ['number', 1, 1, 8], ['number', -1, 1, 10], ['number', 1, 1, 13], ['number', 360, 1, 15],
      ['name', 'Surface', 2, 3], ['string', 'plastic', 2, 11], ['string', 'Kd', 2, 21],
      ['open', undefined, 2, 26], ['number', 0.5, 2, 27], ['close', undefined, 2, 30], ['eof', undefined, 3, 1],
    ]);
  });

  it('reads every number form RIB allows', () => {
    expect(values('1 -2 +3 .5 -.25 5. 1e3 1.5E-2 -2e+2 007 0.1')).toEqual([1, -2, 3, 0.5, -0.25, 5, 1000, 0.015, -200, 7, 0.1, 'eof']);
    const ints = tokenize(text('3 3.0 3e0')).slice(0, 3).map((t) => t.isInteger);
    expect(ints).toEqual([true, false, false]);
    // Long mantissas go through the platform parser and stay correctly rounded.
    expect(values('3.14159265358979323846')[0]).toBe(Math.PI);
  });

  it('reads numbers that touch brackets and strings', () => {
    expect(values('[1 2]"a"[3]')).toEqual(['open', 1, 2, 'close', 'a', 'open', 3, 'close', 'eof']);
  });

  it('decodes string escapes and keeps line numbers across multi-line strings', () => {
    const tokens = tokenize(text('"a\\"b\\\\c\\n\\t\\101" "two\nlines" Next'));
    expect(tokens[0]!.value).toBe('a"b\\c\n\tA');
    expect(tokens[1]!.value).toBe('two\nlines');
    expect(tokens[2]).toMatchObject({ kind: 'name', value: 'Next', line: 2, column: 8 });
  });

  it('skips comments and reports ## structure comments', () => {
    const seen: Array<[string, SourcePosition]> = [];
    const lexer = new RibLexer(text('##RenderMan RIB-Structure 1.0\n# plain comment\nWorldBegin # trailing\n'), 'a.rib', (t, p) => seen.push([t, p]));
    expect(lexer.next()).toBe('name');
    expect(lexer.text).toBe('WorldBegin');
    expect(lexer.line).toBe(3);
    expect(lexer.next()).toBe('eof');
    expect(seen).toEqual([['RenderMan RIB-Structure 1.0', { file: 'a.rib', line: 1, column: 1 }]]);
  });

  it('turns bad numbers, stray characters and unterminated strings into bad tokens and goes on', () => {
    const tokens = tokenize(text('1.2.3 -x 12abc { "open\nSphere'));
    expect(tokens.map((t) => [t.kind, t.value, t.line, t.column])).toEqual([
      ['bad', "bad number '1.2.3'", 1, 1],
      ['bad', "bad number '-x'", 1, 7],
      ['bad', "bad number '12abc'", 1, 10],
      ['bad', "unexpected characters '{'", 1, 16],
      ['bad', 'unterminated string', 1, 18],
      ['name', 'Sphere', 2, 1],
      ['eof', undefined, 2, 7],
    ]);
  });

  it('handles CRLF line ends', () => {
    const tokens = tokenize(text('Format 1 2 1\r\nWorldBegin\r\n'));
    expect(tokens[4]).toMatchObject({ kind: 'name', value: 'WorldBegin', line: 2, column: 1 });
  });
});

describe('binary RIB', () => {
  it('decodes defined requests, integers, fixed point, floats, strings and float arrays', () => {
    const bytes = new BinaryRibWriter()
      .defineRequest(1, 'Sphere')
      .request(1).int(2, 1).int(-1, 4).fixed(1.5, 2, 1).float32(360)
      .defineString(7, 'plastic')
      .stringRef(7).string('a somewhat longer string').float64(0.1).floatArray([1, 2.5])
      .toBytes();
    const tokens = tokenize(bytes);
    expect(tokens.map((t) => t.value ?? t.kind)).toEqual(['Sphere', 2, -1, 1.5, 360, 'plastic', 'a somewhat longer string', 0.1, [1, 2.5], 'eof']);
    expect(tokens[1]!.isInteger).toBe(true);
    expect(tokens[3]!.isInteger).toBe(false);
  });

  it('parses a binary scene into the same Scene as its ASCII form', () => {
    const bytes = new BinaryRibWriter()
      .defineRequest(0, 'WorldBegin').defineRequest(1, 'Sphere').defineRequest(2, 'WorldEnd').defineRequest(3, 'Surface')
      .request(0)
      .request(3).string('plastic').string('Kd').floatArray([0.25])
      .request(1).float32(2).float32(-2).float32(2).float32(180)
      .request(2).toBytes();
    const scene = parseRibSync(bytes);
    expect(scene.errors).toEqual([]);
    const prim = scene.frames[0]!.primitives[0]!;
    expect(prim.geometry.args).toEqual({ radius: 2, zmin: -2, zmax: 2, thetamax: 180 });
    expect(prim.attributes.surface?.params[0]).toMatchObject({ name: 'Kd', values: [0.25], type: 'float' });
  });

  it('mixes ASCII and binary in one stream', () => {
    const bytes = new BinaryRibWriter().ascii('Translate ').float32(1).ascii(' 2 ').int(3, 1).ascii('\n').toBytes();
    expect(tokenize(bytes).map((t) => t.value ?? t.kind)).toEqual(['Translate', 1, 2, 3, 'eof']);
  });

  it('reports truncated binary data and undefined codes instead of reading past the end', () => {
    const truncated = new BinaryRibWriter().ascii('Sphere ').raw(0xa4, 0x40).toBytes();
    expect(tokenize(truncated).map((t) => t.value ?? t.kind)).toEqual(['Sphere', 'truncated binary RIB', 'eof']);
    const shortArray = new BinaryRibWriter().raw(0xc8, 5, 0, 0, 0, 0).toBytes();
    expect(tokenize(shortArray)[0]).toMatchObject({ kind: 'bad', value: 'truncated binary RIB' });
    expect(tokenize(new Uint8Array([0xa6, 9]))[0]).toMatchObject({ kind: 'bad', value: 'binary request code 9 was never defined' });
    expect(tokenize(new Uint8Array([0xcf, 3]))[0]).toMatchObject({ kind: 'bad', value: 'binary string 3 was never defined' });
    expect(tokenize(new Uint8Array([0xff]))[0]).toMatchObject({ kind: 'bad', value: 'reserved binary code 0xff' });
  });
});

describe('gzip', () => {
  it('detects and inflates gzip-compressed RIB', () => {
    const scene = parseRibSync(gzipSync(text('Format 320 240 1\nWorldBegin\nSphere 1 -1 1 360\nWorldEnd\n')), { fileName: 's.rib.gz' });
    expect(scene.errors).toEqual([]);
    expect(scene.frames[0]!.options.xResolution).toBe(320);
    expect(scene.frames[0]!.primitives).toHaveLength(1);
  });

  it('reports corrupt gzip data', () => {
    const data = gzipSync(text('WorldBegin\nWorldEnd\n')).slice(0, 12);
    const scene = parseRibSync(data, { fileName: 'bad.rib.gz' });
    expect(scene.errors).toHaveLength(1);
    expect(scene.errors[0]!.message).toMatch(/^corrupt gzip data/);
    expect(scene.errors[0]).toMatchObject({ file: 'bad.rib.gz', line: 1, column: 1 });
  });
});
