// The public-style shader corpus (shaders/corpus/): shaders written in the idioms of the classic
// published ones (wood, marble, brick, glass, spotlights with barn doors, fog, imagers...). Every one
// must compile into a kernel Dawn accepts and, rendered on a small sphere, give a picture that is not
// blank and differs from the render without it; no warning may say that a shader was dropped or
// replaced by the default surface. Surfaces and displacements are lit by a distant and a point light;
// light shaders light a plastic sphere; volumes are the atmosphere of a plastic sphere; imagers run
// on the picture of one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QuantizedImage } from '../../src/image/image.ts';
import { RslShadingProvider, type ShaderLookup } from '../../src/reyes/shading/rsl-provider.ts';
import { checkSource } from '../../src/rsl/index.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render, ROOT } from '../reyes/render-helpers.ts';

const FOLDER = path.join(ROOT, 'shaders/corpus');
const FILES = readdirSync(FOLDER).filter((f) => f.endsWith('.sl')).sort();
const SOURCES = new Map(FILES.map((f) => [f.replace(/\.sl$/, ''), readFileSync(path.join(FOLDER, f), 'utf8')]));

/**
 * Shaders expected not to compile or not to render yet, with the reason (the work that lifts it).
 * Empty: every shader of the corpus compiles and renders.
 */
const EXPECTED_TO_FAIL = new Map<string, string>();

/** RIB parameters a shader needs to show on a unit sphere 4 units in front of the camera. */
const PARAMETERS: Record<string, string> = {
  barnspot: '"from" [0 3 -3] "to" [0 0 0] "intensity" 12',
  shadowedspot: '"from" [0 3 -3] "to" [0 0 0] "intensity" 12',
  slidelight: '"from" [0 3 -3] "to" [0 0 0] "intensity" 12',
  arealike: '"center" [0 3 -3] "xside" [1 0 0] "yside" [0 0 1] "intensity" 12',
  filllight: '"from" [-1 1 -2] "to" [0 0 0] "intensity" 1',
  clamptoalpha: '"gain" 0.5',
};

/** Messages of a shader dropped or replaced (rsl-provider.ts): none may appear. */
const FALLBACK = /does not compile|not found|default surface|no imager runs|skipped|is a \w+ shader, not/;

type Kind = 'surface' | 'displacement' | 'light' | 'volume' | 'imager';

function kindOf(name: string): Kind {
  const checked = checkSource(SOURCES.get(name)!, `${name}.sl`);
  const kind = checked.shaders[0]?.shader.shaderKind;
  if (!kind) throw new Error(`${name}.sl: ${checked.diagnostics.list.map((d) => d.message).join('; ')}`);
  return kind as Kind;
}

const LIGHTS = 'LightSource "distantlight" 1 "from" [-1 1 -1] "to" [0 0 0] "intensity" 0.8\nLightSource "pointlight" 2 "from" [2 2 -3] "intensity" 12\n';

/** The scene for a shader of a kind; `name` undefined gives the scene without it (the baseline). */
function scene(kind: Kind, name: string | undefined): string {
  const use = (request: string): string => (name ? `${request} "${name}" ${PARAMETERS[name] ?? ''}\n` : '');
  const options = 'Format 48 48 1\nPixelSamples 2 2\nProjection "perspective" "fov" 40\n' + (kind === 'imager' ? use('Imager') : '') + 'Translate 0 0 4\n';
  let world: string;
  switch (kind) {
    case 'surface':
      world = `${LIGHTS}Color [0.8 0.6 0.4]\n${use('Surface')}`;
      break;
    case 'displacement':
      world = `${LIGHTS}Color [0.8 0.6 0.4]\nSurface "plastic"\nAttribute "displacementbound" "sphere" [0.5]\n${use('Displacement')}`;
      break;
    case 'light':
      world = `${name ? `LightSource "${name}" 1 ${PARAMETERS[name] ?? ''}\n` : ''}Color [0.8 0.6 0.4]\nSurface "plastic"\n`;
      break;
    case 'volume':
      world = `${LIGHTS}Color [0.8 0.6 0.4]\nSurface "plastic"\n${use('Atmosphere')}`;
      break;
    case 'imager':
      world = `${LIGHTS}Color [0.8 0.6 0.4]\nSurface "plastic"\n`;
      break;
  }
  return `${options}WorldBegin\n${world}Sphere 1 -1 1 360\nWorldEnd\n`;
}

/** The largest difference of one channel between two pictures, in 8-bit steps. */
function largestDifference(a: QuantizedImage, b: QuantizedImage | undefined): number {
  let largest = 0;
  for (let k = 0; k < a.rgba.length; k++) largest = Math.max(largest, Math.abs(a.rgba[k]! - (b?.rgba[k] ?? 0)));
  return largest;
}

const lookup: ShaderLookup = (name) => {
  const text = SOURCES.get(name);
  return text === undefined ? undefined : { file: `shaders/corpus/${name}.sl`, text };
};

describe('public-style shader corpus', () => {
  const gpu = useGpuRuntime();
  const provider = new RslShadingProvider({ lookup });
  const baselines = new Map<Kind, QuantizedImage>();

  it('has at least 40 shaders, each with a licence and a description, of every kind', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(40);
    for (const [name, text] of SOURCES) {
      expect(text, name).toMatch(new RegExp(`^/\\* ${name}: [^]*MIT licence[^]*\\*/`));
    }
    const kinds = new Set([...SOURCES.keys()].map(kindOf));
    expect([...kinds].sort()).toEqual(['displacement', 'imager', 'light', 'surface', 'volume']);
    for (const name of EXPECTED_TO_FAIL.keys()) expect(SOURCES.has(name), name).toBe(true);
  });

  it.each([...SOURCES.keys()].filter((n) => !EXPECTED_TO_FAIL.has(n)))('%s compiles, renders and is not blank', async (name) => {
    const kind = kindOf(name);
    if (!baselines.has(kind)) baselines.set(kind, (await render(gpu(), await frameFromText(scene(kind, undefined)), { shading: provider.provide })).image);
    const { rendered, image } = await render(gpu(), await frameFromText(scene(kind, name)), { shading: provider.provide });
    expect(rendered.warnings.filter((w) => FALLBACK.test(w))).toEqual([]);
    // Not the empty background, and not the picture without the shader.
    expect(largestDifference(image, undefined)).toBeGreaterThan(8);
    expect(largestDifference(image, baselines.get(kind))).toBeGreaterThan(3);
  });
});
