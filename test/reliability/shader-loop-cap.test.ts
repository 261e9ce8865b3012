// A loop the shader loop cap cuts short leaves a wrong picture, so it is never silent: the render
// carries one warning at the RSL loop (file:line:col) per loop per frame; a loop that ends under the
// cap warns about nothing; `Option "limits" "shaderloopiterations" [N]` sets the cap (through the
// frame uniforms, so the picture changes as the math says), checked where the RIB gives it. Through
// the plain shade stage, the dicer fused with the shader, a kernel split into passes, and a prepared
// frame's re-render (whose flags start cleared).
import { describe, expect, it } from 'vitest';
import { renderWarningLine } from '../../src/cli/render.ts';
import { prepareFrame } from '../../src/reyes/render-frame.ts';
import { RslShadingProvider } from '../../src/reyes/shading/rsl-provider.ts';
import { RENDERANTS_PIPELINE } from '../../src/reyes/pipeline/pipeline-config.ts';
import { parseRibSync } from '../../src/rib/index.ts';
import { TINY_RESOURCES } from '../../src/rsl/partition/model.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel, render } from '../reyes/render-helpers.ts';

const SHADERS: Record<string, string> = {
  // Line 4, column 3: the while.
  endless: `surface endless() {
  float x = 0;
  Oi = Os;
  while (1) {
    x += 1;
  }
  Ci = x / 100000;
}`,
  // Sums 1 per iteration of a 20-iteration loop (line 4, column 3) into Ci, over 20.
  twenty: `surface twenty() {
  float x = 0, i;
  Oi = Os;
  for (i = 0; i < 20; i += 1)
    x += 1;
  Ci = x / 20;
}`,
  // The 20-iteration loop in a shader big enough that the tiny resource profile splits it into passes.
  heavy: `surface heavy() {
  float x = 0, i;
  Oi = Os;
  for (i = 0; i < 20; i += 1)
    x += 1;
  normal Nf = faceforward(normalize(N), I);
  point Pr = P + .3 * vector noise(P * 2);
  float r = sqrt(xcomp(Pr) * xcomp(Pr) + ycomp(Pr) * ycomp(Pr)) * 12;
  color lit = diffuse(Nf) + specular(Nf, -normalize(I), .2) + noise(r) * ambient();
  Ci = x / 20 + 1e-7 * lit;
}`,
  // The same loop in a function inlined twice (one position, one flag), and a function whose early
  // return makes a loop that runs once (no flag).
  twice: `float count(float n) {
  float x = 0, i;
  for (i = 0; i < n; i += 1) x += 1;
  return x;
}
float clampone(float a) { if (a > 1) return 1; return a; }
surface twice() {
  Oi = Os;
  Ci = (count(20) + count(40)) / 60 * clampone(2);
}`,
};

const provider = (extra: ConstructorParameters<typeof RslShadingProvider>[0] = {}): RslShadingProvider =>
  new RslShadingProvider({ lookup: (name) => (SHADERS[name] !== undefined ? { file: `${name}.sl`, text: SHADERS[name]! } : undefined), ...extra });

/** An 8 × 8 frame filled by one polygon with surface `shader` (`options` before WorldBegin, `lights` after). */
const scene = (shader: string, options = '', lights = ''): string => `${options}Format 8 8 1
PixelSamples 1 1
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -1 1 -1 1
Translate 0 0 5
WorldBegin
${lights}Surface "${shader}"
Polygon "P" [-2 -2 0  2 -2 0  2 2 0  -2 2 0]
WorldEnd`;

const capped = (file: string, line: number, column: number, iterations: number): string =>
  `${file}:${line}:${column}: warning: loop stopped after ${iterations} iterations (Option "limits" "shaderloopiterations")`;

