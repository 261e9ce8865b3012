#!/usr/bin/env node
// Entry point of the `reyes` command: TypeScript sources run through tsx, and `?raw` imports of
// WGSL kernels load the same way they do under Vite.
import '../src/node/register.js';

const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
