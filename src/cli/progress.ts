// `reyes render`'s progress display, fed by RenderOptions.onProgress (pixels done, each weighted by
// its region's last finished stage) and onRegion (regions finished). On a terminal a cli-progress
// bar, shown only once a frame has rendered for a second so quick renders print nothing; elsewhere
// (a pipe, a log file) one line per whole percent gained, at most one a second, with --progress
// only. Written on stderr, so stdout keeps only the list of files written.
import cliProgress from 'cli-progress';
import type { RenderOptions } from '../index.ts';

export type ProgressMode = 'bar' | 'lines' | 'none';

/** What to show: --quiet nothing, a terminal a bar, elsewhere lines when --progress asks. */
export function progressMode(options: { progress?: boolean; quiet?: boolean }, terminal: boolean): ProgressMode {
  if (options.quiet) return 'none';
  if (terminal) return 'bar';
  return options.progress ? 'lines' : 'none';
}

/** A frame's progress display: the callbacks to render with, and `finish` once it is rendered. */
export interface FrameProgressDisplay {
  callbacks: Pick<RenderOptions, 'onProgress' | 'onRegion'>;
  /** Stops the display (also when the render failed); the bar is left at its last state. */
  finish(): void;
}

/** A terminal bar appears only for renders longer than this. */
const BAR_DELAY_MS = 1000;
/** Least time between two progress lines (the last, at 100%, is always printed). */
const LINE_INTERVAL_MS = 1000;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function frameProgress(mode: ProgressMode, label: string, stream: NodeJS.WriteStream = process.stderr): FrameProgressDisplay {
  const start = performance.now();
  let done = 0;
  let total = 1;
  let regions = 0;
  const onRegion: RenderOptions['onRegion'] = (kind, _rect, split) => {
    // The regions whose pixels are done: sampling regions, or buckets.
    if (!split && kind !== 'dicing') regions++;
  };
  if (mode === 'none') return { callbacks: {}, finish: () => undefined };
  if (mode === 'lines') {
    let lastPercent = -1;
    let lastLine = -Infinity;
    return {
      callbacks: {
        onRegion,
        onProgress(pixelsDone, pixelsTotal) {
          const now = performance.now();
          const percent = Math.floor((100 * pixelsDone) / pixelsTotal);
          if (percent <= lastPercent || (percent < 100 && now - lastLine < LINE_INTERVAL_MS)) return;
          lastPercent = percent;
          lastLine = now;
          const elapsed = now - start;
          const left = pixelsDone > 0 ? (elapsed * (pixelsTotal - pixelsDone)) / pixelsDone : NaN;
          const rest = percent < 100 && Number.isFinite(left) ? `, about ${seconds(left)} left` : '';
          stream.write(`${label}${percent}% (${regions} regions, ${seconds(elapsed)} elapsed${rest})\n`);
        },
      },
      finish: () => undefined,
    };
  }
  const format = `${label}{bar} {percentage}% | {regions} regions | {duration_formatted} elapsed | {eta_formatted} left`;
  const frameStart = Date.now();
  const bar = new cliProgress.SingleBar({
    stream,
    // cli-progress's own formatter, with the time elapsed counted from the frame's start rather
    // than from the bar's, which appears a second later.
    format: (options, params, payload) => cliProgress.Format.Formatter({ ...options, format }, { ...params, startTime: frameStart }, payload),
    hideCursor: true,
  });
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    bar.start(total, done, { regions });
  }, BAR_DELAY_MS);
  timer.unref();
  return {
    callbacks: {
      onRegion,
      onProgress(pixelsDone, pixelsTotal) {
        done = pixelsDone;
        total = pixelsTotal;
        if (shown) {
          bar.setTotal(total);
          bar.update(done, { regions });
        }
      },
    },
    finish() {
      clearTimeout(timer);
      if (shown) {
        bar.update(done, { regions });
        bar.stop();
      }
    },
  };
}
