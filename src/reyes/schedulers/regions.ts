// Cutting screen regions: BSP halves (longer axis, middle) for the schedulers, fixed tiles for
// bucket mode.
import type { Region } from '../frame-gpu.ts';

export function splitRegion(r: Region): [Region, Region] {
  if (r.x1 - r.x0 >= r.y1 - r.y0) {
    const mid = Math.floor((r.x0 + r.x1) / 2);
    return [{ ...r, x1: mid }, { ...r, x0: mid }];
  }
  const mid = Math.floor((r.y0 + r.y1) / 2);
  return [{ ...r, y1: mid }, { ...r, y0: mid }];
}

export function canSplit(r: Region): boolean {
  return r.x1 - r.x0 > 1 || r.y1 - r.y0 > 1;
}

export function tiles(r: Region, size: number): Region[] {
  const out: Region[] = [];
  for (let y = r.y0; y < r.y1; y += size) {
    for (let x = r.x0; x < r.x1; x += size) out.push({ x0: x, y0: y, x1: Math.min(r.x1, x + size), y1: Math.min(r.y1, y + size) });
  }
  return out;
}
