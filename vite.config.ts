import { defineConfig } from 'vitest/config';

export default defineConfig({
  server: { host: '127.0.0.1', port: 5173 },
  // The Node-only GPU runtime (Dawn) is loaded lazily and never bundled for the page.
  build: { target: 'es2022', rollupOptions: { external: ['webgpu'] } },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // GPU tests share one software Vulkan device per file; two workers match the machine's two cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
