import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { chainResolvers, createFetchResolver, createMemoryResolver, parseRib, parseRibSync } from '../../src/rib/index.ts';
import type { Diagnostic } from '../../src/rib/index.ts';
import { archiveCandidates, normalizePath } from '../../src/rib/archive-paths.ts';
import { createNodeResolver } from '../../src/rib/resolver-node.ts';

const brief = (d: Diagnostic) => [d.file, d.line, d.request, d.message];
const scene = (body: string) => `WorldBegin\n${body}\nWorldEnd\n`;

describe('archive paths', () => {
  it('normalises and keeps relative paths relative', () => {
    expect(normalizePath('a/./b//c/../d')).toBe('a/b/d');
    expect(normalizePath('..\\x\\y.rib')).toBe('../x/y.rib');
    expect(normalizePath('/a/../../b')).toBe('/b');
  });

  it('looks beside the current file, then in the search paths, refusing what leaves every root', () => {
    expect(archiveCandidates('part.rib', 'scenes/a/main.rib', ['lib'], ['scenes/a', 'lib'])).toEqual({ paths: ['scenes/a/part.rib', 'lib/part.rib'], refused: [] });
    expect(archiveCandidates('../../secret', 'scenes/a/main.rib', ['lib'], ['scenes/a', 'lib'])).toEqual({ paths: [], refused: ['secret', '../secret'] });
    expect(archiveCandidates('/etc/passwd', 'scenes/a/main.rib', [], ['scenes/a'])).toEqual({ paths: [], refused: ['/etc/passwd'] });
  });
});

describe('ReadArchive with in-memory files', () => {
  const files = {
    'shots/table.rib': 'AttributeBegin\nColor [1 0 0]\nReadArchive "props/leg.rib"\nAttributeEnd\n',
    'shots/props/leg.rib': 'Cylinder 0.1 0 1 360\n',
    'lib/lamp.rib.gz': gzipSync(new TextEncoder().encode('Sphere 0.5 -0.5 0.5 360\n')),
    'shots/self.rib': 'ReadArchive "self.rib"\n',
  };
  const resolver = createMemoryResolver(files);

  it('reads archives relative to the reading file and from search paths, gzip included', () => {
    const s = parseRibSync(scene('ReadArchive "table.rib"\nReadArchive "lamp.rib.gz"'), { fileName: 'shots/main.rib', resolver, searchPaths: ['../lib'] });
    expect(s.errors).toEqual([]);
    expect(s.frames[0]!.primitives.map((p) => [p.geometry.type, p.source.file, p.attributes.color])).toEqual([
      ['Cylinder', 'shots/props/leg.rib', [1, 0, 0]],
      ['Sphere', 'lib/lamp.rib.gz', [1, 1, 1]],
    ]);
  });

  it('reports a missing archive with where it looked, and goes on', () => {
    const s = parseRibSync(scene('ReadArchive "nothere.rib"\nSphere 1 -1 1 360'), { fileName: 'shots/main.rib', resolver });
    expect(s.errors.map(brief)).toEqual([['shots/main.rib', 2, 'ReadArchive', 'archive "nothere.rib" not found (looked for shots/nothere.rib)']]);
    expect(s.frames[0]!.primitives).toHaveLength(1);
  });

  it('refuses paths that leave the scene folder and search paths, without asking the resolver', () => {
    const asked: string[] = [];
    const spy = { read: (p: string) => { asked.push(p); return 'Sphere 1 -1 1 360\n'; } };
    const s = parseRibSync(scene('ReadArchive "../../etc/passwd"\nReadArchive "/etc/passwd"'), { fileName: 'shots/main.rib', resolver: spy });
    expect(asked).toEqual([]);
    expect(s.errors.map((e) => e.message)).toEqual([
      'archive "../../etc/passwd" is outside the scene folder and the search paths (../etc/passwd); not read',
      'archive "/etc/passwd" is outside the scene folder and the search paths (/etc/passwd); not read',
    ]);
  });

  it('stops an archive that reads itself', () => {
    const s = parseRibSync(scene('ReadArchive "self.rib"'), { fileName: 'shots/main.rib', resolver });
    expect(s.errors).toHaveLength(1);
    expect(brief(s.errors[0]!)).toEqual(['shots/self.rib', 1, 'ReadArchive', 'archive "self.rib" reads itself (shots/self.rib → shots/self.rib); not read']);
  });

  it('DelayedReadArchive reads the file inside its own attribute block', () => {
    const s = parseRibSync(scene('Procedural "DelayedReadArchive" ["table.rib"] [-1 1 -1 1 0 1]\nSphere 1 -1 1 360'), { fileName: 'shots/main.rib', resolver });
    expect(s.errors).toEqual([]);
    expect(s.frames[0]!.primitives.map((p) => p.geometry.type)).toEqual(['Cylinder', 'Sphere']);
  });

  it('refuses RunProgram and DynamicLoad with a warning and never calls the resolver', () => {
    const asked: string[] = [];
    const s = parseRibSync(scene('Procedural "RunProgram" ["rm -rf /" ""] [-1 1 -1 1 -1 1]\nProcedural "DynamicLoad" ["evil.so" ""] [-1 1 -1 1 -1 1]'), {
      fileName: 'main.rib', resolver: { read: (p) => { asked.push(p); return undefined; } },
    });
    expect(asked).toEqual([]);
    expect(s.errors).toEqual([]);
    expect(s.warnings.map((w) => [w.line, w.request, w.message])).toEqual([
      [2, 'Procedural', 'Procedural "RunProgram" refused: a scene may not run programs or load code; the procedural is skipped'],
      [3, 'Procedural', 'Procedural "DynamicLoad" refused: a scene may not run programs or load code; the procedural is skipped'],
    ]);
  });

  it('honours Option "searchpath" "archive" inside the roots only', () => {
    const s = parseRibSync(`Option "searchpath" "archive" ["props:&"]\n${scene('ReadArchive "leg.rib"')}`, { fileName: 'shots/main.rib', resolver });
    expect(s.errors).toEqual([]);
    expect(s.frames[0]!.primitives[0]!.source.file).toBe('shots/props/leg.rib');
  });
});

