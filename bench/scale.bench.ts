// The issue-16 scale scenes through the `reyes render` command: time, peak memory, exit status and
// warnings of 100,000 small spheres, a ~100 MB RIB and a sky dome around the camera.
//   node --import ./src/node/register.js bench/scale.bench.ts [--spheres 100000] [--mb 100]
//     [--only spheres64,spheres640,mesh,sky] [--stats DIR] (each render's --stats JSON written there,
//     and its stage times and GPU allocator peak printed under its line)
//     [--minutes 10] (each render is killed after this long)
// The scenes are generated into a temp folder (a fixed seed: the same files every run):
//   spheres  --spheres spheres of radius 0.02-0.05 scattered in the view at depth 8-16, each with
//            its own Color; rendered at 64×48 and at 640×480
//   mesh     about --mb MB of ASCII RIB: 48×48-quad PointsPolygons patches ("P" per vertex, 6
//            decimals), each in an AttributeBegin with its Color and Translate, tiled over the view
//   sky      the camera inside `Sphere 100` (constant sky colour), a Disk of radius 60 one unit
//            under the camera, three plastic spheres on it, a distant light
// Each render is a child process (640×480 unless said, 2×2 samples), killed after --minutes. Peak
// memory is the child's maximum resident set size, and its CPU time user + system (lavapipe's
// threads included; steadier than wall time on a machine others load): from `/usr/bin/time -v` when
// present, else from the child's own process.resourceUsage() at exit. Warnings are the stderr lines
// holding "warning:".
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    spheres: { type: 'string', default: '100000' }, mb: { type: 'string', default: '100' },
    only: { type: 'string', default: 'spheres64,spheres640,mesh,sky' }, stats: { type: 'string' },
    minutes: { type: 'string', default: '10' },
  },
});

const TIMEOUT_MS = Number(opts.minutes) * 60_000;
const HEADER = ['Format 640 480 1', 'PixelSamples 2 2', 'Projection "perspective" "fov" 40'];

/** mulberry32: a small seeded generator, so the scenes are the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Writes the chunks to the file, waiting on the stream when it is full. */
async function writeRib(path: string, chunks: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const chunk of chunks) {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

function* spheres(count: number): Generator<string> {
  const rand = random(16);
  yield [...HEADER, 'WorldBegin', 'LightSource "distantlight" 1 "from" [0 1 -1] "to" [0 0 0]', 'Surface "plastic"', ''].join('\n');
  for (let i = 0; i < count; i++) {
    // Uniform over the view's frustum at this depth (tan 20° = 0.364, 4:3).
    const z = 8 + 8 * rand();
    const x = (rand() * 2 - 1) * z * 0.364;
    const y = (rand() * 2 - 1) * z * 0.273;
    const r = 0.02 + 0.03 * rand();
    yield `AttributeBegin Color [${rand().toFixed(3)} ${rand().toFixed(3)} ${rand().toFixed(3)}] ` +
      `Translate ${x.toFixed(4)} ${y.toFixed(4)} ${z.toFixed(4)} Sphere ${r.toFixed(4)} ${(-r).toFixed(4)} ${r.toFixed(4)} 360 AttributeEnd\n`;
  }
  yield 'WorldEnd\n';
}

/** One 48×48-quad patch of side 1 with a ripple, as PointsPolygons text. */
function patch(phase: number): string {
  const n = 48;
  const counts = new Array<string>(n * n).fill('4').join(' ');
  const indices: string[] = [];
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      const i = v * (n + 1) + u;
      indices.push(`${i} ${i + 1} ${i + n + 2} ${i + n + 1}`);
    }
  }
  const points: string[] = [];
  for (let v = 0; v <= n; v++) {
    for (let u = 0; u <= n; u++) {
      const z = 0.05 * Math.sin(phase + u * 0.3) * Math.cos(v * 0.2);
      points.push(`${(u / n - 0.5).toFixed(6)} ${(v / n - 0.5).toFixed(6)} ${z.toFixed(6)}`);
    }
  }
  return `PointsPolygons [${counts}]\n[${indices.join(' ')}]\n"P" [${points.join(' ')}]\n`;
}

function* meshes(targetBytes: number): Generator<string> {
  const rand = random(100);
  const perPatch = patch(0).length;
  const count = Math.max(1, Math.round(targetBytes / perPatch));
  const side = Math.ceil(Math.sqrt(count));
  yield [...HEADER, 'WorldBegin', 'LightSource "distantlight" 1 "from" [0 1 -1] "to" [0 0 0]', 'Surface "plastic"', ''].join('\n');
  // The patches tile a square that fills the view's height at depth 20 (side 14.5).
  const step = 14.5 / side;
  for (let i = 0; i < count; i++) {
    const x = ((i % side) + 0.5) * step - 7.25;
    const y = (Math.floor(i / side) + 0.5) * step - 7.25;
    yield `AttributeBegin Color [${rand().toFixed(3)} ${rand().toFixed(3)} ${rand().toFixed(3)}] ` +
      `Translate ${x.toFixed(4)} ${y.toFixed(4)} 20 Scale ${step.toFixed(4)} ${step.toFixed(4)} ${step.toFixed(4)}\n${patch(i)}AttributeEnd\n`;
  }
  yield 'WorldEnd\n';
}

