// `--frames 1-240,250`: which of a scene's frames a submission renders, by FrameBegin number (a world
// outside any frame block counts as number index + 1, as `reyes render` numbers it).
import type { Frame } from '../rib/scene.ts';

export class FrameListError extends Error {}

export function frameNumberOf(frame: Frame, index: number): number {
  return frame.frameNumber ?? index + 1;
}

/** The indices of `frames` the list names, in scene order; every number asked for must exist. */
export function selectFrames(frames: readonly Frame[], list: string | undefined): number[] {
  const all = frames.map((_, k) => k);
  if (list === undefined) return all;
  const wanted = new Set<number>();
  for (const part of list.split(',')) {
    const m = /^\s*(-?\d+)\s*(?:-\s*(-?\d+)\s*)?$/.exec(part);
    const first = Number(m?.[1]);
    const last = m?.[2] === undefined ? first : Number(m[2]);
    if (!m || last < first) throw new FrameListError(`--frames must be numbers and ranges like 1-240,250 (first ≤ last), not "${list}"`);
    for (let n = first; n <= last; n++) wanted.add(n);
  }
  const chosen = all.filter((k) => wanted.has(frameNumberOf(frames[k]!, k)));
  const found = new Set(chosen.map((k) => frameNumberOf(frames[k]!, k)));
  const missing = [...wanted].filter((n) => !found.has(n));
  if (missing.length > 0) {
    const numbers = frames.map(frameNumberOf);
    const shown = missing.length > 5 ? `${missing.slice(0, 5).join(', ')}, …` : missing.join(', ');
    throw new FrameListError(`--frames ${list}: the scene has no frame ${shown} (its frames are ${describeNumbers(numbers)})`);
  }
  return chosen;
}

/** 1,2,3,7 → "1-3, 7". */
function describeNumbers(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let k = 0; k < sorted.length; ) {
    let end = k;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    runs.push(end === k ? `${sorted[k]}` : `${sorted[k]}-${sorted[end]}`);
    k = end + 1;
  }
  return runs.join(', ');
}