describe('the shader loop cap', () => {
  const gpu = useGpuRuntime();

  it('an endless loop stops at the default cap with one warning at the loop, which the CLI prints as is', async () => {
    const { rendered } = await render(gpu(), await frameFromText(scene('endless')), { shading: provider().provide });
    expect(rendered.warnings).toEqual([capped('endless.sl', 4, 3, 100000)]);
    expect(renderWarningLine(rendered.warnings[0]!)).toBe(capped('endless.sl', 4, 3, 100000));
    expect(pixel(rendered.image, 4, 4)[0]).toBeCloseTo(1, 5);
  });

  it('a loop that ends under the cap warns about nothing', async () => {
    const { rendered } = await render(gpu(), await frameFromText(scene('twenty')), { shading: provider().provide });
    expect(rendered.warnings).toEqual([]);
    expect(pixel(rendered.image, 4, 4)[0]).toBeCloseTo(1, 5);
  });

  it('Option "limits" "shaderloopiterations" [10] stops the 20-iteration loop halfway, with the warning', async () => {
    const frame = await frameFromText(scene('twenty', 'Option "limits" "shaderloopiterations" [10]\n'));
    const { rendered } = await render(gpu(), frame, { shading: provider().provide });
    expect(rendered.warnings).toEqual([capped('twenty.sl', 4, 3, 10)]);
    expect(pixel(rendered.image, 4, 4)[0]).toBeCloseTo(0.5, 5);
    // At 20 the loop runs to its end, and does not warn: the cap is checked after the loop's own test.
    const enough = await render(gpu(), await frameFromText(scene('twenty', 'Option "limits" "shaderloopiterations" [20]\n')), { shading: provider().provide });
    expect(enough.rendered.warnings).toEqual([]);
    expect(pixel(enough.rendered.image, 4, 4)[0]).toBeCloseTo(1, 5);
  });

  it('a loop inlined twice warns once; an early return makes no flag', async () => {
    const shading = provider();
    const frame = await frameFromText(scene('twice', 'Option "limits" "shaderloopiterations" [30]\n'));
    const { rendered } = await render(gpu(), frame, { shading: shading.provide });
    expect(rendered.warnings).toEqual([capped('twice.sl', 3, 3, 30)]);
    // 20 + 30 of 60.
    expect(pixel(rendered.image, 4, 4)[0]).toBeCloseTo(50 / 60, 5);
    const kernel = [...shading.compiler['cache'].values()].find((c) => c.loopSites.length > 0)!;
    expect(kernel.loopSites.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual(['twice.sl:3:3']);
  });

  it('reports through the dicer fused with the shader and through a kernel split into passes', async () => {
    const frame = await frameFromText(scene('twenty', 'Option "limits" "shaderloopiterations" [10]\n'));
    const fused = await render(gpu(), frame, { shading: provider().provide, pipeline: { ...RENDERANTS_PIPELINE, fusion: true } });
    expect(fused.rendered.stats.stages?.find((s) => s.stage === 'dice')?.fusedWith).toBe('shade');
    expect(fused.rendered.warnings).toEqual([capped('twenty.sl', 4, 3, 10)]);
    expect(pixel(fused.rendered.image, 4, 4)[0]).toBeCloseTo(0.5, 5);
    const split = provider({ partition: { resources: TINY_RESOURCES } });
    const passes = await render(gpu(), await frameFromText(scene('heavy', 'Option "limits" "shaderloopiterations" [10]\n', 'LightSource "pointlight" 1 "from" [0 0 -3]\nLightSource "ambientlight" 2\n')), { shading: split.provide });
    // Two passes, the loop (and its flag) in the second only: the first is given no flag binding.
    const compiled = [...split.compiler['cache'].values()].find((c) => c.multipass);
    expect(compiled?.multipass?.passes.map((p) => p.loopFlags)).toEqual([false, true]);
    expect(passes.rendered.warnings).toEqual([capped('heavy.sl', 4, 3, 10)]);
    expect(pixel(passes.rendered.image, 4, 4)[0]).toBeCloseTo(0.5, 5);
  });

  it('a prepared frame re-rendered warns again only while the loop is still cut short', async () => {
    const shading = provider();
    const prepared = await prepareFrame(gpu(), await frameFromText(scene('twenty', 'Option "limits" "shaderloopiterations" [10]\n')), { shading: shading.provide });
    try {
      expect(prepared.first.warnings).toEqual([capped('twenty.sl', 4, 3, 10)]);
      const again = await prepared.render();
      expect(again.warnings).toEqual([capped('twenty.sl', 4, 3, 10)]);
      const edited = await frameFromText(scene('twenty', 'Option "limits" "shaderloopiterations" [25]\n'));
      const enough = await prepared.render(edited);
      expect(enough.warnings).toEqual([]);
      expect(pixel(enough.image, 4, 4)[0]).toBeCloseTo(1, 5);
    } finally {
      prepared.dispose();
    }
  });
});

describe('Option "limits" "shaderloopiterations"', () => {
  it('warns at the Option about a value out of range or not whole, and keeps a valid one', () => {
    const text = [
      'Option "limits" "shaderloopiterations" [0]',
      'Option "limits" "shaderloopiterations" [2.5]',
      'Option "limits" "shaderloopiterations" [100000001]',
      'Option "limits" "shaderloopiterations" [100000000]',
      'WorldBegin\nSphere 1 -1 1 360\nWorldEnd\n',
    ].join('\n');
    const scene = parseRibSync(text, { fileName: 'l.rib' });
    expect(scene.errors).toEqual([]);
    const wanted = 'must be a whole number of iterations from 1 to 100000000';
    expect(scene.warnings.map((w) => `${w.file}:${w.line}:${w.column} ${w.request}: ${w.message}`)).toEqual([
      `l.rib:1:1 Option: Option "limits" "shaderloopiterations" ${wanted}, not [0]; ignored`,
      `l.rib:2:1 Option: Option "limits" "shaderloopiterations" ${wanted}, not [2.5]; ignored`,
      `l.rib:3:1 Option: Option "limits" "shaderloopiterations" ${wanted}, not [100000001]; ignored`,
    ]);
    expect(scene.frames[0]!.options.user['limits']!.map((p) => [p.name, p.values])).toEqual([['shaderloopiterations', [100000000]]]);
  });
});
