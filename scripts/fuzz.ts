// `npm run fuzz -- --minutes N [--seed S] [--out DIR] [--no-gpu]`: a longer fuzzing campaign than
// CI's (scripts/fuzz-campaign.ts), RIB and RSL mutants in rounds of 1,000 and 200 until the time
// is up, every compiled shader's WGSL checked by Dawn unless --no-gpu. Each failing input is
// written to DIR (default fuzz-failures/) with its trace beside it (NAME.trace.txt). Exit status 1
// when anything failed. A mutant still running after --hang-seconds (default 120) is a hang: a
// watchdog thread writes it with its trace and ends the process (the check itself is synchronous
// and cannot be interrupted; seed 11's mutant 270,123, a 1,000-knot spline, once held a
// 30-minute campaign for hours without a word).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { acquireGpu } from '../src/gpu/device.ts';
import { runCampaign, type Failure, type Mutant } from './fuzz-campaign.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' }, seed: { type: 'string' }, out: { type: 'string', default: 'fuzz-failures' }, 'no-gpu': { type: 'boolean', default: false },
    'hang-seconds': { type: 'string', default: '120' },
  },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) throw new Error(`--minutes must be a positive number, not "${values.minutes}"`);
const seed = values.seed === undefined ? Date.now() % 1_000_000_007 : Number(values.seed);
const out = path.resolve(values.out!);
const device = values['no-gpu'] ? undefined : (await acquireGpu()).device;

let written = 0;
function save(f: Failure): void {
  mkdirSync(out, { recursive: true });
  const name = `${f.mutant.kind}-seed${seed}-${f.mutant.index}.${f.mutant.kind === 'rib' ? 'rib' : 'sl'}`;
  writeFileSync(path.join(out, name), f.mutant.bytes);
  writeFileSync(path.join(out, `${name}.trace.txt`), `${f.mutant.origin} (seed ${seed}, mutant ${f.mutant.index})\n${f.trace}\n`);
  written++;
  console.log(`FAIL ${name}: ${f.trace.split('\n')[0]}`);
}

const hangSeconds = Number(values['hang-seconds']);
if (!(hangSeconds > 0)) throw new Error(`--hang-seconds must be a positive number, not "${values['hang-seconds']}"`);
const watchdog = startWatchdog(hangSeconds);

const until = performance.now() + minutes * 60_000;
const totals = { rib: 0, rsl: 0, compiled: 0, failures: 0 };
for (let round = 0; performance.now() < until; round++) {
  const report = await runCampaign({ seed, rib: 1000, rsl: 200, first: round * 1000, device, until, onFailure: save, onMutant: watchdog.running });
  totals.rib += report.rib;
  totals.rsl += report.rsl;
  totals.compiled += report.compiled;
  totals.failures += report.failures.length;
  console.log(`seed ${seed}: ${totals.rib} RIB and ${totals.rsl} RSL mutants (${totals.compiled} compiled${device ? ', WGSL checked by Dawn' : ''}), ${totals.failures} failures`);
}
await watchdog.stop();
if (written > 0) console.log(`failing inputs and their traces in ${out}`);
process.exit(totals.failures > 0 ? 1 : 0);

/**
 * A thread that watches the mutant in hand: the main thread copies each mutant into shared memory
 * with the time it started; if one is still running after `seconds`, the thread writes it and its
 * trace as a failure, says so on stdout (directly: the main thread is busy) and ends the process.
 */
function startWatchdog(seconds: number): { running: (m: Mutant) => void; stop: () => Promise<number> } {
  // Shared layout: f64 started (ms since the epoch), f64 index, i32 byte count, i32 kind (0 RIB,
  // 1 RSL), then the mutant's bytes.
  const MAX_BYTES = 1 << 20;
  const shared = new SharedArrayBuffer(24 + MAX_BYTES);
  const header = new Float64Array(shared, 0, 2);
  const info = new Int32Array(shared, 16, 2);
  const bytes = new Uint8Array(shared, 24, MAX_BYTES);
  const worker = new Worker(`
    const { workerData } = require('node:worker_threads');
    const fs = require('node:fs'), path = require('node:path');
    const { shared, seconds, seed, out } = workerData;
    const header = new Float64Array(shared, 0, 2), info = new Int32Array(shared, 16, 2), bytes = new Uint8Array(shared, 24);
    setInterval(() => {
      if (Date.now() - header[0] < seconds * 1000) return;
      const kind = info[1] === 0 ? 'rib' : 'rsl', index = header[1];
      const name = kind + '-seed' + seed + '-' + index + '.' + (kind === 'rib' ? 'rib' : 'sl');
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, name), bytes.slice(0, info[0]));
      fs.writeFileSync(path.join(out, name + '.trace.txt'), 'hang: still running after ' + seconds + ' s (seed ' + seed + ', mutant ' + index + ')\\n');
      fs.writeSync(1, 'FAIL ' + name + ': hang: still running after ' + seconds + ' s\\nfailing inputs and their traces in ' + out + '\\n');
      process.kill(process.pid, 'SIGKILL');
    }, 1000);
  `, { eval: true, workerData: { shared, seconds, seed, out } });
  worker.unref();
  header[0] = Date.now();
  return {
    running: (m) => {
      const n = Math.min(m.bytes.length, MAX_BYTES);
      bytes.set(m.bytes.subarray(0, n));
      info[0] = n;
      info[1] = m.kind === 'rib' ? 0 : 1;
      header[1] = m.index;
      header[0] = Date.now();
    },
    stop: () => worker.terminate(),
  };
}
