// The Farm panel: what `reyes farm status` shows (jobs per phase, the newest jobs with their times
// and failures, the workers connected), polled while the panel is open from the dev server's
// /farm/status.json (src/farm/vite-farm-status.ts reads it from Redis; the page cannot). A page
// served without REDIS_URL has no <meta name="reyes-farm-status"> and asks nothing: it says so.
import { element, h, setStatus } from './dom.ts';

type Phase = 'waiting' | 'active' | 'done' | 'failed';

/** The part of the farm's status (src/farm/status.ts FarmStatus, which the page may not import)
 * that the panel shows; test/farm/vite-farm-status.test.ts checks that FarmStatus fits it. */
export interface FarmPanelStatus {
  counts: Record<Phase, number>;
  jobs: {
    name: string;
    phase: Phase;
    state: string;
    scene: string[];
    frame: number;
    tile?: number;
    progress: number;
    attempts: number;
    worker?: string;
    submittedAt: number;
    startedAt?: number;
    finishedAt?: number;
    failedReason?: string;
  }[];
  workers: { name: string; address: string; ageSeconds: number }[];
}
type Job = FarmPanelStatus['jobs'][number];

export const NO_FARM = 'No farm: start the page with REDIS_URL=redis://host:6379';
const POLL_MS = 3000;
/** Jobs listed, the most recently changed first. */
const LISTED = 12;
const PHASES: Phase[] = ['waiting', 'active', 'done', 'failed'];

/** Fills #farm inside the #farm-panel details; polls only while it is open. */
export function attachFarmPanel(): void {
  const panel = element<HTMLDetailsElement>('farm-panel');
  const target = element('farm');
  const source = document.querySelector<HTMLMetaElement>('meta[name="reyes-farm-status"]')?.content;
  const summary = h('p', { id: 'farm-summary', 'data-state': 'idle' });
  const workers = h('p', { id: 'farm-workers' });
  const jobs = h('table', { id: 'farm-jobs' });
  target.append(summary, workers, jobs);
  if (!source) {
    setStatus(summary, 'none', NO_FARM);
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts openings, so a fetch that ends after the panel was closed and opened again stops there. */
  let opened = 0;
  async function poll(opening: number): Promise<void> {
    try {
      const response = await fetch(source!, { cache: 'no-store' });
      const body = await response.json();
      if (!response.ok) throw new Error(body.error ?? response.statusText);
      show(body as FarmPanelStatus);
    } catch (error) {
      setStatus(summary, 'error', `Cannot read the farm: ${(error as Error).message}`);
    }
    if (panel.open && opening === opened) timer = setTimeout(() => void poll(opening), POLL_MS);
  }
  const start = (): void => {
    clearTimeout(timer);
    opened++;
    if (panel.open) void poll(opened);
  };
  panel.addEventListener('toggle', start);
  // Opened before this module ran (a click while the page loads).
  start();

  function show(status: FarmPanelStatus): void {
    setStatus(summary, 'ready', PHASES.map((p) => `${status.counts[p]} ${p}`).join(' · '));
    workers.textContent = status.workers.length === 0 ? 'No workers connected'
      : `Workers: ${status.workers.map((w) => `${w.name} (for ${duration(w.ageSeconds * 1000)})`).join(', ')}`;
    const now = Date.now();
    const newest = [...status.jobs].sort((a, b) => changedAt(b) - changedAt(a) || b.frame - a.frame).slice(0, LISTED);
    jobs.replaceChildren(
      h('tr', {}, ...['Scene', 'Frame', 'Phase', 'Time'].map((t) => h('th', {}, t))),
      ...newest.flatMap((job) => [
        h('tr', { class: 'farm-job', 'data-phase': job.phase },
          h('td', { title: job.scene.join(' ') }, job.scene.map((f) => f.split('/').pop()).join(' ')),
          h('td', {}, what(job)),
          h('td', {}, job.state === job.phase ? job.phase : `${job.phase} (${job.state})`),
          h('td', {}, time(job, now))),
        // The reason under its job, across the table: it is often a long message.
        ...(job.failedReason ? [h('tr', { class: 'farm-failure' }, h('td', { colspan: 4 }, job.failedReason))] : []),
      ]),
    );
  }
}

/** Submission of a whole sequence gives its jobs one time: the latest change tells them apart. */
function changedAt(job: Job): number {
  return Math.max(job.submittedAt, job.startedAt ?? 0, job.finishedAt ?? 0);
}

function what(job: Job): string {
  if (job.name === 'merge') return `${job.frame} merge`;
  return job.tile === undefined ? String(job.frame) : `${job.frame} tile ${job.tile}`;
}

function time(job: Job, now: number): string {
  switch (job.phase) {
    case 'waiting': return `for ${duration(now - job.submittedAt)}`;
    case 'active': return `${job.progress}% on ${job.worker ?? '?'}, ${duration(now - (job.startedAt ?? now))}`;
    case 'done': return `took ${duration((job.finishedAt ?? 0) - (job.startedAt ?? 0))} on ${job.worker ?? '?'}`;
    case 'failed': return `after ${job.attempts} attempt${job.attempts === 1 ? '' : 's'}`;
  }
}

/** 950 → "0.9 s", 125000 → "2 min 5 s". */
function duration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return s < 3600 ? `${Math.floor(s / 60)} min ${Math.floor(s % 60)} s` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
