// Work stealing over screen regions for several devices, as RenderAnts shares a frame between GPUs:
// the picture is cut (BSP, longer axis, middle) into regionsPerDevice × devices regions, dealt out in
// BSP order so each device's regions lie together; a device takes its own regions in order, and one
// that runs dry takes the largest unstarted region of the busiest device (the one with the most
// unstarted pixels), splitting it in two when it is that device's last one so both keep working.
// Pictures do not depend on who renders what: each region renders exactly its own pixels.
import type { PixelRect } from '../camera.ts';

export interface RegionAssignment {
  region: PixelRect;
  /** The device it was taken from, when stolen. */
  stolenFrom?: number;
}

export interface DeviceSchedule {
  /** Regions this device rendered. */
  regions: number;
  pixels: number;
  /** Regions it took from other devices. */
  steals: number;
}

const area = (r: PixelRect): number => (r.x1 - r.x0) * (r.y1 - r.y0);

/** Halves `r` across its longer side; undefined when a half would be thinner than `minSide`. */
function halve(r: PixelRect, minSide: number): [PixelRect, PixelRect] | undefined {
  const wide = r.x1 - r.x0 >= r.y1 - r.y0;
  const [lo, hi] = wide ? [r.x0, r.x1] : [r.y0, r.y1];
  if (hi - lo < 2 * minSide) return undefined;
  const mid = lo + Math.floor((hi - lo) / 2);
  return wide ? [{ ...r, x1: mid }, { ...r, x0: mid }] : [{ ...r, y1: mid }, { ...r, y0: mid }];
}

/** `count` regions of `picture` by BSP (largest first), in BSP leaf order. */
export function cutRegions(picture: PixelRect, count: number, minSide: number): PixelRect[] {
  const leaves = [picture];
  while (leaves.length < count) {
    let largest = -1;
    for (let k = 0; k < leaves.length; k++) if (halve(leaves[k]!, minSide) && (largest < 0 || area(leaves[k]!) > area(leaves[largest]!))) largest = k;
    if (largest < 0) break;
    leaves.splice(largest, 1, ...halve(leaves[largest]!, minSide)!);
  }
  return leaves;
}

export class RegionScheduler {
  private readonly unstarted: PixelRect[][];
  readonly devices: DeviceSchedule[];

  constructor(picture: PixelRect, devices: number, regionsPerDevice: number, private readonly minSide = 8) {
    const regions = cutRegions(picture, devices * regionsPerDevice, minSide);
    this.unstarted = Array.from({ length: devices }, (_, d) => regions.slice(Math.round((d * regions.length) / devices), Math.round(((d + 1) * regions.length) / devices)));
    this.devices = Array.from({ length: devices }, () => ({ regions: 0, pixels: 0, steals: 0 }));
  }

  /** The next region for `device`, or undefined when no region is left unstarted. */
  next(device: number): RegionAssignment | undefined {
    const own = this.unstarted[device]!.shift();
    if (own) return this.take(device, own);
    const victim = this.busiest();
    if (victim === undefined) return undefined;
    const queue = this.unstarted[victim]!;
    let region: PixelRect;
    const halves = queue.length === 1 ? halve(queue[0]!, this.minSide) : undefined;
    if (halves) {
      queue[0] = halves[0];
      region = halves[1];
    } else {
      let largest = 0;
      for (let k = 1; k < queue.length; k++) if (area(queue[k]!) > area(queue[largest]!)) largest = k;
      region = queue.splice(largest, 1)[0]!;
    }
    this.devices[device]!.steals++;
    return { ...this.take(device, region), stolenFrom: victim };
  }

  private take(device: number, region: PixelRect): RegionAssignment {
    this.devices[device]!.regions++;
    this.devices[device]!.pixels += area(region);
    return { region };
  }

  /** The device with the most unstarted pixels (the first of equals), if any has some. */
  private busiest(): number | undefined {
    let best: number | undefined;
    let bestArea = 0;
    this.unstarted.forEach((queue, d) => {
      const pixels = queue.reduce((sum, r) => sum + area(r), 0);
      if (pixels > bestArea) [best, bestArea] = [d, pixels];
    });
    return best;
  }
}
