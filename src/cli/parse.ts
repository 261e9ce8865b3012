// `reyes parse scene.rib [--json]`: what the RIB front end makes of a scene — counts of primitives
// by type, lights, shaders used, options — and every warning and error with its position.
import { formatDiagnostic } from '../rib/diagnostics.ts';
import { parseRibFile } from '../rib/resolver-node.ts';
import type { Frame, Scene } from '../rib/scene.ts';

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
}

export function summarizeFrame(frame: Frame): FrameSummary {
  const { options, camera } = frame;
  const primitives: Record<string, number> = {};
  const shaders: Record<string, number> = {};
  for (const primitive of frame.primitives) {
    primitives[primitive.geometry.type] = (primitives[primitive.geometry.type] ?? 0) + 1;
    const { surface, displacement, atmosphere } = primitive.attributes;
    for (const shader of [surface, displacement, atmosphere]) {
      if (shader) shaders[shader.name] = (shaders[shader.name] ?? 0) + 1;
    }
  }
  return {
    frame: frame.frameNumber,
    format: [options.xResolution, options.yResolution],
    pixelSamples: options.pixelSamples,
    pixelFilter: `${options.pixelFilter.name} ${options.pixelFilter.xWidth} ${options.pixelFilter.yWidth}`,
    projection: camera.projection === 'perspective' ? `perspective fov ${camera.fov}` : camera.projection,
    displays: options.displays.map((display) => `${display.name} (${display.type}, ${display.mode})`),
    primitives,
    lights: frame.lights.map((light) => light.shader),
    shaders,
  };
}

function printSummary(path: string, scene: Scene, frames: FrameSummary[]): void {
  console.log(`${path}: ${frames.length} frame(s), ${scene.errors.length} error(s), ${scene.warnings.length} warning(s)`);
  for (const frame of frames) {
    console.log(`frame ${frame.frame ?? '(none)'}:`);
    console.log(`  format       ${frame.format.join('x')}, pixel samples ${frame.pixelSamples.join('x')}, filter ${frame.pixelFilter}`);
    console.log(`  projection   ${frame.projection}`);
    console.log(`  displays     ${frame.displays.join(', ') || '(none)'}`);
    const primitives = Object.entries(frame.primitives).map(([type, n]) => `${type} ${n}`);
    console.log(`  primitives   ${primitives.join(', ') || '(none)'}`);
    console.log(`  lights       ${frame.lights.join(', ') || '(none)'}`);
    const shaders = Object.entries(frame.shaders).map(([name, n]) => `${name} (${n})`);
    console.log(`  shaders      ${shaders.join(', ') || '(none)'}`);
  }
}

/** Exit status: 0 when the scene has something to render, 1 when it cannot be read or has no world. */
export async function parseCommand(path: string, options: ParseCommandOptions): Promise<number> {
  let scene: Scene;
  try {
    // Streamed from disk: the file is never held whole.
    scene = await parseRibFile(path, { searchPaths: options.archivePath ?? [] });
  } catch (error) {
    console.error(`reyes: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 1;
  }
  const frames = scene.frames.map(summarizeFrame);
  if (options.json) {
    console.log(JSON.stringify({ file: path, frames, errors: scene.errors, warnings: scene.warnings }, null, 2));
  } else {
    printSummary(path, scene, frames);
    for (const diagnostic of [...scene.errors, ...scene.warnings]) console.log(formatDiagnostic(diagnostic));
  }
  if (frames.length === 0) {
    console.error(`reyes: ${path} has no world block (WorldBegin ... WorldEnd): nothing to render`);
    return 1;
  }
  return 0;
}
