// Where the farm's queue lives: the Redis server REDIS_URL names (redis://[user:password@]host:port[/db],
// rediss:// for TLS), by default one on this machine. Every command and worker of a farm must name
// the same server; the queue in it is QUEUE_NAME.
import { Redis } from 'ioredis';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The queue every farm command uses. */
export const QUEUE_NAME = 'reyes-render';

export function redisUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env['REDIS_URL'] || DEFAULT_REDIS_URL;
}

/** A connection for BullMQ (which needs maxRetriesPerRequest null). `persistent` connections (a
 * worker's) keep trying while the server is away, as a farm machine may start before Redis; the
 * others (submit, status) give up after a few tries, with the address in the message. */
export async function connectRedis(url: string, persistent: boolean): Promise<Redis> {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    lazyConnect: true,
    ...(persistent ? {} : { retryStrategy: (times: number) => (times > 3 ? null : 200 * times) }),
  });
  // Kept for the message; without a listener ioredis prints each retry.
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => (lastError = error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${url} (set REDIS_URL to the farm's server): ${(lastError ?? (error as Error)).message}`);
  }
  return redis;
}
