// `npm run bench:peer`: renders the perf scenes (the ribtools scenes of scenes/ribtools with Format
// raised, `PixelSamples 4 4` and one Display) with this renderer's command line and, when
// AQSIS=/path/to/aqsis is set, with the peer renderer on the same RIB; prints the median wall time
// of each (runs alternate, so a busy machine slows both alike), the ratio, and our per-stage times
// from `--stats` of the median run. With --cold, our runs have Mesa's shader cache off
// (MESA_SHADER_CACHE_DISABLE=true), so each compiles every pipeline it creates: a new user's first
// render; the table then also says how many pipelines the frame created.
// Usage: [AQSIS=/path/to/aqsis] npm run bench:peer [-- --runs 3 --scene Elephant --cold]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { FrameStats } from '../src/reyes/stats.ts';
import { perfScene, PERF_SCENES } from './perf-scenes.ts';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    scene: { type: 'string', multiple: true },
    cold: { type: 'boolean', default: false },
  },
});
const runs = Number(options.runs);
const peer = process.env.AQSIS;
const cli = resolve('bin/reyes.js');
const work = mkdtempSync(join(tmpdir(), 'reyes-peer-bench-'));

function wallMs(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const start = performance.now();
  execFileSync(command, args, { cwd: work, stdio: ['ignore', 'ignore', 'inherit'], env });
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rows: string[] = [];
try {
  for (const spec of PERF_SCENES.filter((s) => !options.scene || options.scene.includes(s.name))) {
    const rib = join(work, `${spec.name}.rib`);
    writeFileSync(rib, perfScene(readFileSync(spec.source, 'utf8'), spec, `${spec.name}.tif`));
    const ours: { ms: number; stats: FrameStats }[] = [];
    const theirs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const statsFile = join(work, `${spec.name}.stats.json`);
      const ms = wallMs(process.execPath, [cli, 'render', rib, '--stats', statsFile], options.cold ? { ...process.env, MESA_SHADER_CACHE_DISABLE: 'true' } : process.env);
      ours.push({ ms, stats: JSON.parse(readFileSync(statsFile, 'utf8')) as FrameStats });
      if (peer) theirs.push(wallMs(peer, [rib]));
    }
    ours.sort((a, b) => a.ms - b.ms);
    const mid = ours[Math.floor(ours.length / 2)]!;
    const stages = Object.entries(mid.stats.stageMs).filter(([, ms]) => ms > 0).map(([stage, ms]) => `${stage} ${ms.toFixed(0)}`).join(', ');
    const peerMs = peer ? median(theirs) : undefined;
    const ratio = peerMs ? `${(mid.ms / peerMs).toFixed(2)}×` : '-';
    const row = `| ${spec.name} ${spec.width}×${spec.height} | ${seconds(mid.ms)} | ${peerMs ? seconds(peerMs) : '-'} | ${ratio} | ` +
      `${mid.stats.micropolygons} | ${mid.stats.samplePoints} | ${(mid.stats.peakBytes / 2 ** 20).toFixed(0)} MiB | ${mid.stats.pipelinesCreated} | ${stages} |`;
    console.log(row);
    rows.push(row);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`\nMedian of ${runs} alternating runs, wall time of the whole command; ours/peer ratio (>1: slower than the peer)` +
  `${options.cold ? '; ours with the shader cache off (every pipeline compiled)' : ''}.`);
console.log('| scene | ours | peer | ratio | micropolygons | sample points | peak | pipelines created | stage ms (median run) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
