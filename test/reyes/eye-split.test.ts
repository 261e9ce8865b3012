// The eye-split rule (issue 16): quadrics crossing the eye plane (a sky dome and a sphere around the
// camera, a ground disk passing under it) render instead of aborting; straddling pieces are split
// at most `Option "limits" "eyesplits"` times (default 6), what still straddles is culled with one
// warning counting the pieces, and the work stays bounded. Coverage is checked analytically.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';
import { reyes } from '../cli/run-reyes.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { coverage, frameFromText, loadFrame, render, ROOT } from './render-helpers.ts';

const scene = (name: string): string => path.join(ROOT, 'scenes/features', `${name}.rib`);
/** Whether `pixel` is `expected` (8-bit RGBA) within one step of quantization dither. */
const near = (pixel: ArrayLike<number>, expected: number[]): boolean => expected.every((v, c) => Math.abs(pixel[c]! - v) <= 1);
const EYE_CULLED = /(\d+) pieces? still straddling the eye plane after (\d+) eye splits culled/;

/** The camera inside a unit sphere whose centre is at `centre` in camera space; `options` go before WorldBegin. */
const insideSphere = (options: string, centre = '0.2 -0.1 0.3'): string => `Format 32 24 1
${options}
Projection "perspective" "fov" 70
Translate ${centre}
WorldBegin
Sides 2
Surface "constant"
Color [0.2 0.8 0.3]
Sphere 1 -1 1 360
WorldEnd
`;

/** A camera over the ground plane y = -1: the picture's size, its fov and how far it looks down (degrees). */
interface GroundView { width: number; height: number; fov: number; pitch: number }
/** eye-ground-disk.rib's camera. */
const DISK_VIEW: GroundView = { width: 64, height: 48, fov: 60, pitch: 20 };

/**
 * Where the ray through raster point (x, y) of `view` (4:3) meets the ground plane y = -1, as world
 * (x, z), or undefined when it goes above the horizon.
 */
function groundHit(x: number, y: number, view = DISK_VIEW): [number, number] | undefined {
  const tanHalf = Math.tan((view.fov * Math.PI) / 360);
  // Camera space (y up, z forward): the screen window is [-4/3, 4/3] × [-1, 1].
  const sx = ((x / view.width) * 2 - 1) * (4 / 3) * tanHalf;
  const sy = (1 - (y / view.height) * 2) * tanHalf;
  const pitch = (view.pitch * Math.PI) / 180;
  // Camera → world: undo `Rotate -pitch 1 0 0` (the camera looks down: the ground ahead appears low).
  const wy = sy * Math.cos(pitch) - Math.sin(pitch);
  const wz = sy * Math.sin(pitch) + Math.cos(pitch);
  if (wy >= 0) return undefined;
  const t = -1 / wy;
  return [sx * t, wz * t];
}

/** eye-ground-disk.rib: the disk of radius 30 under the eye. */
const groundDiskCovers = (x: number, y: number): boolean => {
  const hit = groundHit(x, y);
  return hit !== undefined && Math.hypot(...hit) <= 30;
};

/** The camera of eye-ground-disk.rib over a ground patch (|x|, |z| <= 30 at y = -1). */
const groundPatch = (patch: string): string => `Format 64 48 1
Projection "perspective" "fov" 60
Rotate -20 1 0 0
WorldBegin
Sides 2
Surface "constant"
${patch}
WorldEnd
`;

/** Bicubic control points of the same square, row by row (coplanar: the patch is the square). */
const bicubicGround = Array.from({ length: 16 }, (_, k) => `${-30 + (k % 4) * 20} -1 ${-30 + Math.floor(k / 4) * 20}`).join(' ');

/**
 * Counts the pixels whose coverage (by default alpha 255 or 0; `covered` says otherwise, undefined
 * for a pixel that is neither) disagrees with `covers` where the disk or patch edge does not cross the pixel's filter support (the default
 * 2×2 gaussian reaches half a pixel beyond it), and the pixels so decided.
 */
function coverageMismatches(
  image: { width: number; height: number; rgba: ArrayLike<number> },
  covers: (x: number, y: number) => boolean,
  covered: (pixel: ArrayLike<number>) => boolean | undefined = (pixel) => pixel[3] === 255,
) {
  let wrong = 0;
  let decided = 0;
  const examples: string[] = [];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const corners = [[x - 0.5, y - 0.5], [x + 1.5, y - 0.5], [x - 0.5, y + 1.5], [x + 1.5, y + 1.5]].map(([cx, cy]) => covers(cx!, cy!));
      if (!corners.every((c) => c === corners[0])) continue;
      decided++;
      const at = (y * image.width + x) * 4;
      const pixel = [0, 1, 2, 3].map((c) => image.rgba[at + c]!);
      if (covered(pixel) !== corners[0]) {
        wrong++;
        if (examples.length < 10) examples.push(`(${x}, ${y}) ${pixel.join(' ')}`);
      }
    }
  }
  return { wrong, decided, examples: examples.join(' ') };
}

