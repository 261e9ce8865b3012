// The `reyes` command line. Each command lives in its own module; this one only parses arguments.
import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError, Option } from 'commander';
import { compareCommand, type CompareCommandOptions } from './compare.ts';
import { browserRenderCommand } from './browser-render.ts';
import { compileShaderCommand } from './compile-shader.ts';
import { completionScript, SHELLS, type Shell } from './completion.ts';
import type { FarmSubmitOptions, FarmWorkerCommandOptions } from './farm.ts';
import { gpuInfo } from './gpu-info.ts';
import { EXIT, renderCommand, type RenderCommandOptions } from './render.ts';
import { parseCommand } from './parse.ts';

function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Spellings PRMan users type, as commander reads them: `-crop x0 x1 y0 y1` and `--crop x0 x1 y0 y1`
 * (commander options take one word, so the four numbers become one) and `-progress`. */
function prmanArguments(argv: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k]!;
    if (arg === '--') return [...out, ...argv.slice(k)];
    if (arg === '-progress') out.push('--progress');
    else if (arg === '-crop' || arg === '--crop') {
      let n = 0;
      while (n < 4 && k + 1 + n < argv.length && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(argv[k + 1 + n]!)) n++;
      out.push('--crop', n > 1 ? argv.slice(k + 1, k + 1 + n).join(' ') : (argv[k + 1] ?? ''));
      k += Math.max(n, 1);
    } else out.push(arg);
  }
  return out;
}

/** The farm commands, loaded when one runs: BullMQ and ioredis took every other command about 0.3 s to load. */
const farmCommands = () => import('./farm.ts');

/** How the command runs: `processExits` where the process ends as soon as it returns (bin/reyes.js),
 * so that `render` leaves the GPU device for the process's end to take rather than tearing it down. */
export interface MainOptions {
  processExits?: boolean;
}

