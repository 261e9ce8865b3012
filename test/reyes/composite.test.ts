// Compositing of deep sample lists (reyes-composite.wgsl): each subpixel's points are ordered by
// depth in the subpixel's own invocation, NEAREST (16) at a time, so lists of 40 layers take several
// passes. The expected pixels come from the "over" operator as RenderMan defines it (RI spec 3.2,
// section 4: front to back, C += T·Ci, A += T·Oi, T ·= 1 − Oi, with Ci = Cs·Os for "constant"),
// evaluated here over the layers sorted by depth; the scene declares them in a shuffled order.
import { describe, expect, it } from 'vitest';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, pixel, render } from './render-helpers.ts';

interface Layer { z: number; color: [number, number, number]; opacity: number }

/** 40 layers at z = 2, 2.1, ... with colours and opacities that differ layer to layer, in a shuffled order. */
function layers(count: number): Layer[] {
  const made: Layer[] = [];
  for (let k = 0; k < count; k++) {
    made.push({ z: 2 + k * 0.1, color: [(k % 7) / 6, (k % 5) / 4, ((k * 3) % 11) / 10], opacity: 0.08 + (k % 4) * 0.03 });
  }
  // A fixed permutation (multiplying by 17 mod 40 is one), so declaration order is not depth order.
  return made.map((_, k) => made[(k * 17) % count]!);
}

function polygon(x0: number, x1: number, layer: Layer): string {
  const { z, color, opacity } = layer;
  return `Color [${color.join(' ')}]\nOpacity [${opacity} ${opacity} ${opacity}]\n` +
    `Polygon "P" [${x0} -2 ${z}  ${x1} -2 ${z}  ${x1} 2 ${z}  ${x0} 2 ${z}]`;
}

/** RGBA of `stack` composited front to back over nothing (premultiplied), stopping at an opaque layer. */
function over(stack: Layer[]): number[] {
  const sorted = [...stack].sort((a, b) => a.z - b.z);
  const rgba = [0, 0, 0, 0];
  let transmit = 1;
  for (const { color, opacity } of sorted) {
    for (let c = 0; c < 3; c++) rgba[c]! += transmit * color[c]! * opacity;
    rgba[3]! += transmit * opacity;
    transmit *= 1 - opacity;
  }
  return rgba;
}

const deep = layers(40);
// Right half: 12 of the layers in front of an opaque grey wall at z = 2.55, the rest behind it.
const wall: Layer = { z: 2.55, color: [0.5, 0.5, 0.5], opacity: 1 };
const SCENE = `Format 60 40 1
PixelSamples 4 4
PixelFilter "box" 1 1
Projection "orthographic"
ScreenWindow -3 3 -2 2
WorldBegin
Surface "constant"
${deep.map((layer) => polygon(-3, 0, layer)).join('\n')}
${deep.map((layer) => polygon(0, 2, layer)).join('\n')}
${polygon(0, 2, wall)}
WorldEnd`;

describe('compositing deep sample lists', () => {
  const gpu = useGpuRuntime();

  it('composites 40 shuffled transparent layers front to back, and stops at an opaque one', async () => {
    const { rendered } = await render(gpu(), await frameFromText(SCENE));
    const near = (actual: number[], expected: number[]) => actual.forEach((v, c) => expect(v).toBeCloseTo(expected[c]!, 5));
    // Left half: all 40 layers (three passes of 16 nearest).
    const left = over(deep);
    for (const [x, y] of [[3, 3], [15, 20], [28, 36]] as const) near(pixel(rendered.image, x, y), left);
    // Right half: the layers in front of the wall, then the wall (alpha reaches 1).
    const right = over([...deep.filter((layer) => layer.z < wall.z), wall]);
    expect(right[3]).toBeCloseTo(1, 6);
    for (const [x, y] of [[32, 3], [40, 20], [48, 36]] as const) near(pixel(rendered.image, x, y), right);
    // x > 2: nothing.
    expect(pixel(rendered.image, 55, 20)).toEqual([0, 0, 0, 0]);
  });
});
