// RIB parse throughput and memory while streaming.
//   node --import ./src/node/register.js bench/rib-parse.bench.ts [--mb 50] [--gzip-mb 200]
// Generates a numeric-heavy PointsPolygons mesh of about --mb MB into a temp dir (and a gzip
// file of about --gzip-mb MB of RIB), streams each from disk with parseRibFile, and prints MB/s
// beside JSON.parse on the same numbers as a JSON array, with RSS and heap before and after.
// Each measurement runs in a fresh child process so that peak RSS is its own.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Gzip } from 'fflate';
import { measureParse } from './measure-parse.ts';

const { values: opts } = parseArgs({
  options: {
    mb: { type: 'string', default: '50' },
    'gzip-mb': { type: 'string', default: '200' },
    child: { type: 'string' },
    file: { type: 'string' },
  },
});

const MB = 1e6;
const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

/** One quad per face over a grid; P printed with 6 decimals like exporters do. */
function* meshText(targetBytes: number): Generator<string> {
  // ~ 4 ints (~28 B) + 3 floats (~33 B) per vertex, one face per vertex.
  const side = Math.max(2, Math.floor(Math.sqrt(targetBytes / 66)));
  const faces = (side - 1) * (side - 1);
  yield `##RenderMan RIB\nFormat 640 480 1\nWorldBegin\nPointsPolygons [`;
  let line: string[] = [];
  for (let f = 0; f < faces; f++) {
    line.push('4');
    if (line.length === 4096) { yield line.join(' ') + '\n'; line = []; }
  }
  yield line.join(' ') + '] [';
  line = [];
  for (let y = 0; y < side - 1; y++) {
    for (let x = 0; x < side - 1; x++) {
      const v = y * side + x;
      line.push(`${v} ${v + 1} ${v + side + 1} ${v + side}`);
    }
    yield line.join(' ') + '\n';
    line = [];
  }
  yield '] "P" [';
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const z = Math.sin(x * 0.01) * Math.cos(y * 0.013);
      line.push(`${(x / side - 0.5).toFixed(6)} ${(y / side - 0.5).toFixed(6)} ${z.toFixed(6)}`);
    }
    yield line.join(' ') + '\n';
    line = [];
  }
  yield ']\nWorldEnd\n';
}

/** Writes the mesh; returns the size of the RIB text (before gzip). */
async function writeRib(path: string, targetBytes: number, gzip: boolean): Promise<number> {
  const out = createWriteStream(path);
  const write = (chunk: Uint8Array | string) => new Promise<void>((resolve) => {
    if (out.write(chunk)) resolve();
    else out.once('drain', resolve);
  });
  const pending: Uint8Array[] = [];
  const gz = gzip ? new Gzip({ level: 6 }, (data) => { pending.push(data); }) : null;
  const encoder = new TextEncoder();
  let size = 0;
  for (const text of meshText(targetBytes)) {
    size += text.length;
    if (!gz) { await write(text); continue; }
    gz.push(encoder.encode(text));
    for (const p of pending.splice(0)) await write(p);
  }
  if (gz) {
    gz.push(new Uint8Array(0), true);
    for (const p of pending.splice(0)) await write(p);
  }
  await new Promise<void>((resolve) => out.end(resolve));
  return size;
}

interface Measure { seconds: number; rssBefore: number; rssPeak: number; heapBefore: number; heapAfter: number; values: number; errors: number }

/** Child: stream-parse one file, sampling RSS while it runs. */
async function childParse(path: string): Promise<Measure> {
  const { scene, seconds, rssBefore, rssPeak, heapBefore, heapAfter } = await measureParse(path);
  let values = 0;
  for (const p of scene.frames[0]?.primitives ?? []) {
    for (const a of Object.values(p.geometry.args)) if (Array.isArray(a)) values += a.length;
    for (const q of p.geometry.params) values += q.values.length;
  }
  return { seconds, rssBefore, rssPeak, heapBefore, heapAfter, values, errors: scene.errors.length };
}