export async function main(argv: string[], how: MainOptions = {}): Promise<number> {
  let exitCode = 0;
  const program = new Command('reyes')
    .description('A WebGPU Reyes renderer for RenderMan RIB scenes')
    .version(packageVersion(), '-V, --version', 'print the version of webgpu-reyes')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program
    .command('gpu-info')
    .description('print the GPU adapter, its limits and features; exit status 2 when there is none')
    .action(async () => {
      exitCode = await gpuInfo();
    });
  program
    .command('parse')
    .description('read a RIB scene and print what it holds, with every warning and error')
    .argument('<scene>', 'RIB file (ASCII, binary or gzip)')
    .option('--json', 'print the summary and diagnostics as JSON', false)
    .option('--archive-path <dirs...>', 'folders searched for ReadArchive files (default: the scene\'s folder only)')
    .action(async (scene: string, options: { json?: boolean; archivePath?: string[] }) => {
      exitCode = await parseCommand(scene, options);
    });
  program
    .command('compile-shader')
    .description('compile one RSL shader (surface, displacement, light or volume) to its WGSL kernel')
    .argument('<file>', 'RSL source (.sl)')
    .option('-o, --output <file>', 'write the WGSL here instead of printing it (default: print it on stdout)')
    .option('--dump <what>', 'print the compiler\'s intermediate representation instead ("ir") (default: none)')
    .option('--shader-path <dirs...>', 'folders searched for #include files (default: the shader\'s folder and the standard shaders)')
    .option('--partition <algorithm>', 'split a kernel that does not fit the resource model into passes: rds, rds_h, mrds, dp or auto, and print the passes (default: auto when --limits is given)')
    .option('--limits <profile>', 'the resource model: tiny, default or a JSON file of limits (default: default)')
    .action(async (file: string, options: { output?: string; dump?: string; shaderPath?: string[]; partition?: string; limits?: string }) => {
      exitCode = await compileShaderCommand(file, options);
    });
  program
    .command('render')
    .description('render every frame of a RIB scene (or one) to the files its Displays name')
    .argument('<scenes...>', 'RIB files read in order as one stream (options files, then the scene), "-" for standard input')
    .option('-o, --output <file>', 'write this file instead of the scene\'s Displays: TIFF for .tif/.tiff, OpenEXR for .exr, else PNG; numbered per frame (out.0001.png) when there are several (default: the scene\'s Displays)')
    .option('--res <WxH>', 'resolution, overriding Format (default: the scene\'s Format)')
    .option('--samples <n>', 'n × n pixel samples, overriding PixelSamples (default: the scene\'s PixelSamples)')
    .option('--budget <MiB>', 'GPU memory budget in MiB, overriding the RIB\'s Option "limits" "gpumemory" [MiB] (default: what the adapter allows)')
    .option('--bucket <n>', 'classic bucket mode with n × n buckets instead of the schedulers (default: the schedulers\' memory-budget bins)')
    .option('--pipeline <file>', 'how the stages bin the screen and schedule the bins, as JSON, e.g. {"dicing": {"bins": "fixed", "size": 32}, "sampling": {"bins": "dicing"}} (bins: "budget", "fixed" or "screen"; sampling: "budget" or "dicing"; "fusion": true, false or {"dice+shade": true, "sample+composite": false}) (default: budget bins for both; sample+composite fused where the frame is opaque)')
    .option('--stats <file>', 'write statistics as JSON (an array of one entry per frame when there are several) (default: none)')
    .option('--frame <k>', 'render only frame k (0-based; default: every frame, in order)')
    .option('--shader-path <dirs>', 'folders of shaders, separated by the path delimiter (default: the scene\'s folder and the standard shaders)')
    .option('--depth <file>', 'also write camera-space depth as a 32-bit float TIFF (as a Display with mode "z" or "rgbaz" does) (default: none)')
    .option('--output-dir <dir>', 'folder the Displays\' file names are placed in (default: the folder of the last RIB file, the current folder for standard input; made when missing)')
    .option('--allow-any-output', 'let Displays name absolute paths and folders outside the output folder (existing files there are still not overwritten)', false)
    .option('--crop <x0 x1 y0 y1>', 'render only this part of the image, as fractions of it, as CropWindow does (default: the scene\'s CropWindow)')
    .addOption(new Option('--progress', 'show progress (also spelt -progress, as PRMan does): a bar on a terminal, else a line per percent gained (default: a bar on a terminal only)').conflicts('quiet'))
    .option('-q, --quiet', 'no progress display (warnings, errors and the files written are still printed)', false)
    .option('--devices <n>', 'render each frame on n GPU devices, each in a thread of its own with its own budget, sharing the regions by work stealing (several on one adapter where there is one GPU)', '1')
    .option('--browser', 'render through the web page in headless Chromium (WebGPU on SwiftShader; REYES_CHROMIUM names the browser) and save its picture to -o (.png, .tif or .exr); the scene\'s first frame with its own settings', false)
    .action(async (scenes: string[], options: RenderCommandOptions & { browser?: boolean }) => {
      exitCode = options.browser ? await browserRenderCommand(scenes, options) : await renderCommand(scenes, options, how.processExits === true);
    });
  program
    .command('compare')
    .description('print how two pictures (PNG or TIFF, as 8-bit RGBA) differ; exit status 1 when a channel differs by more than the tolerance')
    .argument('<a>', 'first picture')
    .argument('<b>', 'second picture')
    .option('--tolerance <n>', 'largest channel difference (0 to 255) still counted as equal', '0')
    .action(async (a: string, b: string, options: CompareCommandOptions) => {
      exitCode = await compareCommand(a, b, options);
    });
  const farm = program
    .command('farm')
    .description('render on a farm of machines: a BullMQ queue on the Redis server REDIS_URL names (default redis://127.0.0.1:6379); scene and output folder at the same paths on every machine');
  farm
    .command('submit')
    .description('queue one job per frame (or per crop tile of a frame); frames already done are skipped, failed ones queued again')
    .argument('<scenes...>', 'RIB files read in order as one stream (options files, then the scene)')
    .option('--frames <list>', 'FrameBegin numbers to render, e.g. 1-240 or 1-10,20 (default: every frame)')
    .option('--tiles <CxR>', 'cut each frame into C × R crop tiles rendered as separate jobs and merged when the last finishes (default: whole frames)')
    .option('--priority <p>', 'BullMQ priority: 1 is taken first, larger numbers after (default: none, taken in order before prioritized jobs)')
    .option('--attempts <n>', 'tries per job before it is marked failed', '3')
    .option('--res <WxH>', 'resolution, overriding Format (default: the scene\'s Format)')
    .option('--samples <n>', 'n × n pixel samples, overriding PixelSamples (default: the scene\'s PixelSamples)')
    .option('--shader-path <dirs>', 'folders of shaders, separated by the path delimiter (default: the scene\'s folder and the standard shaders)')
    .option('--output-dir <dir>', 'folder the Displays\' file names are placed in (default: the folder of the last RIB file)')
    .action(async (scenes: string[], options: FarmSubmitOptions) => {
      exitCode = await (await farmCommands()).farmSubmitCommand(scenes, options);
    });
  farm
    .command('worker')
    .description('take jobs from the queue and render them on this machine\'s GPU until stopped (SIGINT or SIGTERM finish the jobs in hand first)')
    .option('--concurrency <n>', 'jobs rendered at once', '1')
    .option('--budget <MiB>', 'GPU memory budget in MiB per render (default: what the adapter allows)')
    .option('--devices <n>', 'render each job on n GPU devices with work stealing, as reyes render --devices', '1')
    .option('--stalled-interval <ms>', 'how often to look for jobs whose worker died, in ms', '30000')
    .option('--lock-duration <ms>', 'how long a job stays locked to its worker without renewal, in ms (a dead worker\'s job is retried after this)', '30000')
    .action(async (options: FarmWorkerCommandOptions) => {
      exitCode = await (await farmCommands()).farmWorkerCommand(options);
    });
  farm
    .command('status')
    .description('jobs waiting, active, done and failed, with their times, and the workers connected')
    .option('--json', 'print the status as JSON', false)
    .action(async (options: { json?: boolean }) => {
      exitCode = await (await farmCommands()).farmStatusCommand(options);
    });
  program
    .command('completion')
    .description('print a shell completion script for bash or zsh, generated from these command definitions (load it with: source <(reyes completion bash))')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action((shell: Shell) => {
      process.stdout.write(completionScript(program, shell));
    });
  try {
    await program.parseAsync(prmanArguments(argv), { from: 'user' });
  } catch (error) {
    // Help and --version end with 0; a bad argument gets the documented usage status.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT.usage;
    console.error(`reyes: ${(error as Error).message}`);
    return 1;
  }
  return exitCode;
}
