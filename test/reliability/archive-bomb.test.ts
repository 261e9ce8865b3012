// Archives cannot blow a read up: one that reads itself (directly or through others) is refused
// at the request with the cycle, and all archives together bring in a bounded number of requests,
// so a chain of files each reading the next twice stops instead of expanding 2^n times.
import { describe, expect, it } from 'vitest';
import { createMemoryResolver, parseRibSync } from '../../src/rib/index.ts';
import type { Diagnostic } from '../../src/rib/index.ts';

const brief = (d: Diagnostic) => [d.file, d.line, d.column, d.request, d.message];
const world = (body: string) => `WorldBegin\n${body}\nWorldEnd\n`;

describe('archive bombs', () => {
  it('refuses the two-line bomb (a file reading itself twice) at each request, quickly', () => {
    const resolver = createMemoryResolver({ 'shot/bomb.rib': 'ReadArchive "bomb.rib"\nReadArchive "bomb.rib"\nSphere 1 -1 1 360\n' });
    const start = performance.now();
    const scene = parseRibSync(world('ReadArchive "bomb.rib"'), { fileName: 'shot/main.rib', resolver });
    expect(performance.now() - start).toBeLessThan(1000);
    expect(scene.errors.map(brief)).toEqual([
      ['shot/bomb.rib', 1, 1, 'ReadArchive', 'archive "bomb.rib" reads itself (shot/bomb.rib → shot/bomb.rib); not read'],
      ['shot/bomb.rib', 2, 1, 'ReadArchive', 'archive "bomb.rib" reads itself (shot/bomb.rib → shot/bomb.rib); not read'],
    ]);
    // What the archive holds besides the cycle is read once.
    expect(scene.frames[0]!.primitives.map((p) => p.geometry.type)).toEqual(['Sphere']);
  });

  it('names every file of a longer cycle, and a scene that reads itself', () => {
    const resolver = createMemoryResolver({ 'shot/a.rib': 'ReadArchive "b.rib"\n', 'shot/b.rib': 'Sphere 1 -1 1 360\nReadArchive "a.rib"\n' });
    const scene = parseRibSync(world('ReadArchive "a.rib"'), { fileName: 'shot/main.rib', resolver });
    expect(scene.errors.map(brief)).toEqual([['shot/b.rib', 2, 1, 'ReadArchive', 'archive "a.rib" reads itself (shot/a.rib → shot/b.rib → shot/a.rib); not read']]);
    const self = parseRibSync(world('ReadArchive "main.rib"'), { fileName: 'shot/main.rib', resolver: createMemoryResolver({ 'shot/main.rib': world('ReadArchive "main.rib"') }) });
    expect(self.errors.map(brief)).toEqual([['shot/main.rib', 2, 1, 'ReadArchive', 'archive "main.rib" reads itself (shot/main.rib → shot/main.rib); not read']]);
  });

  it('stops a chain of 30 files each reading the next twice (2^30 spheres) at the request budget', () => {
    const files: Record<string, string> = { 'shot/f30.rib': 'Sphere 1 -1 1 360\n' };
    for (let k = 0; k < 30; k++) files[`shot/f${k}.rib`] = `ReadArchive "f${k + 1}.rib"\nReadArchive "f${k + 1}.rib"\n`;
    const start = performance.now();
    const scene = parseRibSync(world('ReadArchive "f0.rib"'), { fileName: 'shot/main.rib', resolver: createMemoryResolver(files), maxArchiveRequests: 5000 });
    expect(performance.now() - start).toBeLessThan(2000);
    expect(scene.errors.map(brief)).toEqual([
      ['shot/f27.rib', 2, 1, 'ReadArchive', 'archives brought in more than 5000 requests (is an archive read over and over?); the rest of every archive is not read'],
    ]);
    const spheres = scene.frames[0]!.primitives.length;
    expect(spheres).toBeGreaterThan(1000);
    expect(spheres).toBeLessThanOrEqual(5000);
  });
});