function* sky(): Generator<string> {
  yield [
    ...HEADER, 'WorldBegin', 'LightSource "distantlight" 1 "from" [1 2 -1] "to" [0 0 0]',
    'AttributeBegin Surface "constant" Color [0.45 0.65 0.95] Sphere 100 -100 100 360 AttributeEnd',
    // RenderMan's Disk lies in z = 0: turned about x so it is the plane y = -1 under the camera.
    'AttributeBegin Surface "matte" Color [0.35 0.5 0.25] Translate 0 -1 0 Rotate 90 1 0 0 Disk 0 60 360 AttributeEnd',
    'Surface "plastic"',
    'AttributeBegin Color [0.8 0.2 0.2] Translate -2 0 8 Sphere 1 -1 1 360 AttributeEnd',
    'AttributeBegin Color [0.2 0.8 0.2] Translate 0.5 -0.5 6 Sphere 0.5 -0.5 0.5 360 AttributeEnd',
    'AttributeBegin Color [0.9 0.9 0.9] Translate 3 1 15 Sphere 2 -2 2 360 AttributeEnd',
    'WorldEnd', '',
  ].join('\n');
}

interface Run { seconds: number; cpuSeconds: number | undefined; peakBytes: number | undefined; status: string; warnings: number; firstError: string | undefined }

const TIME = '/usr/bin/time';
const useTime = existsSync(TIME);
const RSS_AT_EXIT = 'data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("Maximum resident set size (kbytes): "+u.maxRSS+"\\nUser time (seconds): "+u.userCPUTime/1e6+"\\nSystem time (seconds): "+u.systemCPUTime/1e6+"\\n")})';

/** Renders the scene with the command in a child process group, killed after TIMEOUT_MS. */
function render(rib: string, out: string, extra: string[]): Promise<Run> {
  const node = [process.execPath, ...(useTime ? [] : ['--import', RSS_AT_EXIT]), 'bin/reyes.js', 'render', rib, '-o', out, '-q', ...extra];
  const [command, ...args] = useTime ? [TIME, '-v', ...node] : node;
  const start = performance.now();
  const child = spawn(command!, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; process.kill(-child.pid!, 'SIGKILL'); }, TIMEOUT_MS);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
  return new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(timer);
    const lines = stderr.split('\n');
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
    const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
    // /usr/bin/time reports a killed child as its own exit status with a "Command terminated" line.
    const killed = /Command terminated by signal (\d+)/.exec(stderr);
    resolve({
      seconds: (performance.now() - start) / 1000,
      cpuSeconds: user && system ? Number(user[1]) + Number(system[1]) : undefined,
      peakBytes: rss ? Number(rss[1]) * 1024 : undefined,
      status: timedOut ? `killed after ${opts.minutes} min` : killed ? `signal ${killed[1]}` : signal ? `signal ${signal}` : `exit ${code}`,
      warnings: lines.filter((l) => l.includes('warning:')).length,
      firstError: lines.find((l) => /error|Error/.test(l)),
    });
  }));
}

/** A render's stage times (CPU wall, and GPU where timed) and GPU allocator peak from its --stats JSON. */
function stageLine(file: string): string {
  const stats = JSON.parse(readFileSync(file, 'utf8')) as { stageMs: Record<string, number>; stageGpuMs?: Record<string, number>; peakBytes: number; dicingRegions: number };
  const stages = Object.entries(stats.stageMs).filter(([, ms]) => ms > 0)
    .map(([stage, ms]) => `${stage} ${(ms / 1000).toFixed(1)}${stats.stageGpuMs?.[stage] ? ` (GPU ${(stats.stageGpuMs[stage] / 1000).toFixed(1)})` : ''}`);
  return `${stages.join(', ')} s; ${stats.dicingRegions} dicing regions; GPU allocator peak ${(stats.peakBytes / 2 ** 20).toFixed(0)} MiB`;
}

const dir = mkdtempSync(join(tmpdir(), 'scale-bench-'));
try {
  const only = new Set(opts.only.split(','));
  const files = { spheres: join(dir, 'spheres.rib'), mesh: join(dir, 'mesh.rib'), sky: join(dir, 'sky.rib') };
  if (only.has('spheres64') || only.has('spheres640')) await writeRib(files.spheres, spheres(Number(opts.spheres)));
  if (only.has('mesh')) await writeRib(files.mesh, meshes(Number(opts.mb) * 1e6));
  if (only.has('sky')) await writeRib(files.sky, sky());
  console.log(`node ${process.version}; peak RSS from ${useTime ? '/usr/bin/time -v' : 'the child\'s process.resourceUsage()'}; scenes in ${dir}`);
  const cases: [string, string, string, string[]][] = [
    ['spheres64', `${Number(opts.spheres).toLocaleString('en')} spheres 64×48`, files.spheres, ['--res', '64x48']],
    ['spheres640', `${Number(opts.spheres).toLocaleString('en')} spheres 640×480`, files.spheres, []],
    ['mesh', `mesh RIB ${only.has('mesh') ? (statSync(files.mesh).size / 1e6).toFixed(0) : '?'} MB`, files.mesh, []],
    ['sky', 'sky dome', files.sky, []],
  ];
  for (const [name, label, rib, extra] of cases.filter(([name]) => only.has(name))) {
    const statsFile = opts.stats ? join(opts.stats, `${name}.json`) : undefined;
    // A render that fails writes none: no older file is read for it.
    if (statsFile) rmSync(statsFile, { force: true });
    const r = await render(rib, join(dir, 'out.png'), [...extra, ...(statsFile ? ['--stats', statsFile] : [])]);
    const peak = r.peakBytes === undefined ? '?' : `${(r.peakBytes / 2 ** 20).toFixed(0)} MiB`;
    const cpu = r.cpuSeconds === undefined ? '?' : r.cpuSeconds.toFixed(1);
    console.log(`${label.padEnd(26)} ${r.seconds.toFixed(1).padStart(7)} s (CPU ${cpu.padStart(6)} s)  peak RSS ${peak.padStart(9)}  ${r.status}  ${r.warnings} warning(s)` +
      (r.firstError ? `\n    ${r.firstError}` : ''));
    if (statsFile && existsSync(statsFile)) console.log(`    ${stageLine(statsFile)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
