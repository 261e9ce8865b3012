// The library build (`npm run build:lib`): the package's entries (src/index.ts, src/node.ts, src/farm/index.ts,
// src/gpu-tools.ts) as ES modules in lib/ (dist/ is the page's build), with
// the WGSL kernels and standard shaders (`?raw` imports) inlined as strings, so the published package
// runs in Node and in bundlers without this repository's loader hooks. Dependencies and Node
// built-ins stay imports; the declarations come from tsconfig.lib.json.
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

const external = [...Object.keys(pkg.dependencies), ...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'lib',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    // device-thread: the worker thread of several-device renders (src/reyes/devices), loaded beside the chunks.
    lib: { entry: { index: 'src/index.ts', node: 'src/node.ts', farm: 'src/farm/index.ts', 'gpu-tools': 'src/gpu-tools.ts', 'device-thread': 'src/reyes/devices/device-thread.ts' }, formats: ['es'] },
    rollupOptions: {
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      // The code the entries share (the whole renderer: node.js and farm.js add only the Node parts).
      output: { chunkFileNames: 'renderer-[hash].js' },
    },
  },
});
