// Archives at scale: a scene of many DelayedReadArchive calls of one mesh archive.
//   node --import ./src/node/register.js bench/delayed-archives.bench.ts [--calls 10000] [--kb 120] [--keep DIR] [--all-visible]
// Writes mesh.rib (a PointsPolygons grid of about --kb KB) and scene.rib (640×480, perspective,
// --calls DelayedReadArchive calls of mesh.rib, each under its own Translate; every other call is
// placed far to the right, off screen, unless --all-visible), then parses scene.rib in a fresh child process and prints
// the parse time, peak RSS and heap, and what the scene holds. With --keep DIR the files stay in
// DIR, so that the render can be timed on the same scene:
//   time node bin/reyes.js render DIR/scene.rib -o /tmp/out.png
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureParse } from './measure-parse.ts';

const { values: opts } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    kb: { type: 'string', default: '120' },
    keep: { type: 'string' },
    'all-visible': { type: 'boolean', default: false },
    child: { type: 'string' },
  },
});

/** A bumpy unit square in z = 0 made of quads, about `targetBytes` of RIB text. */
function meshArchive(targetBytes: number): string {
  // Per vertex about 4 indices (~16 B) + 3 coordinates (~23 B) + one "4" (2 B).
  const side = Math.max(2, Math.round(Math.sqrt(targetBytes / 41)));
  const nvertices: string[] = [];
  const indices: string[] = [];
  const points: string[] = [];
  for (let y = 0; y < side - 1; y++) {
    for (let x = 0; x < side - 1; x++) {
      const v = y * side + x;
      nvertices.push('4');
      indices.push(`${v} ${v + 1} ${v + side + 1} ${v + side}`);
    }
  }
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const z = 0.05 * Math.sin(x * 0.7) * Math.cos(y * 0.9);
      points.push(`${(x / (side - 1) - 0.5).toFixed(4)} ${(y / (side - 1) - 0.5).toFixed(4)} ${z.toFixed(4)}`);
    }
  }
  return `PointsPolygons [${nvertices.join(' ')}]\n[${indices.join(' ')}]\n"P" [${points.join(' ')}]\n`;
}

/** 640×480; a 100-wide grid of calls in front of the camera, every other one moved far off screen. */
function sceneFile(calls: number, allVisible: boolean): string {
  const lines = [
    'Format 640 480 1',
    'Projection "perspective" "fov" [40]',
    'Translate 0 0 120',
    'WorldBegin',
    'LightSource "distantlight" 1 "from" [0 0 -1] "to" [0 0 0]',
    'Surface "matte"',
  ];
  const columns = 100;
  for (let i = 0; i < calls; i++) {
    const onScreen = allVisible || i % 2 === 0;
    const k = allVisible ? i : Math.floor(i / 2);
    const rows = Math.ceil((allVisible ? calls : calls / 2) / columns);
    const x = (k % columns) - columns / 2 + 0.5 + (onScreen ? 0 : 10000);
    const y = Math.floor(k / columns) - rows / 2;
    lines.push('AttributeBegin', `Translate ${x * 0.8} ${y * 0.8} 0`,
      'Procedural "DelayedReadArchive" ["mesh.rib"] [-0.5 0.5 -0.5 0.5 -0.1 0.1]', 'AttributeEnd');
  }
  lines.push('WorldEnd', '');
  return lines.join('\n');
}

interface Measure { seconds: number; rssPeak: number; heapAfter: number; primitives: number; errors: number; warnings: number }

async function childParse(path: string): Promise<Measure> {
  const { scene, seconds, rssPeak, heapAfter } = await measureParse(path);
  return {
    seconds, rssPeak, heapAfter,
    primitives: scene.frames[0]?.primitives.length ?? 0, errors: scene.errors.length, warnings: scene.warnings.length,
  };
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

if (opts.child) {
  process.stdout.write(JSON.stringify(await childParse(opts.child)));
} else {
  const dir = opts.keep ?? mkdtempSync(join(tmpdir(), 'delayed-archives-'));
  mkdirSync(dir, { recursive: true });
  try {
    const calls = Number(opts.calls);
    writeFileSync(join(dir, 'mesh.rib'), meshArchive(Number(opts.kb) * 1000));
    writeFileSync(join(dir, 'scene.rib'), sceneFile(calls, opts['all-visible']!));
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', join(dir, 'scene.rib')],
      { maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
    const m = JSON.parse(out.toString()) as Measure;
    console.log(`node ${process.version}; ${calls} DelayedReadArchive calls of a ${(statSync(join(dir, 'mesh.rib')).size / 1000).toFixed(0)} KB mesh archive (${opts['all-visible'] ? 'all on screen' : 'half off screen'}) in ${dir}`);
    console.log(`parse ${m.seconds.toFixed(2)} s, peak RSS ${mib(m.rssPeak)}, heap after ${mib(m.heapAfter)}; ` +
      `${m.primitives} primitives, ${m.errors} errors, ${m.warnings} warnings`);
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}
