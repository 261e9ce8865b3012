// `npm run fuzz -- --minutes N [--seed S] [--out DIR] [--no-gpu]`: a longer fuzzing campaign than
// CI's (scripts/fuzz-campaign.ts), RIB and RSL mutants in rounds of 1,000 and 200 until the time
// is up, every compiled shader's WGSL checked by Dawn unless --no-gpu. Each failing input is
// written to DIR (default fuzz-failures/) with its trace beside it (NAME.trace.txt). Exit status 1
// when anything failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { acquireGpu } from '../src/gpu/device.ts';
import { runCampaign, type Failure } from './fuzz-campaign.ts';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' }, out: { type: 'string', default: 'fuzz-failures' }, 'no-gpu': { type: 'boolean', default: false } },
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

const until = performance.now() + minutes * 60_000;
const totals = { rib: 0, rsl: 0, compiled: 0, failures: 0 };
for (let round = 0; performance.now() < until; round++) {
  const report = await runCampaign({ seed, rib: 1000, rsl: 200, first: round * 1000, device, until, onFailure: save });
  totals.rib += report.rib;
  totals.rsl += report.rsl;
  totals.compiled += report.compiled;
  totals.failures += report.failures.length;
  console.log(`seed ${seed}: ${totals.rib} RIB and ${totals.rsl} RSL mutants (${totals.compiled} compiled${device ? ', WGSL checked by Dawn' : ''}), ${totals.failures} failures`);
}
if (written > 0) console.log(`failing inputs and their traces in ${out}`);
process.exit(totals.failures > 0 ? 1 : 0);
