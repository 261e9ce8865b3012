// Search paths as PRMan and Aqsis read them: archives resolve beside the reading file, in the
// folder the render started in (the top scene's) and along Option "searchpath" "archive", where
// "&" is the path set before and "@" the default; shaders are found beside the scene by default.
// Files in temporary folders, read through the disk resolver.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryResolver, parseRib, parseRibSync } from '../../src/rib/index.ts';
import { createNodeResolver } from '../../src/rib/resolver-node.ts';
import { nodeShaderLookup, shaderFolders } from '../../src/reyes/shading/node-shaders.ts';

const root = mkdtempSync(join(tmpdir(), 'reyes-searchpath-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function files(tree: Record<string, string>): string {
  const dir = mkdtempSync(join(root, 'scene-'));
  for (const [name, text] of Object.entries(tree)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const world = (body: string, before = '') => `${before}\nWorldBegin\n${body}\nWorldEnd\n`;
const sources = (scene: { frames: { primitives: { source: { file: string } }[] }[] }) =>
  scene.frames[0]!.primitives.map((p) => p.source.file);

describe('archive search path', () => {
  it('finds an archive named by a nested archive in the top scene\'s folder, not only beside the including file', async () => {
    const dir = files({
      'main.rib': world('ReadArchive "props/table.rib"'),
      'props/table.rib': 'ReadArchive "parts/leg.rib"\n',
      'parts/leg.rib': 'Cylinder 0.1 0 1 360\n',
    });
    const scene = await parseRib(world('ReadArchive "props/table.rib"'), { fileName: join(dir, 'main.rib'), resolver: createNodeResolver() });
    expect(scene.errors).toEqual([]);
    expect(sources(scene)).toEqual([join(dir, 'parts/leg.rib')]);
  });

  it('reads Option "searchpath" "archive" with "&" as the path set before and "@" as the default', () => {
    const asked: string[] = [];
    const resolver = { read: (p: string) => { asked.push(p); return p === 'shot/lib2/x.rib' ? 'Sphere 1 -1 1 360\n' : undefined; } };
    const scene = parseRibSync(world('ReadArchive "x.rib"', [
      'Option "searchpath" "archive" ["lib1:&"]',
      'Option "searchpath" "archive" ["lib2:&"]',
    ].join('\n')), { fileName: 'shot/main.rib', resolver, searchPaths: ['../common'] });
    expect(scene.errors).toEqual([]);
    // Beside the file (= the scene folder), then lib2, then "&" = lib1 and the first "&": the
    // default (scene folder, --archive-path), each asked once.
    expect(asked).toEqual(['shot/x.rib', 'shot/lib2/x.rib']);
    const frame = scene.frames[0]!;
    expect(frame.options.user.searchpath![0]!.values).toEqual(['lib2:lib1:&']);

    const asked2: string[] = [];
    const none = { read: (p: string) => { asked2.push(p); return undefined; } };
    const missing = parseRibSync(world('ReadArchive "y.rib"', 'Option "searchpath" "archive" ["lib3:@"]'), { fileName: 'shot/main.rib', resolver: none, searchPaths: ['../common'] });
    expect(asked2).toEqual(['shot/y.rib', 'shot/lib3/y.rib', 'common/y.rib']);
    expect(missing.errors.map((e) => [e.line, e.column, e.message])).toEqual([
      [3, 1, 'archive "y.rib" not found (looked for shot/y.rib, shot/lib3/y.rib, common/y.rib)'],
    ]);
  });

  it('keeps archives inside the scene folder and the search paths: an escaping search path is refused at the Option', () => {
    const asked: string[] = [];
    const resolver = { read: (p: string) => { asked.push(p); return undefined; } };
    const scene = parseRibSync(world('ReadArchive "z.rib"', 'Option "searchpath" "archive" ["../../elsewhere:&"]'), { fileName: 'shot/main.rib', resolver });
    expect(scene.warnings.map((w) => [w.line, w.column, w.request, w.message])).toEqual([
      [1, 1, 'Option', 'archive search path ../elsewhere is outside the scene folder and the configured search paths; no archive is read from there'],
    ]);
    expect(asked).toEqual(['shot/z.rib']);
    expect(scene.errors.map((e) => e.message)).toEqual([
      'archive "z.rib" not found (looked for shot/z.rib; refused ../elsewhere/z.rib: outside the scene folder and the search paths)',
    ]);
  });
});

describe('archives read once', () => {
  it('reads a file once however often it is called, each call under its own graphics state', () => {
    const asked: string[] = [];
    const memory = createMemoryResolver({ 'a/leg.rib': 'Declare "w" "uniform float"\nCylinder 0.1 0 1 360 "w" [1]\n' });
    const resolver = { read: (p: string, roots: readonly string[]) => { asked.push(p); return memory.read(p, roots); } };
    const calls = [0, 1, 2, 3].map((i) => `AttributeBegin Color [${i} 0 0] Translate ${i} 0 0 ReadArchive "leg.rib" AttributeEnd`);
    const delayed = 'AttributeBegin Color [9 0 0] Procedural "DelayedReadArchive" ["leg.rib"] [-1 1 -1 1 -1 1] AttributeEnd';
    const scene = parseRibSync(world([...calls, delayed].join('\n')), { fileName: 'a/main.rib', resolver });
    expect(scene.errors).toEqual([]);
    expect(asked).toEqual(['a/leg.rib']);
    const prims = scene.frames[0]!.primitives;
    expect(prims.map((p) => [p.attributes.color[0], p.objectToWorld[12]])).toEqual([[0, 0], [1, 1], [2, 2], [3, 3], [9, 0]]);
    // Replays under the same typing state share one geometry, as object instances do.
    expect(new Set(prims.map((p) => p.geometry)).size).toBe(1);
  });

  it('types a replayed request again when a Declare changed in between', () => {
    const resolver = createMemoryResolver({ 'p.rib': 'Sphere 1 -1 1 360 "k" [1 2 3]\n' });
    const scene = parseRibSync(world('Declare "k" "uniform color"\nReadArchive "p.rib"\nDeclare "k" "uniform point"\nReadArchive "p.rib"'), { fileName: 'main.rib', resolver });
    expect(scene.errors).toEqual([]);
    expect(scene.frames[0]!.primitives.map((p) => p.geometry.params[0]!.type)).toEqual(['color', 'point']);
  });
});

describe('DelayedReadArchive off screen is never read', () => {
  // 640×480, fov 90: at z = 10 the screen spans x in [-13.33, 13.33], y in [-10, 10]; the
  // gaussian filter of width 2 reaches 1 pixel beyond, and one pixel of slack is allowed: 2 pixels
  // = 0.0833 units at z = 10.
  const camera = 'Format 640 480 1\nProjection "perspective" "fov" [90]';
  function culled(bound: string, before = camera, placement = '') {
    const asked: string[] = [];
    const resolver = { read: (p: string) => { asked.push(p); return 'Sphere 1 -1 1 360\n'; } };
    const scene = parseRibSync(world(`${placement}\nProcedural "DelayedReadArchive" ["box.rib"] [${bound}]`, before), { fileName: 'main.rib', resolver });
    expect(scene.errors).toEqual([]);
    const frame = scene.frames[0]!;
    expect(frame.culledArchives).toBe(asked.length === 0 ? 1 : 0);
    return asked.length === 0;
  }

  it('reads a bound on screen and skips one beside it, with the filter\'s reach as the margin', () => {
    expect(culled('-1 1 -1 1 9 11')).toBe(false);
    expect(culled('14 15 -1 1 10 10')).toBe(true); // 656 pixels: beyond 640 + 2
    expect(culled('13.4 14 -1 1 10 10')).toBe(false); // 641.6 pixels: within the margin
    expect(culled('13.5 14 -1 1 10 10')).toBe(true); // 644 pixels
    expect(culled('-1 1 10.2 11 10 10')).toBe(true); // above the top
    expect(culled('-1 1 -1 1 -5 -1')).toBe(true); // behind the camera
    expect(culled('-1 1 -1 1 -5 20')).toBe(false); // crosses the eye plane: clipped at near, kept
    expect(culled('-100 -50 -1 1 -5 20')).toBe(true); // crosses it, but left of the view at every depth
  });

  it('uses the object space of the call, the camera transformation, Clipping, ClippingPlane and CropWindow', () => {
    expect(culled('-1 1 -1 1 -1 1', camera, 'Translate 20 0 10')).toBe(true);
    expect(culled('-1 1 -1 1 -1 1', camera, 'Translate 20 0 10\nRotate -90 0 1 0\nTranslate 0 0 20')).toBe(false);
    expect(culled('-1 1 -1 1 9 11', `${camera}\nTranslate 0 0 100`)).toBe(false); // the world pushed away
    expect(culled('-1 1 -1 1 9 11', `${camera}\nTranslate 0 0 -100`)).toBe(true); // the world behind the camera
    expect(culled('-1 1 -1 1 9 11', `${camera}\nTranslate 30 0 0`)).toBe(true);
    expect(culled('-1 1 -1 1 50 60', `${camera}\nClipping 0.1 40`)).toBe(true);
    expect(culled('-1 1 -1 1 9 11', `${camera}\nClippingPlane 0 0 5 0 0 1`)).toBe(true);
    expect(culled('-1 1 -1 1 9 11', `${camera}\nClippingPlane 0 0 10 0 0 1`)).toBe(false);
    expect(culled('5 6 -1 1 10 10', `${camera}\nCropWindow 0 0.5 0 1`)).toBe(true);
    expect(culled('-6 -5 -1 1 10 10', `${camera}\nCropWindow 0 0.5 0 1`)).toBe(false);
    // Orthographic: the screen window is camera x and y.
    expect(culled('1.2 2 -0.5 0.5 1 2', 'Format 640 480 1\nScreenWindow -1 1 -1 1')).toBe(true);
    expect(culled('0.9 2 -0.5 0.5 1 2', 'Format 640 480 1\nScreenWindow -1 1 -1 1')).toBe(false);
  });

  it('reads them all when asked to (a viewer whose camera moves)', () => {
    const resolver = createMemoryResolver({ 'box.rib': 'Sphere 1 -1 1 360\n' });
    const src = world('Procedural "DelayedReadArchive" ["box.rib"] [14 15 -1 1 10 10]', camera);
    expect(parseRibSync(src, { fileName: 'main.rib', resolver }).frames[0]!.primitives).toHaveLength(0);
    const all = parseRibSync(src, { fileName: 'main.rib', resolver, skipOffScreenArchives: false }).frames[0]!;
    expect([all.primitives.length, all.culledArchives]).toEqual([1, 0]);
  });

  it('reads every call inside ObjectBegin, where the placement is not known yet', () => {
    const resolver = createMemoryResolver({ 'box.rib': 'Sphere 1 -1 1 360\n' });
    const scene = parseRibSync(world('ObjectBegin 1\nProcedural "DelayedReadArchive" ["box.rib"] [100 101 0 1 -5 -4]\nObjectEnd\nObjectInstance 1', camera), { fileName: 'main.rib', resolver });
    expect(scene.errors).toEqual([]);
    expect(scene.frames[0]!.primitives).toHaveLength(1);
  });
});

describe('shader search path', () => {
  it('has the scene folder and --shader-path by default; "@" and "&" stand for them; nothing outside', () => {
    const options = { sceneDir: '/s/shot', shaderPath: ['/lib/shaders'] };
    expect(shaderFolders(['@'], options)).toEqual(['/s/shot', '/lib/shaders']);
    expect(shaderFolders(['mine', '&'], options)).toEqual(['/s/shot/mine', '/s/shot', '/lib/shaders']);
    expect(shaderFolders(['/lib/shaders/extra', '@'], options)).toEqual(['/lib/shaders/extra', '/s/shot', '/lib/shaders']);
    expect(shaderFolders(['../other', '/etc', '@'], options)).toEqual(['/s/shot', '/lib/shaders']);
  });

  it('finds a shader beside its scene, and one in a folder the RIB names', () => {
    const dir = files({ 'beside.sl': 'surface beside() { Ci = 1; }\n', 'sub/deep.sl': 'surface deep() { Ci = 0; }\n' });
    const lookup = nodeShaderLookup({ sceneDir: dir });
    expect(lookup('beside', ['@'])?.file).toBe(join(dir, 'beside.sl'));
    expect(lookup('deep', ['@'])).toBeUndefined();
    expect(lookup('deep', ['sub', '@'])?.file).toBe(join(dir, 'sub/deep.sl'));
  });
});