/** The RIB's numbers as one JSON array, written beside it, so JSON.parse sees what the lexer saw. */
function writeJson(ribPath: string, jsonPath: string): void {
  const text = readFileSync(ribPath, 'latin1');
  const body = text.slice(text.indexOf('PointsPolygons') + 'PointsPolygons'.length, text.lastIndexOf(']'));
  writeFileSync(jsonPath, '[' + body.replace(/[[\]]|"P"/g, ' ').trim().split(/\s+/).join(',') + ']');
}

/** Child: JSON.parse of the array file; the child holds nothing else, so the timing is not the GC's. */
function childJson(path: string): Measure & { jsonBytes: number } {
  const json = readFileSync(path, 'utf8');
  const before = process.memoryUsage();
  const start = performance.now();
  const array = JSON.parse(json) as number[];
  const seconds = (performance.now() - start) / 1000;
  const after = process.memoryUsage();
  return { seconds, rssBefore: before.rss, rssPeak: after.rss, heapBefore: before.heapUsed, heapAfter: after.heapUsed, values: array.length, errors: 0, jsonBytes: json.length };
}

function runChild(kind: string, file: string): Measure & { jsonBytes?: number } {
  const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', kind, '--file', file], { maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.toString()) as Measure;
}

if (opts.child) {
  const result = opts.child === 'json' ? childJson(opts.file!) : await childParse(opts.file!);
  process.stdout.write(JSON.stringify(result));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'rib-bench-'));
  try {
    const plain = join(dir, 'mesh.rib');
    const gz = join(dir, 'mesh-big.rib.gz');
    const smallGz = join(dir, 'mesh.rib.gz');
    await writeRib(plain, Number(opts.mb) * MB, false);
    await writeRib(smallGz, Number(opts.mb) * MB, true);
    const bigBytes = await writeRib(gz, Number(opts['gzip-mb']) * MB, true);
    const ribBytes = statSync(plain).size;
    console.log(`node ${process.version}, ${process.arch}; generated in ${dir}`);
    console.log(`RIB ${(ribBytes / MB).toFixed(1)} MB plain, ${(statSync(smallGz).size / MB).toFixed(1)} MB gzip; big: ${(statSync(gz).size / MB).toFixed(1)} MB gzip of ${(bigBytes / MB).toFixed(1)} MB RIB`);
    const row = (label: string, bytes: number, m: Measure) =>
      console.log(`${label.padEnd(34)} ${(m.seconds * 1000).toFixed(0).padStart(6)} ms ${(bytes / MB / m.seconds).toFixed(1).padStart(7)} MB/s  ` +
        `values ${m.values.toLocaleString('en')}  RSS ${mib(m.rssBefore)} → peak ${mib(m.rssPeak)}  heap ${mib(m.heapBefore)} → ${mib(m.heapAfter)}${m.errors ? `  ERRORS ${m.errors}` : ''}`);
    for (let i = 0; i < 2; i++) row(`parseRibFile ${(ribBytes / MB).toFixed(0)} MB plain (run ${i + 1})`, ribBytes, runChild('rib', plain));
    row(`parseRibFile ${(ribBytes / MB).toFixed(0)} MB as gzip`, ribBytes, runChild('rib', smallGz));
    const jsonPath = join(dir, 'mesh.json');
    writeJson(plain, jsonPath);
    const json = runChild('json', jsonPath) as Measure & { jsonBytes: number };
    row(`JSON.parse same numbers (${(json.jsonBytes / MB).toFixed(0)} MB)`, json.jsonBytes, json);
    const big = runChild('rib', gz);
    row(`parseRibFile ~${(bigBytes / MB).toFixed(0)} MB as gzip`, bigBytes, big);
    console.log('Scene data (number[] values) grows with the mesh; input buffering is 1 MiB chunks plus ~16 KiB × ratio of inflated gzip.');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
