// Parameter blocks shared by content (shading/instance-cache.ts): primitives in their own
// AttributeBegin blocks whose shading is the same get one packed block, so a frame of many small
// objects packs its shaders' parameters once; what the pipeline reads of a state (attribute()
// values, the shader space of point parameters, the object space) still tells blocks apart.
import { describe, expect, it } from 'vitest';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame, type ConvertedFrame } from '../../src/reyes/convert/convert-frame.ts';
import { RslShadingProvider, type ShaderLookup } from '../../src/reyes/shading/rsl-provider.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { RECORD } from '../../src/layout/primitive-record.ts';
import { gridLayout } from '../../src/rsl/index.ts';
import { frameFromText } from './render-helpers.ts';

const HEADER = 'Format 32 24 1\nProjection "perspective" "fov" 40\nTranslate 0 0 5\nWorldBegin\nLightSource "distantlight" 1\n';

const SHADERS: Record<string, string> = {
  // Reads the user attribute "tint:k" per primitive.
  tinted: 'surface tinted() { float k = 0; attribute("tint:k", k); Oi = Os; Ci = Os * Cs * k; }',
  // A point parameter: its value is held in the block in the shader's space.
  spot: 'surface spot(point centre = 0) { Oi = Os; Ci = Os * Cs * length(P - centre); }',
  // Object space: the block holds the primitive's object → camera matrix.
  banded: 'surface banded() { point p = transform("object", P); Oi = Os; Ci = Os * Cs * (1 + sin(10 * zcomp(p))); }',
};
const lookup: ShaderLookup = (name) => (SHADERS[name] ? { file: `${name}.sl`, text: SHADERS[name] } : undefined);

async function convert(body: string): Promise<{ converted: ConvertedFrame; warnings: string[] }> {
  const frame = await frameFromText(`${HEADER}${body}\nWorldEnd`);
  const camera = frameCamera(frame);
  const warnings: string[] = [];
  const provider = new RslShadingProvider({ lookup }).provide;
  const converted = convertFrame(frame, camera, kernelSpaces(camera), gridLayout(64), provider, (m) => void (warnings.includes(m) || warnings.push(m)));
  return { converted, warnings };
}

/** The parameter base of each record, and the pipeline's block size in floats. */
function bases(converted: ConvertedFrame): number[] {
  const words = new Uint32Array(converted.records.floats().buffer);
  return Array.from({ length: converted.records.count }, (_, r) => words[r * RECORD.floats + RECORD.paramBase]!);
}

function spheres(count: number, each: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => `AttributeBegin ${each(i)} Sphere 0.1 -0.1 0.1 360 AttributeEnd`).join('\n');
}

describe('shading instances shared by content', () => {
  it('packs one block for many primitives with their own Color and transform under one Surface', async () => {
    const { converted, warnings } = await convert(`Surface "plastic" "Kd" [0.6]\n${spheres(500, (i) => `Color [${(i % 7) / 7} 0.5 0.5] Translate ${i * 0.01} 0 0`)}`);
    expect(warnings).toEqual([]);
    expect(converted.pipelines).toHaveLength(1);
    const one = converted.pipelines[0]!;
    expect(new Set(bases(converted))).toEqual(new Set([0]));
    // One block, not 500.
    const single = (await convert('Surface "plastic" "Kd" [0.6]\nSphere 1 -1 1 360')).converted.pipelines[0]!.params;
    expect(one.params).toEqual(single);
  });

  it('shares the block of separate Surface requests with the same values, and not of different ones', async () => {
    const { converted } = await convert(spheres(6, (i) => `Translate ${i} 0 0 Surface "plastic" "Kd" [${i % 2 ? 0.25 : 0.75}]`));
    const b = bases(converted);
    expect(new Set(b).size).toBe(2);
    expect(b.filter((x) => x === b[0])).toHaveLength(3);
    expect(b[1]).not.toBe(b[0]);
  });

  it('keeps apart what the pipeline reads of a state: attribute() values, shader space of points, object space', async () => {
    const tinted = await convert(spheres(4, (i) => `Attribute "tint" "float k" [${i < 2 ? 1 : 2}] Surface "tinted"`));
    const t = bases(tinted.converted);
    expect(t[0]).toBe(t[1]);
    expect(t[2]).toBe(t[3]);
    expect(t[2]).not.toBe(t[0]);
    // The point parameter is given under Translate: in another shader space, another block.
    const spot = await convert(spheres(4, (i) => `Translate ${i < 2 ? 0 : 1} 0 0 Surface "spot" "centre" [0 0 1]`));
    const s = bases(spot.converted);
    expect(s[0]).toBe(s[1]);
    expect(s[2]).not.toBe(s[0]);
    const banded = await convert(`Surface "banded"\n${spheres(3, (i) => `Translate ${i} 0 0`)}`);
    expect(new Set(bases(banded.converted)).size).toBe(3);
  });

  it('still reports a problem at each request that has it', async () => {
    const missing = await convert(spheres(2, () => 'Surface "nosuch"'));
    const wrong = await convert(spheres(2, () => 'Surface "plastic" "string Kd" ["x"]'));
    expect([...missing.warnings, ...wrong.warnings]).toEqual([
      '<input>:6:16: surface shader "nosuch" not found; using the default surface',
      '<input>:7:16: surface shader "nosuch" not found; using the default surface',
      '<input>:6:16: parameter "Kd" of shader "plastic" needs 1 number(s), the RIB gave 1 (ignored)',
      '<input>:7:16: parameter "Kd" of shader "plastic" needs 1 number(s), the RIB gave 1 (ignored)',
    ]);
    // Blocks are still shared among the primitives of one request.
    expect(new Set(bases(wrong.converted)).size).toBe(2);
  });
});
