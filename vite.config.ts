import { defineConfig } from 'vitest/config';
import { farmStatusPlugin } from './src/farm/vite-farm-status.ts';

export default defineConfig({
  server: { host: '127.0.0.1', port: 5173 },
  // A missing file is a 404, not index.html: the page's resolvers look for archives, shaders and
  // textures at several places and take the first that exists.
  appType: 'mpa',
  // GET /farm/status.json for the page's Farm panel, read from REDIS_URL's farm (dev server only).
  plugins: [farmStatusPlugin()],
  // The Node-only GPU runtime (Dawn) is loaded lazily and never bundled for the page.
  build: { target: 'es2022', rollupOptions: { external: ['webgpu'] } },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // GPU tests share one software Vulkan device per file; two workers match the machine's two cores.
    pool: 'forks',
    maxWorkers: 2,
    // Generous: with an empty Mesa shader cache on a busy 2-core machine, the first render of a
    // kernel set (the dicer alone takes ~40 s to compile cold) can pass two minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
