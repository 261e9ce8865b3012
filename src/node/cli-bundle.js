// The `reyes` command's bundle: src/cli/main.ts and the device worker (src/reyes/devices/device-thread.ts)
// as two plain ES modules in node_modules/.reyes-cli/, kernels (`?raw` imports) inlined, packages left
// as imports. Loading TypeScript through tsx's hooks costs the command about 2 s of start-up; the
// bundle loads in a fraction of that. It is rebuilt (about 1 s, esbuild) whenever a file it was built
// from has changed, so it never runs stale code.
//
// The folder sits two levels below the project root, as src/cli/main.ts does, so the modules that
// find files relative to their own URL (package.json, .vulkan/, the worker beside them) find the
// same files from the bundle.
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'node_modules', '.reyes-cli');
const ENTRIES = { main: 'src/cli/main.ts', 'device-thread': 'src/reyes/devices/device-thread.ts' };
/** The files the bundle was built from, with their modification times. */
const INPUTS = path.join(OUT, 'inputs.json');

/**
 * The URL of the bundle's main module, built or rebuilt first if needed; undefined where it cannot be
 * built (no esbuild, a read-only install, a source that does not compile: tsx then runs the sources
 * and reports what is wrong with them).
 */
export async function cliBundle() {
  const main = pathToFileURL(path.join(OUT, 'main.js')).href;
  if (await isFresh()) return main;
  try {
    await build(await import('esbuild'));
    return main;
  } catch {
    return undefined;
  }
}

async function isFresh() {
  try {
    const inputs = JSON.parse(await readFile(INPUTS, 'utf8'));
    const times = await Promise.all(Object.keys(inputs).map(async (file) => (await stat(path.join(ROOT, file))).mtimeMs));
    return Object.values(inputs).every((time, i) => time === times[i]);
  } catch {
    return false;
  }
}

async function build(esbuild) {
  const raw = new Set();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    outdir: OUT,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [{
      name: 'raw',
      setup(bundler) {
        bundler.onResolve({ filter: /\?raw$/ }, (args) => ({ path: path.resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)), namespace: 'raw' }));
        bundler.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => {
          raw.add(path.relative(ROOT, args.path));
          return { contents: await readFile(args.path, 'utf8'), loader: 'text' };
        });
      },
    }],
  });
  const files = [...Object.keys(result.metafile.inputs).filter((file) => !file.includes(':')), ...raw, 'package.json'];
  const inputs = {};
  for (const file of files.sort()) inputs[file] = (await stat(path.join(ROOT, file))).mtimeMs;
  await mkdir(OUT, { recursive: true });
  // Each file is written aside and renamed into place: commands starting together may build at once.
  const written = [...result.outputFiles.map((file) => [file.path, file.contents]), [INPUTS, JSON.stringify(inputs)]];
  for (const [file, contents] of written) {
    const aside = `${file}.${process.pid}`;
    await writeFile(aside, contents);
    await rename(aside, file);
  }
}
