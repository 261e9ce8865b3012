// The real-world scenes of scenes/ribtools (RibTools, BSD licence): each must parse without
// errors, and what it says must come out in the Scene.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findParameter, parseRibSync } from '../../src/rib/index.ts';
import type { Frame, Scene } from '../../src/rib/index.ts';

const dir = 'scenes/ribtools';
const files = readdirSync(dir).filter((f) => f.endsWith('.rib')).sort();
const parsed = new Map<string, Scene>(files.map((f) => [f, parseRibSync(readFileSync(`${dir}/${f}`), { fileName: `${dir}/${f}` })]));
const frame = (f: string): Frame => parsed.get(f)!.frames[0]!;
function primitiveCounts(f: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of frame(f).primitives) counts[p.geometry.type] = (counts[p.geometry.type] ?? 0) + 1;
  return counts;
}

describe('scenes/ribtools', () => {
  it('holds the thirteen scenes and their licence', () => {
    expect(files).toHaveLength(13);
    expect(readFileSync(`${dir}/LICENSE.txt`, 'utf8')).toMatch(/Davide Pasca/);
  });

  it.each(files)('%s parses with no errors into one frame', (f) => {
    const s = parsed.get(f)!;
    expect(s.errors).toEqual([]);
    expect(s.frames).toHaveLength(1);
  });

  it('warns only about the shell line at the top of uteapot.rib', () => {
    const warnings = files.flatMap((f) => parsed.get(f)!.warnings.map((w) => [f, w.line, w.request]));
    expect(warnings).toEqual([['uteapot.rib', 1, 'set']]);
  });

  it.each([
    ['Airplane.rib', { Cylinder: 15, Torus: 4, Sphere: 12, PatchMesh: 8, Hyperboloid: 11, Patch: 10 }, 3, [512, 384]],
    ['Bag.rib', { PatchMesh: 24 }, 2, [400, 400]],
    ['Chair.rib', { PatchMesh: 15 }, 0, [300, 384]],
    ['Elephant.rib', { Patch: 128 }, 3, [512, 384]],
    ['Enterprise_ncc1701d.rib', { Polygon: 1197 }, 2, [560, 385]],
    ['Pixar.rib', { Cylinder: 3, Torus: 1, Sphere: 1, Hyperboloid: 1, Cone: 1, Paraboloid: 1 }, 0, [512, 256]],
    ['SimpleMug.rib', { Disk: 2, Cylinder: 2, Torus: 3 }, 0, [300, 400]],
    ['SphereAmbient.rib', { Sphere: 1 }, 1, [400, 400]],
    ['SphereDistantLight.rib', { Sphere: 1 }, 2, [400, 400]],
    ['SphereDistantRGBLights.rib', { Sphere: 1 }, 3, [400, 400]],
    ['SpheresSpecular.rib', { Sphere: 9 }, 1, [400, 400]],
    ['dragonhead.rib', { Patch: 1236 }, 4, [640, 480]],
    ['uteapot.rib', { Patch: 32 }, 4, [640, 400]],
  ] as const)('%s: primitives by type, lights, Format', (f, counts, lights, [x, y]) => {
    expect(primitiveCounts(f)).toEqual(counts);
    expect(frame(f).lights).toHaveLength(lights);
    expect([frame(f).options.xResolution, frame(f).options.yResolution]).toEqual([x, y]);
    expect(frame(f).camera.projection).toBe('perspective');
  });

  it('Enterprise: screen window, field of view, shading rate, named lights, Declare and identifiers', () => {
    const f = frame('Enterprise_ncc1701d.rib');
    expect(f.frameNumber).toBe(0);
    expect(f.options.screenWindow).toEqual([-1, 1, -0.684444, 0.684444]);
    expect(f.options.pixelSamples).toEqual([2, 2]);
    expect(f.options.displays).toMatchObject([{ name: 'ncc1701d.tiff', type: 'file', mode: 'rgb' }]);
    expect(f.camera.fov).toBe(20);
    expect(f.lights.map((l) => [l.shader, l.handle])).toEqual([['Global_Distant', 'distantlight'], ['Global_Ambient', 'ambientlight']]);
    const hull = f.primitives[0]!;
    expect(hull.attributes.shadingRate).toBe(5);
    expect(hull.attributes.lights).toEqual([0, 1]);
    expect(findParameter(hull.attributes.user.identifier!, 'name')!.values).toEqual(['enterprise']);
    expect(hull.geometry.params.map((p) => [p.name, p.values.length])).toEqual([['P', 9]]);
  });

  it('Airplane: inside orientation, one-sided, per-part colours and B-spline patch meshes', () => {
    const f = frame('Airplane.rib');
    const first = f.primitives[0]!;
    expect(first.geometry.type).toBe('Cylinder');
    expect(first.geometry.args).toEqual({ radius: 0.1, zmin: 1.45, zmax: -1.45, thetamax: 360 });
    expect(first.attributes).toMatchObject({ orientation: 'inside', sides: 1, color: [0.1, 0.1, 0.1] });
    expect(first.attributes.surface!.name).toBe('plastic');
    // 13 × 10 Bézier control points: 4 × 3 patches.
    const mesh = f.primitives.find((p) => p.geometry.type === 'PatchMesh')!;
    expect(mesh.attributes.uBasis.name).toBe('bezier');
    expect(mesh.geometry.counts).toMatchObject({ uniform: 12, varying: 20, vertex: 130 });
  });

  it('Chair: periodic patch meshes with an explicit B-spline basis matrix', () => {
    const mesh = frame('Chair.rib').primitives[0]!;
    expect(mesh.geometry.args).toMatchObject({ type: 'bicubic', nu: 11, uwrap: 'periodic', nv: 11, vwrap: 'nonperiodic' });
    expect(mesh.attributes.uBasis.name).toBeNull();
    expect(mesh.attributes.uBasis.step).toBe(1);
    expect(mesh.attributes.uBasis.matrix[0]).toBeCloseTo(-1 / 6, 5);
    // Periodic 11 → 11 patches; nonperiodic 11 with step 1 → 8 patches.
    expect(mesh.geometry.counts).toMatchObject({ uniform: 88, varying: 99, vertex: 121 });
  });

  it('dragonhead: lights from before WorldBegin, tesselation approximation, Bézier patches', () => {
    const f = frame('dragonhead.rib');
    expect(f.frameNumber).toBe(1);
    expect(f.camera.fov).toBe(45);
    expect(f.lights.map((l) => l.shader)).toEqual(['ambientlight', 'distantlight', 'distantlight', 'distantlight']);
    const p = f.primitives[0]!;
    expect(p.attributes.geometricApproximation).toEqual({ tesselation: 6 });
    expect(p.attributes.uBasis.name).toBe('bezier');
    expect(p.attributes.lights).toEqual([0, 1, 2, 3]);
    expect(p.geometry.counts.vertex).toBe(16);
    expect(p.attributes.surface!.params.map((q) => [q.name, q.values])).toEqual([['Ka', [1]], ['Kd', [0.8]], ['Ks', [1]], ['roughness', [0.05]]]);
  });

  it('uteapot: the last Surface wins, its unknown parameter typed from the value', () => {
    const p = frame('uteapot.rib').primitives[0]!;
    expect(p.attributes.color).toEqual([1, 0.5, 0.3]);
    expect(p.attributes.surface).toMatchObject({ name: 'wood2', params: [{ name: 'txtscale', values: [0.1], inferred: true }] });
    expect(p.attributes.sides).toBe(2);
    // Four lights, three of them sharing the sequence number 2: all stay on.
    expect(p.attributes.lights).toEqual([0, 1, 2, 3]);
  });

  it('Bag: clipping planes and reversed orientation', () => {
    const f = frame('Bag.rib');
    expect([f.camera.near, f.camera.far]).toEqual([0.01, 10]);
    expect(f.primitives[0]!.attributes.orientation).toBe('inside');
  });

  it('Elephant: left-handed orientation and half-transparent patches', () => {
    const f = frame('Elephant.rib');
    expect(f.primitives[0]!.attributes.orientation).toBe('lh');
    expect(f.primitives[0]!.attributes.opacity).toEqual([0.5, 0.5, 0.5]);
  });

  it('keeps the RIB structure comments', () => {
    const comments = parsed.get('Airplane.rib')!.structureComments.map((c) => c.text);
    expect(comments[0]).toBe('RenderMan RIB-Structure 1.0');
    expect(comments).toContain('CameraOrientation 7.238 13.997 4.144  6.817 13.312 4.105  -0.173248 0.050479 0.983584');
  });
});
