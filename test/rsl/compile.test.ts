import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePipeline, gridLayout, packParameters, ShaderCompiler } from '../../src/rsl/index.ts';
import { fileIncludeResolver, findShaderFile } from '../../src/rsl/node-resolver.ts';

describe('compiled pipelines', () => {
  it('return the parameter layout of every instance, with defaults, spaces and byte offsets', () => {
    const c = compilePipeline({ surface: 'plastic', lights: ['spotlight'] });
    const rows = c.params.entries.map((e) => [e.instance, e.name, e.type, e.offset, e.space ?? '']);
    expect(rows.slice(0, 3)).toEqual([
      ['light0', 'intensity', 'float', 0, ''], ['light0', 'lightcolor', 'color', 4, ''], ['light0', 'from', 'point', 16, 'shader'],
    ]);
    const cone = c.params.entries.find((e) => e.name === 'coneangle')!;
    expect(cone.default[0]).toBeCloseTo(Math.PI / 6, 6);
    expect(c.params.entries.find((e) => e.instance === 'surface' && e.name === 'specularcolor')).toMatchObject({ type: 'color', default: [1, 1, 1] });
    expect(c.params.blockBytes % 16).toBe(0);
    const block = packParameters(c, { 'surface.Kd': [0.25] });
    const kd = c.params.entries.find((e) => e.instance === 'surface' && e.name === 'Kd')!;
    expect(block[kd.offset / 4]).toBe(0.25);
  });
  it('reports scratch bytes per vertex and a grid layout with user primitive variables', () => {
    const c = compilePipeline({ surface: { source: 'surface s(varying float Kd = 1) { Ci = Kd * Cs; }' }, primitiveVariables: [{ name: 'Kd', type: 'float' }], maxVertices: 64 });
    expect(c.layout.variables.map((v) => v.name)).toEqual(['P', 'N', 'Ng', 'I', 'dPdu', 'dPdv', 'u', 'v', 'du', 'dv', 's', 't', 'Cs', 'Os', 'Kd', 'Ci', 'Oi']);
    expect(c.layout.bytesPerVertex).toBe((3 * 6 + 6 + 3 * 2 + 1 + 3 * 2) * 4);
    expect(c.scratchBytesPerVertex).toBeGreaterThanOrEqual(c.layout.bytesPerVertex);
    expect(c.params.entries[0]).toMatchObject({ name: 'Kd', fromPrimitiveVariable: true });
    expect(gridLayout(4).variables.find((v) => v.name === 'Ci')!.offset).toBe(gridLayout(4).recordFloats - 6 * 4 + 0);
  });
  it('strings become integer tokens', () => {
    const c = compilePipeline({ surface: 'paintedplastic' });
    expect(c.strings[0]).toBe('');
    const tex = c.params.entries.find((e) => e.name === 'texturename')!;
    expect(tex).toMatchObject({ type: 'string', default: '' });
    const words = new Uint32Array(packParameters(c, { texturename: 'grid.tx' }).buffer);
    expect(words[tex.offset / 4]).toBe(c.strings.length);
  });
  it('caches kernels by source and pipeline composition', () => {
    const compiler = new ShaderCompiler();
    const a = compiler.compile({ surface: 'matte', lights: ['pointlight'] });
    expect(compiler.compile({ surface: 'matte', lights: ['pointlight'] })).toBe(a);
    expect(compiler.compile({ surface: 'matte', lights: ['pointlight', 'pointlight'] })).not.toBe(a);
    expect(compiler.compile({ surface: { source: 'surface matte() { Ci = 1; }' }, lights: ['pointlight'] })).not.toBe(a);
    expect(compiler.stats).toEqual({ hits: 1, misses: 3 });
  });
  it('rejects a shader of the wrong kind for its role', () => {
    expect(() => compilePipeline({ surface: 'pointlight' })).toThrow(/expected a surface shader, found light shader 'pointlight'/);
  });
});

describe('Node file resolver', () => {
  it('finds includes next to the file and on the search path, never outside it', () => {
    const root = mkdtempSync(join(tmpdir(), 'rsl-'));
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib', 'k.h'), '#define K 0.25\n');
    writeFileSync(join(root, 'mine.sl'), '#include "k.h"\nsurface mine() { Ci = K; }\n');
    const resolveInclude = fileIncludeResolver([root, join(root, 'lib')]);
    const found = findShaderFile('mine', [root]);
    expect(found).toBeDefined();
    const c = compilePipeline({ surface: { source: found!.text, file: found!.file }, resolveInclude });
    expect(c.code).toContain('0.25');
    expect(resolveInclude('../../etc/passwd', join(root, 'mine.sl'))).toBeUndefined();
  });
});