/** bench:scale's sky scene with constant colours: the camera (fov 40, level) inside `Sphere 100`
 * over a ground Disk of radius 60 one unit under it. */
const skyOverGround = (options: string, size: [number, number]): string => `Format ${size[0]} ${size[1]} 1
PixelSamples 2 2
Projection "perspective" "fov" 40
${options}
WorldBegin
Sides 2
Surface "constant"
AttributeBegin Color [0.45 0.65 0.95] Sphere 100 -100 100 360 AttributeEnd
AttributeBegin Color [0.35 0.5 0.25] Translate 0 -1 0 Rotate 90 1 0 0 Disk 0 60 360 AttributeEnd
WorldEnd
`;
const GROUND = [89, 128, 64, 255];
const SKY = [115, 166, 242, 255];

describe('eye-split rule', () => {
  const gpu = useGpuRuntime();

  it('the camera inside a two-sided sphere sees its inside colour in every pixel', async () => {
    const { image, rendered } = await render(gpu(), await loadFrame(scene('eye-inside-sphere')));
    // Color [0.2 0.8 0.3], opaque, everywhere.
    for (let k = 0; k < image.width * image.height; k++) {
      const pixel = image.rgba.subarray(k * 4, k * 4 + 4);
      expect(near(pixel, [51, 204, 77, 255]), `pixel ${k}: ${[...pixel]}`).toBe(true);
      expect(pixel[3]).toBe(255);
    }
    // Bounded work: at most 6 eye splits plus the size splits of a few grids.
    expect(rendered.stats.boundSplitIterations).toBeLessThanOrEqual(16);
    expect(rendered.stats.primitivesAfterSplit).toBeLessThan(400);
    expect(rendered.stats.peakBytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('a sky dome around the camera covers every pixel', async () => {
    const { image, rendered } = await render(gpu(), await loadFrame(scene('eye-sky-dome')));
    expect(coverage(image)).toBe(1);
    // The dome's Color [0.3 0.5 0.9] in the corners, away from the red ball.
    for (const k of [0, image.width - 1, image.width * (image.height - 1), image.width * image.height - 1]) {
      expect(near(image.rgba.subarray(k * 4, k * 4 + 4), [77, 128, 230, 255]), `pixel ${k}`).toBe(true);
    }
    expect(rendered.stats.boundSplitIterations).toBeLessThanOrEqual(16);
    expect(rendered.stats.primitivesAfterSplit).toBeLessThan(400);
    expect(rendered.stats.peakBytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('the sky dome at 640×480 takes memory for its grids, not for pieces split toward the eye', async () => {
    // Before the eye-split rule: 66 iterations and 805 MiB at the peak; now 52 and 136 MiB.
    const { image, rendered } = await render(gpu(), await loadFrame(scene('eye-sky-dome')), { resolution: [640, 480] });
    expect(coverage(image)).toBe(1);
    expect(rendered.warnings).toEqual([]);
    expect(rendered.stats.primitivesAfterSplit).toBeLessThan(8000);
    expect(rendered.stats.peakBytes).toBeLessThan(256 * 1024 * 1024);
  });

  it('a ground disk passing under the camera covers the pixels whose rays meet it', async () => {
    const { image, rendered } = await render(gpu(), await loadFrame(scene('eye-ground-disk')));
    const { wrong, decided, examples } = coverageMismatches(image, groundDiskCovers);
    expect(wrong, examples).toBe(0);
    // All but the two or three rows about the horizon are decided.
    expect(decided).toBeGreaterThan(64 * 44);
    expect(rendered.stats.boundSplitIterations).toBeLessThanOrEqual(16);
    expect(rendered.stats.primitivesAfterSplit).toBeLessThan(400);
  });

  it('the ground under a sky dome is whole at the default eyesplits (bench:scale\'s sky scene)', async () => {
    // Before splits were chosen by what they part: 6 eye splits left pieces of the ground near the
    // camera straddling, and culling them cut a hole; eyesplits 12 was needed.
    for (const size of [[64, 48], [160, 120]] as [number, number][]) {
      const view: GroundView = { width: size[0], height: size[1], fov: 40, pitch: 0 };
      const onGround = (x: number, y: number): boolean => {
        const hit = groundHit(x, y, view);
        return hit !== undefined && Math.hypot(...hit) <= 60;
      };
      const { image, rendered } = await render(gpu(), await frameFromText(skyOverGround('', size)));
      // Every decided pixel is the ground's colour or the sky's, as the ray through it says.
      const { wrong, decided, examples } = coverageMismatches(image, onGround, (pixel) => (near(pixel, GROUND) ? true : near(pixel, SKY) ? false : undefined));
      expect(wrong, `${size.join('×')}: ${examples}`).toBe(0);
      expect(decided).toBeGreaterThan(size[0] * size[1] * 0.9);
      expect(rendered.warnings).toEqual([]);
      expect(rendered.stats.eyeSplitCulls).toBe(0);
      expect(rendered.stats.primitivesAfterSplit).toBeLessThan(2000);
      // The same picture as with twice the eye splits.
      const deeper = await render(gpu(), await frameFromText(skyOverGround('Option "limits" "eyesplits" [12]', size)));
      expect([...image.rgba].every((v, k) => Math.abs(v - deeper.image.rgba[k]!) <= 1)).toBe(true);
    }
  });

  it('bilinear and bicubic ground patches passing under the camera get the same treatment', async () => {
    const inSquare = (x: number, y: number): boolean => {
      const hit = groundHit(x, y);
      return hit !== undefined && Math.abs(hit[0]) <= 30 && Math.abs(hit[1]) <= 30;
    };
    for (const patch of ['Patch "bilinear" "P" [-30 -1 -30  30 -1 -30  -30 -1 30  30 -1 30]', `Patch "bicubic" "P" [${bicubicGround}]`]) {
      const { image, rendered } = await render(gpu(), await frameFromText(groundPatch(patch)));
      const { wrong, decided, examples } = coverageMismatches(image, inSquare);
      expect(wrong, `${patch.slice(0, 16)}: ${examples}`).toBe(0);
      expect(decided).toBeGreaterThan(64 * 40);
      // Bounded well below the deepest split (24): 6 eye splits, then size splits (pieces across the
      // picture's edge are sized by their off-screen part too).
      expect(rendered.stats.boundSplitIterations).toBeLessThanOrEqual(20);
      expect(rendered.stats.primitivesAfterSplit).toBeLessThan(400);
    }
  });

  it('eyesplits 0 culls a sphere around the eye outright; the default 6 splits it until the visible pieces render', async () => {
    // Centred on the eye: every split of the whole sphere leaves both halves straddling.
    const none = await render(gpu(), await frameFromText(insideSphere('Option "limits" "eyesplits" [0]', '0 0 0')));
    expect(coverage(none.image)).toBe(0);
    expect(none.rendered.stats.eyeSplitCulls).toBe(1);
    const warning = none.rendered.warnings.find((w) => EYE_CULLED.test(w));
    expect(warning?.match(EYE_CULLED)?.slice(1)).toEqual(['1', '0']);
    const centred = await render(gpu(), await frameFromText(insideSphere('', '0 0 0')));
    expect(coverage(centred.image)).toBe(1);
    expect(centred.rendered.stats.eyeSplitCulls).toBe(0);

    const six = await render(gpu(), await frameFromText(insideSphere('')));
    expect(coverage(six.image)).toBe(1);
    const explicit = await render(gpu(), await frameFromText(insideSphere('Option "limits" "eyesplits" [6]')));
    expect(explicit.rendered.stats.eyeSplitCulls).toBe(six.rendered.stats.eyeSplitCulls);
    expect([...explicit.image.rgba]).toEqual([...six.image.rgba]);
    // Off centre, splitting across latitude parts the cap ahead (z >= 0.3) from the rest: a split
    // that leaves one half clear of the eye plane is no eye split, so even eyesplits 0 renders it.
    const offCentre = await render(gpu(), await frameFromText(insideSphere('Option "limits" "eyesplits" [0]')));
    expect([...offCentre.image.rgba]).toEqual([...six.image.rgba]);
  });

  it('a bad eyesplits value is reported at the Option and the default used', async () => {
    const scene = parseRibSync(insideSphere('Option "limits" "eyesplits" [-2]'), { fileName: 'inside.rib' });
    expect(scene.warnings.map((w) => `${w.line}:${w.column} ${w.message}`).filter((m) => m.includes('eyesplits')))
      .toEqual(['2:1 Option "limits" "eyesplits" must be a whole number of splits, at least 0, not [-2]; ignored']);
    const { image } = await render(gpu(), scene.frames[0]!);
    expect(coverage(image)).toBe(1);
  });

  it('the CLI renders the three scenes with exit status 0', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'eye-split-'));
    for (const name of ['eye-sky-dome', 'eye-inside-sphere', 'eye-ground-disk']) {
      const { code, stderr } = await reyes(['render', scene(name), '-o', path.join(out, `${name}.png`)]);
      expect(code, stderr).toBe(0);
      expect(stderr).not.toMatch(/Invalid|error/i);
    }
    // What the rule culls is reported on stderr once, and the frame still renders.
    const culling = path.join(out, 'eyesplits-0.rib');
    writeFileSync(culling, insideSphere('Option "limits" "eyesplits" [0]', '0 0 0'));
    const { code, stderr } = await reyes(['render', culling, '-o', path.join(out, 'eyesplits-0.png')]);
    expect(code, stderr).toBe(0);
    expect(stderr.match(new RegExp(EYE_CULLED, 'g'))).toHaveLength(1);
    expect(stderr).toMatch(/warning: 1 piece still straddling the eye plane after 0 eye splits culled/);
  });
});
