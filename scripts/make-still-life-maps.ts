// `node --import ./src/node/register.js scripts/make-still-life-maps.ts`: draws the pictures
// scenes/viewer/still-life.rib makes its maps from, procedurally (no outside images), and writes
// them beside the scene as small 8-bit RGB PNGs:
// - still-life-tiles.png (128 × 128): 4 × 4 floor tiles, terracotta and cream in a checker, each
//   tile's shade varied a little, grout lines on the left and top edge of each tile, so the picture
//   repeats seamlessly (the scene makes it a "periodic" texture);
// - still-life-wood.png (64 × 64): plank wood, the grain running along s, darker rings
//   bent by a low-frequency wobble, a dark border one texel wide (the box's edges);
// - still-life-sky.png (128 × 64): a lat-long environment with +z at the top (t = 0) and s the
//   longitude from -x through -y, +x and +y, as MakeLatLongEnvironment and environment() read it: a
//   blue sky lighter towards the horizon, soft clouds, a sun 35 degrees up towards +x -y, green
//   hills on the horizon and below it grass and, nearer the nadir, a terrace of tiles
//   like the floor's (what a chrome ball standing on that floor would see beneath it).
// Deterministic: the same bytes every run.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodePng } from '../src/image/png.ts';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'scenes/viewer');

type Rgb = [number, number, number];

/** A hash of integer lattice coordinates to [0, 1). */
function hash(x: number, y: number, seed: number): number {
  let h = (x * 374761393 + y * 668265263 + seed * 2246822519) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise in [0, 1), periodic with `px` lattice cells in x (0: not periodic). */
function noise(x: number, y: number, seed: number, px = 0): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const wrap = (i: number): number => (px > 0 ? ((i % px) + px) % px : i);
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash(wrap(x0), y0, seed);
  const b = hash(wrap(x0 + 1), y0, seed);
  const c = hash(wrap(x0), y0 + 1, seed);
  const d = hash(wrap(x0 + 1), y0 + 1, seed);
  return (a + (b - a) * sx) * (1 - sy) + (c + (d - c) * sx) * sy;
}

/** Four octaves of value noise, periodic with `px` cells of the first octave in x. */
function fractal(x: number, y: number, seed: number, px = 0): number {
  let sum = 0;
  let weight = 0.5;
  for (let octave = 0; octave < 4; octave++) {
    const k = 2 ** octave;
    sum += weight * noise(x * k, y * k, seed + octave, px * k);
    weight /= 2;
  }
  return sum / 0.9375;
}

const mix = (a: Rgb, b: Rgb, f: number): Rgb => [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));
const smoothstep = (e0: number, e1: number, x: number): number => {
  const f = clamp01((x - e0) / (e1 - e0));
  return f * f * (3 - 2 * f);
};

function writePicture(name: string, width: number, height: number, colour: (x: number, y: number) => Rgb): void {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colour(x, y);
      const k = (y * width + x) * 4;
      for (let i = 0; i < 3; i++) rgba[k + i] = Math.round(clamp01(c[i]!) * 255);
      rgba[k + 3] = 255;
    }
  }
  const file = path.join(out, name);
  writeFileSync(file, encodePng({ width, height, bitDepth: 8, rgba }, [0, 1, 2]));
  console.log(file);
}

// Floor tiles: 4 × 4 tiles of 32 texels, grout 2 texels wide on each tile's left and top edge.
writePicture('still-life-tiles.png', 128, 128, (x, y) => {
  const tx = Math.floor(x / 32);
  const ty = Math.floor(y / 32);
  const u = x % 32;
  const v = y % 32;
  if (u < 2 || v < 2) return mix([0.72, 0.7, 0.66], [0.6, 0.58, 0.55], hash(x, y, 7));
  const base: Rgb = (tx + ty) % 2 === 0 ? [0.72, 0.36, 0.22] : [0.9, 0.84, 0.7];
  const shade = 0.92 + 0.12 * hash(tx, ty, 3);
  const speckle = 0.96 + 0.08 * hash(x, y, 11);
  // A faint clouding inside the tile, periodic over the picture (4 cells of 32 texels).
  const cloud = 0.94 + 0.1 * fractal(x / 32, y / 32, 5, 4);
  const f = shade * speckle * cloud;
  return [base[0] * f, base[1] * f, base[2] * f];
});

