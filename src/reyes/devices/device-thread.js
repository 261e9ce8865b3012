// A device thread's entry point: TypeScript sources and `?raw` kernel imports load here as they do
// in the `reyes` command (bin/reyes.js), then device-thread.ts runs.
import '../../node/register.js';

await import('./device-thread.ts');
