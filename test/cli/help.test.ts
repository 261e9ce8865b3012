// `reyes --version` and the help of each command: every option listed with its default.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reyes } from './run-reyes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The help's options, each with its description's lines joined. */
function options(help: string): { flags: string; text: string }[] {
  const section = help.split('\nOptions:\n')[1]!.split('\n\n')[0]!;
  const entries: { flags: string; text: string }[] = [];
  for (const line of section.split('\n')) {
    const start = /^ {2}(-\S.*?)(?: {2,}(.*))?$/.exec(line);
    if (start) entries.push({ flags: start[1]!, text: start[2] ?? '' });
    else entries.at(-1)!.text += ` ${line.trim()}`;
  }
  return entries;
}

describe('reyes --version and --help', () => {
  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await reyes([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it.each(['render', 'parse', 'compile-shader', 'compare'])('reyes %s --help lists every option with its default', async (command) => {
    const result = await reyes([command, '--help']);
    expect(result.code).toBe(0);
    const listed = options(result.stdout);
    expect(listed.length).toBeGreaterThan(1);
    for (const { flags, text } of listed) {
      if (flags.startsWith('-h, --help')) continue;
      expect(text, flags).toMatch(/\(default: [^)]+\)|[(;] default: /);
    }
  });

  it('render --help names the new inputs and options', async () => {
    const help = (await reyes(['render', '--help'])).stdout;
    expect(help).toContain('<scenes...>');
    expect(help).toContain('"-" for standard input');
    for (const flag of ['--crop <x0 x1 y0 y1>', '--progress', '-q, --quiet']) expect(help).toContain(flag);
  });

  it('a bad argument exits with the usage status 4', async () => {
    const result = await reyes(['render', '--no-such-option', 'scene.rib']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("unknown option '--no-such-option'");
  });
});
