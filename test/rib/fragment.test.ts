// An archive fragment (what ReadArchive brings in: geometry with no world block of its own) read
// on its own: as if inside a world block that the file neither opens nor closes.
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

const fragment = (src: string) => parseRibSync(src, { fileName: 'f.rib', fragment: true });

describe('reading an archive fragment', () => {
  it('takes geometry, attributes, lights and options without a world block', () => {
    const scene = fragment('Format 320 240 1\nLightSource "pointlight" 1\nAttributeBegin\nColor [1 0 0]\nSphere 1 -1 1 360\nAttributeEnd\nDisk 0 1 360\n');
    expect(scene.errors).toEqual([]);
    expect(scene.warnings).toEqual([]);
    expect(scene.frames).toHaveLength(1);
    const frame = scene.frames[0]!;
    expect(frame.primitives.map((p) => [p.geometry.type, p.attributes.color])).toEqual([['Sphere', [1, 0, 0]], ['Disk', [1, 1, 1]]]);
    expect(frame.lights.map((l) => l.shader)).toEqual(['pointlight']);
  });

  it('still reports what the fragment leaves open or closes too often', () => {
    const scene = fragment('AttributeBegin\nSphere 1 -1 1 360\nWorldEnd\n');
    expect(scene.errors.map((e) => [e.line, e.request, e.message])).toEqual([
      [3, 'WorldEnd', 'WorldEnd without a matching WorldBegin; the innermost open block is AttributeBegin at line 1'],
      [1, 'AttributeBegin', 'AttributeBegin is never closed (end of input at line 4)'],
    ]);
    expect(scene.frames[0]!.primitives).toHaveLength(1);
  });

  it('reads every DelayedReadArchive: a fragment has no camera to judge bounds by', () => {
    const scene = parseRibSync('Procedural "DelayedReadArchive" ["far.rib"] [100 101 100 101 -5 -4]\n', {
      fileName: 'f.rib', fragment: true, resolver: { read: () => 'Sphere 1 -1 1 360\n' },
    });
    expect(scene.errors).toEqual([]);
    expect(scene.frames[0]!.primitives).toHaveLength(1);
    expect(scene.frames[0]!.culledArchives).toBe(0);
  });

  it('without the fragment option the same geometry is out of scope', () => {
    const scene = parseRibSync('Sphere 1 -1 1 360\n', { fileName: 'f.rib' });
    expect(scene.frames).toEqual([]);
    expect(scene.errors.map((e) => e.message)).toEqual(['only valid inside WorldBegin/WorldEnd']);
  });
});