// Wood: grain along s (x), rings across t bent by noise.
writePicture('still-life-wood.png', 64, 64, (x, y) => {
  if (x === 0 || y === 0 || x === 63 || y === 63) return [0.32, 0.18, 0.09];
  const bend = 1.4 * fractal(x / 40, y / 24, 21) + 0.6 * Math.sin((x / 64) * 2 * Math.PI + y / 20);
  const ring = (y / 64) * 7 + bend + 0.1 * noise(x / 3, y * 2, 23);
  const f = ring - Math.floor(ring);
  const dark = smoothstep(0.55, 0.95, f);
  const light: Rgb = [0.78, 0.56, 0.33];
  const darker: Rgb = [0.5, 0.3, 0.15];
  const c = mix(light, darker, dark * 0.8);
  const fibre = 0.93 + 0.1 * noise(x / 1.5, y * 3, 29);
  return [c[0] * fibre, c[1] * fibre, c[2] * fibre];
});

// Sky: a lat-long map, s the longitude (0 at -x, 0.25 at -y, 0.5 at +x, 0.75 at +y), t = acos(z) / π.
const SUN = (() => {
  const elevation = (35 * Math.PI) / 180;
  const azimuth = Math.atan2(-1, 1); // towards +x -y
  return [Math.cos(elevation) * Math.cos(azimuth), Math.cos(elevation) * Math.sin(azimuth), Math.sin(elevation)] as const;
})();
writePicture('still-life-sky.png', 128, 64, (x, y) => {
  const s = (x + 0.5) / 128;
  const t = (y + 0.5) / 64;
  const phi = (s - 0.5) * 2 * Math.PI;
  const theta = t * Math.PI;
  const d = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
  const z = d[2]!;
  // Hills: a horizon line a few degrees up, varying with the longitude (periodic noise, 8 cells around).
  const hill = 0.03 + 0.17 * smoothstep(0.3, 0.75, fractal(s * 6, 0.5, 41, 6));
  if (z < 0) {
    // A terrace of the floor's tiles seen from a point 3 above it (tiles 1 wide), fading into
    // grass towards the horizon, where the tiles would be finer than a texel.
    const x = (d[0]! * 3) / -z;
    const y = (d[1]! * 3) / -z;
    const gx = x - Math.floor(x);
    const gy = y - Math.floor(y);
    const tile: Rgb = gx < 0.08 || gy < 0.08 ? [0.66, 0.64, 0.6]
      : (Math.floor(x) + Math.floor(y)) % 2 === 0 ? [0.72, 0.36, 0.22] : [0.9, 0.84, 0.7];
    const grass: Rgb = [0.36, 0.5, 0.26];
    return mix(tile, grass, smoothstep(-0.6, -0.25, z));
  }
  if (z < hill) {
    const shade = 0.75 + 0.25 * fractal(s * 24, t * 24, 47, 24);
    return [0.2 * shade, 0.36 * shade, 0.18 * shade];
  }
  const up = smoothstep(0, 0.8, z);
  let sky = mix([0.78, 0.86, 0.95], [0.22, 0.45, 0.85], up);
  // Clouds: fractal noise in longitude (periodic) and height, thinned towards the zenith.
  const cloud = smoothstep(0.5, 0.75, fractal(s * 6, z * 5, 53, 6)) * (1 - smoothstep(0.6, 0.95, z));
  sky = mix(sky, [0.97, 0.97, 0.98], cloud * 0.85);
  // The sun: a bright disc with a warm glow around it.
  const cosSun = d[0]! * SUN[0] + d[1]! * SUN[1] + d[2]! * SUN[2];
  const glow = Math.max(0, cosSun) ** 24 * 0.45;
  const disc = smoothstep(0.985, 0.995, cosSun);
  return mix([sky[0] + glow, sky[1] + glow * 0.85, sky[2] + glow * 0.5], [1, 0.97, 0.85], disc);
});
