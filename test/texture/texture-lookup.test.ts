// texture() on Dawn: a shading kernel reads maps from the atlas (binding 5). The grid's s and t are
// set so the footprint is known exactly: one texel per micropolygon reproduces the texels, two
// reads the next mip level, "blur" widens a step edge by blur × the map's width.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { packAtlas } from '../../src/texture/texture-atlas.ts';
import { buildPyramid } from '../../src/texture/mipmap.ts';
import type { TextureMap } from '../../src/texture/texture-map.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { shadeGrid } from '../rsl/grid-runner.ts';

const runtime = useGpuRuntime();

function map(width: number, height: number, channels: number, texel: (x: number, y: number, c: number) => number): TextureMap {
  const data = new Float32Array(width * height * channels);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = texel(x, y, c);
  const options = { filter: 'box', swidth: 1, twidth: 1, swrap: 'clamp', twrap: 'clamp' } as const;
  return { kind: 'texture', channels, levels: buildPyramid({ width, height, data }, channels, options), swrap: 'clamp', twrap: 'clamp', filter: 'box', swidth: 1, twidth: 1 };
}

/** Shades an nu × nv grid whose vertex (i, j) has s = (s0 + i·step + step/2) / width, likewise t. */
async function lookUp(source: string, tex: TextureMap, grid: { nu: number; nv: number; s0: number; t0: number; step: number }) {
  const compiled = compilePipeline({ surface: { source, file: 'lookup.sl' }, maxVertices: grid.nu * grid.nv });
  const { width, height } = tex.levels[0]!;
  const vertices = [...Array(grid.nu * grid.nv).keys()].map((k) => [k % grid.nu, Math.floor(k / grid.nu)] as const);
  const values = {
    u: vertices.map(([i]) => [i]), v: vertices.map(([, j]) => [j]), du: vertices.map(() => [1]), dv: vertices.map(() => [1]),
    s: vertices.map(([i]) => [(grid.s0 + (i + 0.5) * grid.step) / width]), t: vertices.map(([, j]) => [(grid.t0 + (j + 0.5) * grid.step) / height]),
    N: vertices.map(() => [0, 0, -1]), I: vertices.map(() => [0, 0, 1]), Cs: vertices.map(() => [1, 1, 1]), Os: vertices.map(() => [1, 1, 1]),
  };
  const out = await shadeGrid(runtime(), compiled, grid.nu, grid.nv, values, {}, {
    textureSlot: (name) => (name === 'map.tex' ? 0 : -1), textures: packAtlas([tex]),
  });
  return { out, vertices, compiled };
}

