// A real redis-server for the farm tests, on a free loopback port of their own, keeping nothing on
// disk; stopped after. scripts/setup.mjs installs Debian's redis-server where it is missing.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`cannot start redis-server (scripts/setup.mjs installs it): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
