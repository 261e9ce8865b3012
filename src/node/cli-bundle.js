// The `reyes` command's bundle: src/cli/main.ts and the device worker (src/reyes/devices/device-thread.ts)
// as plain ES modules in node_modules/.reyes-cli/ (the two entries, the chunks they share, and the farm
// commands' own chunk), kernels (`?raw` imports) and most packages inlined (EXTERNAL). Loading
// TypeScript through tsx's hooks costs the command about 2 s of start-up; the bundle loads in a
// fraction of that. It is rebuilt (about 1 s, esbuild) whenever a file it was built
// from has changed, so it never runs stale code.
//
// The folder sits two levels below the project root, as src/cli/main.ts does, so the modules that
// find files relative to their own URL (package.json, .vulkan/, the worker beside them) find the
// same files from the bundle.
import { statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'node_modules', '.reyes-cli');
const ENTRIES = { main: 'src/cli/main.ts', 'device-thread': 'src/reyes/devices/device-thread.ts' };
/**
 * Packages loaded from node_modules rather than bundled: Dawn (a native addon found beside its
 * package), BullMQ (reads its Lua scripts from its folder) with ioredis, and what `render --browser`
 * loads. Every other package is bundled: resolving and loading their files took the command about
 * 0.1 s before it did anything.
 */
const EXTERNAL = ['webgpu', 'bullmq', 'ioredis', 'vite', 'playwright-core'];
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

/** Whether every file the bundle was built from is as it was then. The files are stat'ed one after
 * another: the 430 or so take 2 ms so, against 9 ms and more as that many promises. */
async function isFresh() {
  try {
    const inputs = JSON.parse(await readFile(INPUTS, 'utf8'));
    return Object.entries(inputs).every(([file, time]) => statSync(path.join(ROOT, file)).mtimeMs === time);
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
    // The farm commands are a chunk of their own that only they load (src/cli/main.ts).
    splitting: true,
    target: `node${process.versions.node.split('.')[0]}`,
    external: EXTERNAL,
    // Packages bundled as CommonJS require Node's built-ins (commander does).
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    outdir: OUT,
    // Whitespace and syntax minified (names kept, for stack traces): the command's modules load in
    // 81-87 ms instead of 90-101 (docs/ARCHITECTURE.md).
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    // The maps name the sources, which are beside them; without their text they load in a third of the time.
    sourcesContent: false,
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
  // Chunks go first and the entries after them, so an entry never names a chunk not yet there.
  const entries = new Set(Object.keys(ENTRIES).flatMap((name) => [`${name}.js`, `${name}.js.map`]));
  const outputs = result.outputFiles.map((file) => [file.path, file.contents]);
  outputs.sort(([a], [b]) => Number(entries.has(path.basename(a))) - Number(entries.has(path.basename(b))));
  for (const [file, contents] of [...outputs, [INPUTS, JSON.stringify(inputs)]]) {
    const aside = `${file}.${process.pid}`;
    await writeFile(aside, contents);
    await rename(aside, file);
  }
  // Chunk names carry a hash of their contents: the last build's chunks would pile up.
  const current = new Set(outputs.map(([file]) => path.basename(file)));
  for (const name of await readdir(OUT)) {
    if (/\.js(\.map)?$/.test(name) && !current.has(name)) await rm(path.join(OUT, name), { force: true });
  }
}
