// A render's progress: the frame's pixels, each weighted by the last stage its region finished
// (bound/split, dice, shade, sample, filter), so a frame the schedulers do in one region moves too.
// Reported values only rise: a dicing region cut after its stages ran (its sampling starved) gives
// its pixels' credit back, and nothing is reported until the work redone passes the last value.
import type { Region } from '../frame-gpu.ts';

/** Percent of a pixel's work done once its region finished each stage: the stages' mean shares of
 * the render time of the three viewer scenes on lavapipe (bound/split 21%, dice 27%, shade 10%,
 * sample and composite 38%, filter 3%; convert and Imager left out), summed in stage order. */
const STAGE_PERCENT = { boundSplit: 21, dice: 48, shade: 58, sample: 96, filter: 100 } as const;

export type ProgressStage = keyof typeof STAGE_PERCENT;

export class FrameProgress {
  /** Percent done per pixel of the frame's (cropped) image. */
  private readonly percent: Uint8Array;
  private readonly width: number;
  /** Sum of `percent`: integers, so the last stage of the last region gives exactly every pixel. */
  private done = 0;
  private reported = 0;

  constructor(private readonly image: Region, private readonly report: (pixelsDone: number, pixelsTotal: number) => void) {
    this.width = image.x1 - image.x0;
    this.percent = new Uint8Array(this.width * (image.y1 - image.y0));
  }

  /** `region` (global raster pixels) finished `stage`. */
  stageDone(region: Region, stage: ProgressStage): void {
    this.set(region, STAGE_PERCENT[stage], false);
    if (this.done > this.reported) {
      this.reported = this.done;
      this.report(this.done / 100, this.percent.length);
    }
  }

  /** `region`'s work is thrown away and will be done again. */
  redo(region: Region): void {
    this.set(region, 0, true);
  }

  private set(region: Region, percent: number, lower: boolean): void {
    const x0 = Math.max(region.x0, this.image.x0) - this.image.x0;
    const x1 = Math.min(region.x1, this.image.x1) - this.image.x0;
    const y0 = Math.max(region.y0, this.image.y0) - this.image.y0;
    const y1 = Math.min(region.y1, this.image.y1) - this.image.y0;
    for (let y = y0; y < y1; y++) {
      for (let k = y * this.width + x0; k < y * this.width + x1; k++) {
        const old = this.percent[k]!;
        if (old < percent || (lower && old > percent)) {
          this.done += percent - old;
          this.percent[k] = percent;
        }
      }
    }
  }
}
