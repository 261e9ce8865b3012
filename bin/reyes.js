#!/usr/bin/env node
// Entry point of the `reyes` command. It runs the command's bundle (src/node/cli-bundle.js: built from
// the sources on first use and after every change to them), or the TypeScript sources through tsx
// (`?raw` imports of WGSL kernels loaded as Vite loads them) where the bundle cannot be built or
// REYES_CLI_BUNDLE=off asks for the sources.
import { cliBundle } from '../src/node/cli-bundle.js';

const bundle = process.env.REYES_CLI_BUNDLE === 'off' ? undefined : await cliBundle();
let main;
if (bundle) {
  process.setSourceMapsEnabled(true);
  ({ main } = await import(bundle));
} else {
  await import('../src/node/register.js');
  ({ main } = await import('../src/cli/main.ts'));
}
const status = await main(process.argv.slice(2), { processExits: true });
// The command is done once what it printed is out. Exiting now rather than when the event loop
// empties skips Dawn's teardown, which joins its pipeline-creation threads: they look for the
// request to stop only between 100 ms waits for work, so a render ended 40-110 ms later.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
process.exit(status);
