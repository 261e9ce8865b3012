// RIB lets the numeric arguments of a request come as one array: `Clipping [0.1 100]` means
// `Clipping 0.1 100`. Checked for every request of the table with two or more numeric arguments
// in a row, and with values for the common ones.
import { describe, expect, it } from 'vitest';
import { REQUESTS, parseRibSync } from '../../src/rib/index.ts';
import type { ArgSpec, RequestDef, Scene } from '../../src/rib/index.ts';

const parse = (src: string): Scene => parseRibSync(src, { fileName: 't.rib' });
const isNumber = (a: ArgSpec) => a.kind === 'int' || a.kind === 'float';

/** Values that every such request accepts: strings it knows, increasing integers for numbers. */
const STRING_ARGS: Record<string, Record<string, string>> = {
  PixelFilter: { filter: 'box' },
  Quantize: { type: 'rgba' },
  GeometricApproximation: { type: 'flatness' },
  PatchMesh: { type: 'bilinear', uwrap: 'nonperiodic', vwrap: 'nonperiodic' },
};

/** The requests whose table entry has at least two numeric arguments in a row. */
function withNumericRuns(): RequestDef[] {
  return [...REQUESTS.values()].filter((def) =>
    def.args.some((a, i) => isNumber(a) && def.args[i + 1] !== undefined && isNumber(def.args[i + 1]!)));
}

/** The request written with loose numbers, and with each run of numbers as one array. */
function writeBoth(def: RequestDef): { loose: string; bracketed: string } | null {
  const loose: string[] = [def.name];
  const bracketed: string[] = [def.name];
  let run: string[] = [];
  const flush = () => { if (run.length) bracketed.push(`[${run.join(' ')}]`); run = []; };
  let n = 1;
  for (const a of def.args) {
    if (a.optional) break;
    if (isNumber(a)) {
      const v = String(n++);
      loose.push(v);
      run.push(v);
      continue;
    }
    flush();
    const text = a.kind === 'string' ? STRING_ARGS[def.name]?.[a.name] : undefined;
    if (text === undefined) return null;
    loose.push(`"${text}"`);
    bracketed.push(`"${text}"`);
  }
  flush();
  if (def.name === 'PatchMesh') {
    loose.push('"P" [0 0 0 1 0 0 0 1 0 1 1 0 0 2 0 1 2 0]');
    bracketed.push('"P" [0 0 0 1 0 0 0 1 0 1 1 0 0 2 0 1 2 0]');
  }
  return { loose: loose.join(' '), bracketed: bracketed.join(' ') };
}

/** The request where it is valid, followed by a sphere that carries the state it set. */
function sceneWith(def: RequestDef, text: string): string {
  if (def.category === 'option') return `${text}\nWorldBegin\nSphere 1 -1 1 360\nWorldEnd\n`;
  return `WorldBegin\n${text}\nSphere 1 -1 1 360\nWorldEnd\n`;
}

/** What a scene means, without the columns that differ between the two spellings. */
function meaning(scene: Scene) {
  const strip = (d: { message: string; line: number }) => `${d.line}: ${d.message}`;
  const frames = JSON.parse(JSON.stringify(scene.frames, (k, v) => (k === 'source' || k === 'column' ? undefined : v)));
  return { frames, errors: scene.errors.map(strip), warnings: scene.warnings.map(strip) };
}

