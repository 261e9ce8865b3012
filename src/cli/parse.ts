// `reyes parse scene.rib [--json]`: what the RIB front end makes of a scene — counts of primitives
// by type, lights, shaders used, options — and every warning and error with its position. A file
// with no world block is read again as an archive fragment (what ReadArchive would bring in) and
// its contents are listed. Errors go to stderr and make the exit status 1; warnings alone do not.
import { formatDiagnostic, type Frame, type Scene } from '../index.ts';
import { parseRibFile } from '../node.ts';

export interface ParseCommandOptions {
  json?: boolean;
  archivePath?: string[];
}

export interface FrameSummary {
  frame: number | null;
  format: [number, number];
  pixelSamples: [number, number];
  pixelFilter: string;
  projection: string;
  displays: string[];
  primitives: Record<string, number>;
  lights: string[];
  shaders: Record<string, number>;
  /** DelayedReadArchive calls not read: their bound is off screen. */
  culledArchives: number;
}

/** What a world block or a fragment holds. */
export interface ContentsSummary {
  primitives: Record<string, number>;
  lights: string[];
  shaders: Record<string, number>;
}

function summarizeContents(frame: Frame): ContentsSummary {
  const primitives: Record<string, number> = {};
  const shaders: Record<string, number> = {};
  for (const primitive of frame.primitives) {
    primitives[primitive.geometry.type] = (primitives[primitive.geometry.type] ?? 0) + 1;
    const { surface, displacement, atmosphere } = primitive.attributes;
    for (const shader of [surface, displacement, atmosphere]) {
      if (shader) shaders[shader.name] = (shaders[shader.name] ?? 0) + 1;
    }
  }
  return { primitives, lights: frame.lights.map((light) => light.shader), shaders };
}

export function summarizeFrame(frame: Frame): FrameSummary {
  const { options, camera } = frame;
  const { primitives, lights, shaders } = summarizeContents(frame);
  return {
    frame: frame.frameNumber,
    format: [options.xResolution, options.yResolution],
    pixelSamples: options.pixelSamples,
    pixelFilter: `${options.pixelFilter.name} ${options.pixelFilter.xWidth} ${options.pixelFilter.yWidth}`,
    projection: camera.projection === 'perspective' ? `perspective fov ${camera.fov}` : camera.projection,
    displays: options.displays.map((display) => `${display.name} (${display.type}, ${display.mode})`),
    primitives,
    lights,
    shaders,
    culledArchives: frame.culledArchives,
  };
}

function printContents(contents: ContentsSummary): void {
  const primitives = Object.entries(contents.primitives).map(([type, n]) => `${type} ${n}`);
  console.log(`  primitives   ${primitives.join(', ') || '(none)'}`);
  console.log(`  lights       ${contents.lights.join(', ') || '(none)'}`);
  const shaders = Object.entries(contents.shaders).map(([name, n]) => `${name} (${n})`);
  console.log(`  shaders      ${shaders.join(', ') || '(none)'}`);
}

function printDiagnostics(scene: Scene): void {
  for (const diagnostic of scene.errors) console.error(formatDiagnostic(diagnostic));
  for (const diagnostic of scene.warnings) console.log(formatDiagnostic(diagnostic));
}

function printSummary(path: string, scene: Scene, frames: FrameSummary[]): void {
  console.log(`${path}: ${frames.length} frame(s), ${scene.errors.length} error(s), ${scene.warnings.length} warning(s)`);
  for (const frame of frames) {
    console.log(`frame ${frame.frame ?? '(none)'}:`);
    console.log(`  format       ${frame.format.join('x')}, pixel samples ${frame.pixelSamples.join('x')}, filter ${frame.pixelFilter}`);
    console.log(`  projection   ${frame.projection}`);
    console.log(`  displays     ${frame.displays.join(', ') || '(none)'}`);
    printContents(frame);
    if (frame.culledArchives > 0) console.log(`  skipped      ${frame.culledArchives} DelayedReadArchive call(s) with an off-screen bound`);
  }
}

/** A file without a world block, read as an archive fragment. Exit status 0 unless it holds errors. */
async function parseFragment(path: string, options: ParseCommandOptions): Promise<number> {
  const scene = await parseRibFile(path, { searchPaths: options.archivePath ?? [], fragment: true });
  const contents = summarizeContents(scene.frames[0]!);
  const culled = scene.frames[0]!.culledArchives;
  if (options.json) {
    console.log(JSON.stringify({ file: path, fragment: true, contents, errors: scene.errors, warnings: scene.warnings }, null, 2));
  } else {
    console.log(`${path}: archive fragment (no WorldBegin: read as ReadArchive would read it), ${scene.errors.length} error(s), ${scene.warnings.length} warning(s)`);
    printContents(contents);
    if (culled > 0) console.log(`  skipped      ${culled} DelayedReadArchive call(s) with an off-screen bound`);
    printDiagnostics(scene);
  }
  const empty = Object.keys(contents.primitives).length === 0 && contents.lights.length === 0;
  if (empty && scene.errors.length > 0) {
    console.error(`reyes: ${path} has no world block and is not a readable archive fragment`);
  }
  return scene.errors.length > 0 ? 1 : 0;
}

/**
 * Exit status: 0 for a scene or an archive fragment without errors (warnings allowed), 1 when the
 * file cannot be read, is not RIB or has errors.
 */
export async function parseCommand(path: string, options: ParseCommandOptions): Promise<number> {
  let scene: Scene;
  try {
    // Streamed from disk: the file is never held whole.
    scene = await parseRibFile(path, { searchPaths: options.archivePath ?? [] });
  } catch (error) {
    console.error(`reyes: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 1;
  }
  if (scene.frames.length === 0) return parseFragment(path, options);
  const frames = scene.frames.map(summarizeFrame);
  if (options.json) {
    console.log(JSON.stringify({ file: path, frames, errors: scene.errors, warnings: scene.warnings }, null, 2));
  } else {
    printSummary(path, scene, frames);
    printDiagnostics(scene);
  }
  return scene.errors.length > 0 ? 1 : 0;
}
