// `reyes completion bash|zsh` (issue 20): the bash script, sourced in a real bash, registers itself
// (`complete -p`) and completes, through COMP_WORDS as bash does on Tab, every command and every
// option that the commands' own --help lists (an independent listing of what the parser accepts),
// option values with fixed choices, and file names. The zsh script lists the same commands and
// options; where zsh is installed, it is also checked for syntax.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { reyes } from './run-reyes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The names in a --help's "Commands:" section (commander's implicit `help` left out). */
function helpCommands(help: string): string[] {
  const section = help.split('\nCommands:\n')[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

/** Every flag in a --help's "Options:" section ("-o, --output <file>" gives -o and --output). */
function helpFlags(help: string): string[] {
  const section = help.split('\nOptions:\n')[1]!.split('\n\n')[0]!;
  return [...section.matchAll(/^ {2}(-\S.*?)(?: {2,}|$)/gm)].flatMap((m) => [...m[1]!.matchAll(/(--?[\w-]+)/g)].map((f) => f[1]!));
}

/** What `reyes ...args` prints on standard output, run in this process (the --help listings). */
async function printed(args: string[]): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    expect(await main(args), args.join(' ')).toBe(0);
  } finally {
    process.stdout.write = write;
  }
  return out;
}

function hasShell(shell: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('reyes completion', () => {
  let bashScript: string;
  let scriptFile: string;
  /** The commands, by path ("render", "farm submit"), each with the flags its --help lists. */
  const commands = new Map<string, string[]>();

  beforeAll(async () => {
    const generated = await reyes(['completion', 'bash']);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
    bashScript = generated.stdout;
    scriptFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'reyes-completion-')), 'reyes.bash');
    writeFileSync(scriptFile, bashScript);
    const root = await printed(['--help']);
    commands.set('', helpFlags(root));
    const pending = helpCommands(root);
    while (pending.length) {
      const command = pending.shift()!;
      const help = await printed([...command.split(' '), '--help']);
      commands.set(command, helpFlags(help));
      pending.push(...helpCommands(help).map((sub) => `${command} ${sub}`));
    }
  });

  /** What bash completes for `words`, the last being the word under the cursor, run in `cwd`. */
  function complete(words: string[], cwd = ROOT): string[] {
    const array = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
    const out = execFileSync('bash', ['-c', `source '${scriptFile}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _reyes; printf '%s\\n' "\${COMPREPLY[@]}"`], { cwd, encoding: 'utf8' });
    return out.split('\n').filter(Boolean);
  }

  it('registers itself with bash', () => {
    const registered = execFileSync('bash', ['-c', `source '${scriptFile}'; complete -p reyes`], { encoding: 'utf8' });
    expect(registered.trim()).toBe('complete -o filenames -F _reyes reyes');
  });

  it('completes every command, nested ones included', () => {
    expect([...commands.keys()]).toEqual(expect.arrayContaining(['render', 'parse', 'compare', 'completion', 'farm submit']));
    const top = [...commands.keys()].filter((c) => c && !c.includes(' '));
    expect(complete(['reyes', '']).sort()).toEqual(expect.arrayContaining(top.sort()));
    expect(complete(['reyes', 'ren'])).toEqual(['render']);
    for (const parent of top) {
      const subs = [...commands.keys()].filter((c) => c.startsWith(`${parent} `)).map((c) => c.slice(parent.length + 1));
      if (subs.length) expect(complete(['reyes', parent, '']).sort(), parent).toEqual(subs.sort());
    }
  });

  it('completes exactly the options each command\'s --help lists', () => {
    for (const [command, flags] of commands) {
      const words = ['reyes', ...(command ? command.split(' ') : []), '-'];
      expect(complete(words).sort(), command || 'reyes').toEqual([...new Set(flags)].sort());
    }
  });

  it('skips option values when finding the command, and completes choices and file names', () => {
    expect(complete(['reyes', 'render', '--samples', '4', '--qu'])).toEqual(['--quiet']);
    expect(complete(['reyes', '--version', 'compl'])).toEqual(['completion']);
    expect(complete(['reyes', 'completion', ''])).toEqual(['bash', 'zsh']);
    expect(complete(['reyes', 'render', '-o', 'out.png', 'sphere-d'], path.join(ROOT, 'scenes/features'))).toEqual(['sphere-default.rib']);
    expect(complete(['reyes', 'render', '--stats', 'sphere-p'], path.join(ROOT, 'scenes/features'))).toEqual(['sphere-partial.rib']);
  });

  it('writes a zsh script with the same commands and options', async () => {
    const zsh = { stdout: await printed(['completion', 'zsh']) };
    expect(zsh.stdout.startsWith('#compdef reyes\n')).toBe(true);
    expect(zsh.stdout).toContain('compdef _reyes reyes');
    for (const [command, flags] of commands) {
      const arm = new RegExp(`^ {4}'${command}'\\) items=\\((.*)\\) ;;$`, 'm');
      const described = [...zsh.stdout.matchAll(new RegExp(arm, 'gm'))].map((m) => m[1]!).find((list) => list.includes(`'${flags[0]}:`));
      expect(described, command).toBeDefined();
      for (const flag of flags) expect(described, `${command} ${flag}`).toContain(`'${flag}:`);
    }
  });

  it.skipIf(!hasShell('zsh'))('writes a zsh script that zsh parses', async () => {
    const zsh = { stdout: await printed(['completion', 'zsh']) };
    const file = path.join(path.dirname(scriptFile), '_reyes');
    writeFileSync(file, zsh.stdout);
    expect(() => execFileSync('zsh', ['-n', file])).not.toThrow();
  });

  it('refuses a shell it does not know, with the usage status', async () => {
    const result = await reyes(['completion', 'fish']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/value 'fish' is invalid for argument 'shell'\. Allowed choices are bash, zsh/);
  });
});
