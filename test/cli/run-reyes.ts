// Runs the `reyes` command as a user would, and gives back its exit status and output.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
/** A little below vitest's testTimeout (vite.config.ts), so a test that times out leaves no child running. */
const TIMEOUT_MS = 290_000;

/** `input`, when given, is what the command reads on standard input. */
export async function reyes(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  try {
    const running = run(process.execPath, [path.join(ROOT, 'bin/reyes.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    if (input !== undefined) running.child.stdin?.end(input);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | null; killed?: boolean; stdout: string; stderr: string };
    const note = failed.killed ? `\n(run-reyes: reyes ${args.join(' ')} killed after ${TIMEOUT_MS / 1000} s)` : '';
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr + note };
  }
}