describe('texture() on the GPU', () => {
  const rgb = map(8, 8, 3, (x, y, c) => [x / 8, y / 8, ((x * 3 + y * 5) % 7) / 7][c]!);

  it('reproduces the texels exactly when a micropolygon spans one texel', async () => {
    const { out, vertices } = await lookUp('surface t() { Ci = color texture("map.tex"); }', rgb, { nu: 4, nv: 4, s0: 2, t0: 3, step: 1 });
    const level = rgb.levels[0]!;
    expect(out['Ci']).toEqual(vertices.map(([i, j]) => Array.from(level.data.subarray(((3 + j) * 8 + 2 + i) * 3, ((3 + j) * 8 + 2 + i) * 3 + 3))));
  }, 120_000);

  it('reads the next mip level when a micropolygon spans two texels', async () => {
    const { out, vertices } = await lookUp('surface t() { Ci = color texture("map.tex", s, t); }', rgb, { nu: 4, nv: 4, s0: 0, t0: 0, step: 2 });
    const level = rgb.levels[1]!;
    expect(out['Ci']).toEqual(vertices.map(([i, j]) => Array.from(level.data.subarray((j * 4 + i) * 3, (j * 4 + i) * 3 + 3))));
  }, 120_000);

  it('selects a channel with name[n] and gives the fill value past the last channel or for a missing map', async () => {
    const source = `surface t() {
      Ci = color(float texture("map.tex"[1]), float texture("map.tex"[3], "fill", 0.25), float texture("none.tex", "fill", 0.5));
    }`;
    const { out, vertices } = await lookUp(source, rgb, { nu: 2, nv: 2, s0: 4, t0: 5, step: 1 });
    expect(out['Ci']).toEqual(vertices.map(([, j]) => [Math.fround((5 + j) / 8), 0.25, 0.5]));
  }, 120_000);

  it('environment() returns the lat-long texel in the looked-up direction (+z at the top, s from -x through -y, +x, +y)', async () => {
    const sky = map(8, 4, 3, (x, y, c) => [x / 8, y / 4, 0.5][c]!);
    sky.kind = 'latlong';
    sky.swrap = 'periodic';
    // The centre of texel (i, j): longitude (s - ½) 2π, polar angle t π.
    const direction = (i: number, j: number): string => {
      const phi = ((i + 0.5) / 8 - 0.5) * 2 * Math.PI;
      const theta = ((j + 0.5) / 4) * Math.PI;
      return [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)].map((v) => v.toFixed(9)).join(', ');
    };
    const source = `surface t() { Ci = color environment("map.tex", vector (${direction(1, 0)})); Oi = color environment("map.tex", vector (${direction(6, 2)})); }`;
    const { out } = await lookUp(source, sky, { nu: 2, nv: 2, s0: 0, t0: 0, step: 1 });
    // f32 atan2 and acos put the direction within 1e-4 of the texel centre (texels are 1/8 apart).
    for (const c of out['Ci']!) c.forEach((v, k) => expect(v).toBeCloseTo([1 / 8, 0, 0.5][k]!, 3));
    for (const c of out['Oi']!) c.forEach((v, k) => expect(v).toBeCloseTo([6 / 8, 2 / 4, 0.5][k]!, 3));
  }, 120_000);

  it('textureinfo() gives the map\'s resolution, type and channels, and 0 for a missing map', async () => {
    const source = `surface t() {
      uniform float res[2] = {0, 0}, channels = 0, none = 7;
      uniform string kind = "";
      uniform float ok = textureinfo("map.tex", "resolution", res) + textureinfo("map.tex", "type", kind) + textureinfo("map.tex", "channels", channels);
      Ci = color(res[0], res[1], channels);
      Oi = color(ok, kind == "texture" ? 1 : 0, textureinfo("none.tex", "channels", none) + none);
    }`;
    const { out } = await lookUp(source, map(8, 4, 3, () => 0), { nu: 2, nv: 2, s0: 0, t0: 0, step: 1 });
    expect(out['Ci']).toEqual([[8, 4, 3], [8, 4, 3], [8, 4, 3], [8, 4, 3]]);
    expect(out['Oi']).toEqual([[3, 1, 7], [3, 1, 7], [3, 1, 7], [3, 1, 7]]);
  }, 120_000);

  it('"blur" widens a step edge by blur × the map width in texels', async () => {
    // 64 texels across: 0 left of texel 32, 1 from it on.
    const step = map(64, 4, 1, (x) => (x >= 32 ? 1 : 0));
    const grid = { nu: 16, nv: 1, s0: 24, t0: 1, step: 1 };
    const sharp = await lookUp('surface t() { Ci = float texture("map.tex"); }', step, grid);
    expect(sharp.out['Ci']!.map((c) => c[0])).toEqual(sharp.vertices.map(([i]) => (24 + i >= 32 ? 1 : 0)));
    // blur 8/64: the filter spans 9 texels, so the edge ramps over 8 texels centred on it.
    const blurred = await lookUp('surface t() { Ci = float texture("map.tex", "sblur", 0.125); }', step, grid);
    const ramp = blurred.out['Ci']!.map((c) => c[0]!);
    ramp.forEach((value, i) => expect(value).toBeCloseTo(Math.min(1, Math.max(0, (24 + i - 27) / 9)), 6));
  }, 120_000);
});
