// GET /farm/status.json on the dev server (`npm start`): what `reyes farm status --json` prints,
// read from the Redis server REDIS_URL names, for the page's Farm panel (src/viewer/farm-panel.ts).
// A page cannot speak to Redis, and must not bundle src/farm, so the dev server asks for it.
// Without REDIS_URL the answer is 404 (no farm); when Redis cannot be reached, 503 with the
// connection's message. The connection is made at the first request, so a dev server without a farm
// (or vitest, which loads the same config) never connects, and is closed with the server.
// A page served with a farm carries <meta name="reyes-farm-status">; without it the panel asks
// nothing, since the browser logs every answer of 404 as a console error.
import type { ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Plugin } from 'vite';
import { connectRedis } from './connection.ts';
import { farmStatus } from './status.ts';

const FARM_STATUS_PATH = '/farm/status.json';
/** The name of the page's meta tag whose content is FARM_STATUS_PATH. */
const FARM_STATUS_META = 'reyes-farm-status';

/** `env`: where REDIS_URL is read, when the server starts. */
export function farmStatusPlugin(env: NodeJS.ProcessEnv = process.env): Plugin {
  /** Set by the dev server alone: a static build has no farm. */
  let url: string | undefined;
  let connection: Promise<Redis> | undefined;
  /** Forgets `used` (if it is still the connection) and closes it; the next request connects again. */
  const drop = async (used: Promise<Redis> | undefined): Promise<void> => {
    if (!used || connection !== used) return;
    connection = undefined;
    const redis = await used.catch(() => undefined);
    // QUIT waits for the server to let the connection go; a connection already lost has only its socket.
    await redis?.quit().catch(() => redis.disconnect());
  };
  return {
    name: 'reyes-farm-status',
    configureServer(server) {
      url = env['REDIS_URL'];
      server.middlewares.use(FARM_STATUS_PATH, (_req, res) => {
        if (!url) return send(res, 404, { error: 'no farm: set REDIS_URL' });
        const used = (connection ??= connectRedis(url, false));
        used.then(farmStatus).then(
          (status) => send(res, 200, status),
          // A server that went away ends the connection (it retries only a few times): start afresh.
          async (error: Error) => {
            await drop(used);
            send(res, 503, { error: error.message });
          },
        );
      });
    },
    transformIndexHtml: () => (url ? [{ tag: 'meta', attrs: { name: FARM_STATUS_META, content: FARM_STATUS_PATH }, injectTo: 'head' }] : []),
    closeServer: () => drop(connection),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}