describe('arrays for the numeric arguments of any request', () => {
  const defs = withNumericRuns();

  it('covers the requests of the table with numeric runs', () => {
    const names = defs.map((d) => d.name);
    for (const expected of ['Format', 'ScreenWindow', 'CropWindow', 'Clipping', 'ClippingPlane', 'DepthOfField', 'Shutter',
      'PixelSamples', 'PixelFilter', 'Exposure', 'Quantize', 'TextureCoordinates', 'DetailRange', 'Translate', 'Rotate',
      'Scale', 'Skew', 'Sphere', 'Cone', 'Cylinder', 'Hyperboloid', 'Paraboloid', 'Disk', 'Torus']) {
      expect(names).toContain(expected);
    }
  });

  for (const def of withNumericRuns()) {
    const both = writeBoth(def);
    if (!both) continue;
    it(`${def.name}: ${both.bracketed} means ${both.loose}`, () => {
      const loose = parse(sceneWith(def, both.loose));
      const bracketed = parse(sceneWith(def, both.bracketed));
      expect(bracketed.errors.filter((e) => /argument|array/.test(e.message))).toEqual([]);
      expect(meaning(bracketed)).toEqual(meaning(loose));
      expect(loose.frames[0]!.primitives.length).toBeGreaterThan(0);
    });
  }

  it('gives the values to the right arguments', () => {
    const scene = parse(`
      Format [320 240 1]
      Clipping [0.1 100]
      ScreenWindow [-2 2 -1 1]
      DepthOfField [22 45 1200]
      Projection "perspective" "fov" [30]
      WorldBegin
      DetailRange [0 0 20 30]
      Color [1 0 0]
      Translate [1 2 3]
      Sphere [0.5 -0.5 0.5 360]
      WorldEnd`);
    expect(scene.errors).toEqual([]);
    const frame = scene.frames[0]!;
    expect([frame.options.xResolution, frame.options.yResolution, frame.options.pixelAspectRatio]).toEqual([320, 240, 1]);
    expect([frame.camera.near, frame.camera.far]).toEqual([0.1, 100]);
    expect(frame.options.screenWindow).toEqual([-2, 2, -1, 1]);
    expect(frame.camera.depthOfField).toEqual({ fstop: 22, focalLength: 45, focalDistance: 1200 });
    const sphere = frame.primitives[0]!;
    expect(sphere.attributes.detailRange).toEqual([0, 0, 20, 30]);
    expect(sphere.attributes.color).toEqual([1, 0, 0]);
    expect(sphere.objectToWorld.slice(12, 15)).toEqual([1, 2, 3]);
    expect(sphere.geometry.args).toEqual({ radius: 0.5, zmin: -0.5, zmax: 0.5, thetamax: 360 });
  });

  it('lets an array fill part of a run, the rest given loose', () => {
    const scene = parse('WorldBegin\nTransformBegin\nRotate 90 [0 0 1]\nSphere 1 -1 1 360\nTransformEnd\nRotate [90] 0 0 1\nSphere 1 -1 1 360\nWorldEnd');
    expect(scene.errors).toEqual([]);
    const [a, b] = scene.frames[0]!.primitives;
    // 90° about z takes x to y: the first row of the row-vector matrix is (0 1 0).
    expect(a!.objectToWorld.slice(0, 3).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 1, 0]);
    expect(b!.objectToWorld.slice(0, 3).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 1, 0]);
  });

  it('reports an array of the wrong size or type at the array, and skips the request', () => {
    const scene = parse('WorldBegin\nTranslate [1 2 3 4]\nDetailRange [0 0 20]\nSides [1.5]\nColor 1 0 0\nScale ["a"]\nSphere 1 -1 1 360\nWorldEnd');
    const messages = scene.errors.map((e) => `${e.line}:${e.column} ${e.request}: ${e.message}`);
    expect(messages).toEqual([
      '2:11 Translate: an array of 4 numbers where 3 numeric arguments (dx dy dz) are expected',
      '3:1 DetailRange: expected 4 arguments (minvisible lowertransition uppertransition maxvisible), got 3',
      "4:7 Sides: argument 'sides' must be an integer, found 1.5",
      "6:7 Scale: argument 'sx' must be a number or an array of numbers (sx sy sz), found strings",
    ]);
    expect(scene.frames[0]!.primitives[0]!.objectToWorld.slice(12, 15)).toEqual([0, 0, 0]);
  });
});
