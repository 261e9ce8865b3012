// The `reyes` command line. Each command lives in its own module; this one only parses arguments.
import { Command, CommanderError } from 'commander';
import { gpuInfo } from './gpu-info.ts';

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command('reyes')
    .description('A WebGPU Reyes renderer for RenderMan RIB scenes')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program
    .command('gpu-info')
    .description('print the GPU adapter, its limits and features; exit status 2 when there is none')
    .action(async () => {
      exitCode = await gpuInfo();
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    console.error(`reyes: ${(error as Error).message}`);
    return 1;
  }
  return exitCode;
}