describe('asynchronous resolvers', () => {
  it('parseRib awaits fetched archives (relative URLs from a base)', async () => {
    const requested: string[] = [];
    const fakeFetch = (async (url: URL) => {
      requested.push(String(url));
      return String(url).endsWith('/scenes/parts/wheel.rib')
        ? new Response('Torus 1 0.2 0 360 360\n')
        : new Response('', { status: 404 });
    }) as unknown as typeof fetch;
    const resolver = chainResolvers(createMemoryResolver({}), createFetchResolver('https://example.test/scenes/', fakeFetch));
    const s = await parseRib(scene('ReadArchive "parts/wheel.rib"\nReadArchive "parts/missing.rib"'), { fileName: 'car.rib', resolver });
    expect(requested).toEqual(['https://example.test/scenes/parts/wheel.rib', 'https://example.test/scenes/parts/missing.rib']);
    expect(s.frames[0]!.primitives.map((p) => p.geometry.type)).toEqual(['Torus']);
    expect(s.errors.map((e) => e.message)).toEqual(['archive "parts/missing.rib" not found (looked for parts/missing.rib)']);
  });
});

describe('Node disk resolver', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rib-archives-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'scene'));
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'scene', 'part.rib'), 'Disk 0 1 360\n');
  writeFileSync(join(dir, 'outside', 'secret.rib'), 'Sphere 9 -9 9 360\n');
  symlinkSync(join(dir, 'outside', 'secret.rib'), join(dir, 'scene', 'link.rib'));

  it('reads archives from disk beside the scene', async () => {
    const s = await parseRib(scene('ReadArchive "part.rib"'), { fileName: join(dir, 'scene', 'main.rib'), resolver: createNodeResolver() });
    expect(s.errors).toEqual([]);
    expect(s.frames[0]!.primitives[0]!.geometry.type).toBe('Disk');
  });

  it('refuses a link inside the scene folder that points outside it', async () => {
    const s = await parseRib(scene('ReadArchive "link.rib"'), { fileName: join(dir, 'scene', 'main.rib'), resolver: createNodeResolver() });
    expect(s.frames[0]!.primitives).toEqual([]);
    expect(s.errors[0]!.message).toMatch(/^archive "link.rib" not found/);
  });
});
