// What a Display's mode asks for (RI 3.2 "Display"): the standard modes are "rgb", "rgba", "a",
// "z" and their combinations ("rgbz", "rgbaz", "az"); any other mode names an output variable
// ("N", "Ci", "color foo") whose values the display gets instead of the picture.

export type DisplayMode =
  | { kind: 'standard'; colour: boolean; alpha: boolean; depth: boolean }
  | { kind: 'variable'; name: string };

export function parseDisplayMode(mode: string): DisplayMode {
  const m = /^(rgb)?(a)?(z)?$/i.exec(mode.trim());
  if (m && mode.trim() !== '') return { kind: 'standard', colour: !!m[1], alpha: !!m[2], depth: !!m[3] };
  // "varying normal N", "color foo": the declaration's last word is the variable's name.
  return { kind: 'variable', name: mode.trim().split(/\s+/).at(-1)! };
}

/** Samples per pixel of the picture part of a standard mode (rgb 3, rgba 4, a 1; 0 for "z"). */
export function pictureSamples(mode: { colour: boolean; alpha: boolean }): number {
  return (mode.colour ? 3 : 0) + (mode.alpha ? 1 : 0);
}
