// Colour functions and colour-space casts (RI 3.2 sections 15.3 and 4.1.2). Hue, saturation and
// lightness from their textbook definitions; XYZ with the sRGB (IEC 61966-2-1, D65) primaries;
// YIQ from the NTSC definition; xyY the chromaticity of XYZ.
import type { OracleCase } from '../oracle-case.ts';
import { col, oc } from '../oracle-case.ts';

/** HSV to RGB by the hexcone: hue in turns. */
function hsvToRgb(h: number, s: number, v: number): number[] {
  const c = v * s;
  const hp = (h - Math.floor(h)) * 6;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r, g, b] = hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  return [r + v - c, g + v - c, b + v - c];
}

function hslToRgb(h: number, s: number, l: number): number[] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const [r, g, b] = hsvToRgb(h, 1, 1).map((k) => (k - 0.5) * c + l);
  return [r!, g!, b!];
}

const SRGB_TO_XYZ = [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.072175], [0.0193339, 0.119192, 0.9503041]];
const toXyz = (c: number[]): number[] => SRGB_TO_XYZ.map((row) => row[0]! * c[0]! + row[1]! * c[1]! + row[2]! * c[2]!);
const toYiq = ([r, g, b]: number[]): number[] => [0.299 * r! + 0.587 * g! + 0.114 * b!, 0.596 * r! - 0.274 * g! - 0.322 * b!, 0.211 * r! - 0.523 * g! + 0.312 * b!];
const toXyy = (c: number[]): number[] => {
  const [x, y, z] = toXyz(c);
  return [x! / (x! + y! + z!), y! / (x! + y! + z!), y!];
};

const C1 = [0.8, 0.3, 0.1];
const C2 = [0.2, 0.5, 0.9];

export const COLOR_CASES: OracleCase[] = [
  oc('float', 'comp(c, 0)', { c: col(0.1, 0.2, 0.3) }, 0.1),
  oc('float', 'comp(c, 2)', { c: col(0.1, 0.2, 0.3) }, 0.3),
  oc('float', 'comp(c, k)', { c: col(0.1, 0.2, 0.3), k: 1 }, 0.2),
  { ...oc('color', 'w', { c: col(0.1, 0.2, 0.3), x: 5 }, [0.1, 5, 0.3]), setup: 'color w = c; setcomp(w, 1, x);' },
  // Casts from a named space to RGB.
  oc('color', 'color "hsv" (h, s, v)', { h: 0, s: 1, v: 1 }, [1, 0, 0]),
  oc('color', 'color "hsv" (h, s, v)', { h: 1 / 3, s: 1, v: 1 }, [0, 1, 0]),
  oc('color', 'color "hsv" (h, s, v)', { h: 0.5, s: 0.5, v: 1 }, [0.5, 1, 1]),
  oc('color', 'color "hsv" (h, s, v)', { h: 0.9, s: 0.4, v: 0.6 }, hsvToRgb(0.9, 0.4, 0.6)),
  oc('color', 'color "hsv" (h, s, v)', { h: 0.15, s: 0, v: 0.3 }, [0.3, 0.3, 0.3]),
  oc('color', 'color "hsl" (h, s, l)', { h: 0, s: 1, l: 0.5 }, [1, 0, 0]),
  oc('color', 'color "hsl" (h, s, l)', { h: 2 / 3, s: 1, l: 0.25 }, [0, 0, 0.5]),
  oc('color', 'color "hsl" (h, s, l)', { h: 0.3, s: 0.6, l: 0.7 }, hslToRgb(0.3, 0.6, 0.7)),
  oc('color', 'color "rgb" (r, g, b)', { r: 0.1, g: 0.2, b: 0.3 }, [0.1, 0.2, 0.3]),
  oc('color', 'color "xyz" (x, y, z)', { x: toXyz(C1)[0]!, y: toXyz(C1)[1]!, z: toXyz(C1)[2]! }, C1, 1e-3),
  oc('color', 'color "YIQ" (y, i, q)', { y: toYiq(C2)[0]!, i: toYiq(C2)[1]!, q: toYiq(C2)[2]! }, C2, 1e-3),
  oc('color', 'color "xyY" (x, y, z)', { x: toXyy(C1)[0]!, y: toXyy(C1)[1]!, z: toXyy(C1)[2]! }, C1, 1e-3),
  // ctransform(to, c) converts from RGB; ctransform(from, to, c) between two spaces.
  oc('color', 'ctransform("hsv", c)', { c: col(1, 0, 0) }, [0, 1, 1]),
  oc('color', 'ctransform("hsv", c)', { c: col(0.5, 1, 1) }, [0.5, 0.5, 1]),
  oc('color', 'ctransform("hsv", c)', { c: col(0.3, 0.3, 0.3) }, [0, 0, 0.3]),
  oc('color', 'ctransform("hsl", c)', { c: col(0, 0, 0.5) }, [2 / 3, 1, 0.25]),
  oc('color', 'ctransform("xyz", c)', { c: col(1, 1, 1) }, toXyz([1, 1, 1]), 1e-3),
  oc('color', 'ctransform("XYZ", c)', { c: col(C2[0]!, C2[1]!, C2[2]!) }, toXyz(C2), 1e-3),
  oc('color', 'ctransform("YIQ", c)', { c: col(C1[0]!, C1[1]!, C1[2]!) }, toYiq(C1), 1e-3),
  oc('color', 'ctransform("xyY", c)', { c: col(C2[0]!, C2[1]!, C2[2]!) }, toXyy(C2), 1e-3),
  oc('color', 'ctransform("rgb", c)', { c: col(0.1, 0.2, 0.3) }, [0.1, 0.2, 0.3]),
  oc('color', 'ctransform("hsv", "rgb", c)', { c: col(0.9, 0.4, 0.6) }, hsvToRgb(0.9, 0.4, 0.6)),
  oc('color', 'ctransform("hsv", "hsl", c)', { c: col(0, 1, 1) }, [0, 1, 0.5]),
  oc('color', 'ctransform("hsl", "hsv", c)', { c: col(0.3, 0.6, 0.7) }, (() => {
    const rgb = hslToRgb(0.3, 0.6, 0.7);
    const mx = Math.max(...rgb);
    const mn = Math.min(...rgb);
    return [0.3, (mx - mn) / mx, mx];
  })(), 1e-3),
  // Colour arithmetic is per component.
  oc('color', 'c * d', { c: col(0.5, 2, 3), d: col(2, 0.25, -1) }, [1, 0.5, -3]),
  oc('color', 'c / d', { c: col(1, 2, 3), d: col(2, 4, -1) }, [0.5, 0.5, -3]),
  oc('color', 'c + d', { c: col(1, 2, 3), d: col(2, 4, -1) }, [3, 6, 2]),
  oc('color', 'c - d', { c: col(1, 2, 3), d: col(2, 4, -1) }, [-1, -2, 4]),
  oc('color', 'c * a', { c: col(1, 2, 3), a: 0.5 }, [0.5, 1, 1.5]),
  oc('color', 'a - c', { c: col(1, 2, 3), a: 1 }, [0, -1, -2]),
  oc('color', '-c', { c: col(1, -2, 3) }, [-1, 2, -3]),
  oc('color', 'color(a)', { a: 0.25 }, [0.25, 0.25, 0.25]),
  oc('color', 'color(a, b, c)', { a: 0.25, b: 0.5, c: 2 }, [0.25, 0.5, 2]),
  oc('float', 'c . d', { c: col(1, 2, 3), d: col(4, 5, 6) }, 32),
];
