// The WGSL kernels of the renderer's stages and GPU primitives, ready to compile. WGSL has no
// imports, so a kernel names what it needs on lines of its own:
//   // @include FILE.wgsl    that file's text (shared functions), once per kernel
//   // @layout NAME          the declarations generated from a layout of this folder (LAYOUTS), once
// and the loader replaces each such line. Loaded as `?raw` text: Vite in the page, the Node hook
// (src/node/raw-import-hook.js) on the command line and in the tests.
import compactSource from '../../shaders/kernels/compact.wgsl?raw';
import filterSource from '../../shaders/kernels/image-filter.wgsl?raw';
import imagerTilesSource from '../../shaders/kernels/imager-tiles.wgsl?raw';
import radixSortSource from '../../shaders/kernels/radix-sort.wgsl?raw';
import reduceSource from '../../shaders/kernels/reduce.wgsl?raw';
import blobbySource from '../../shaders/kernels/reyes-blobby.wgsl?raw';
import boundSplitSource from '../../shaders/kernels/reyes-bound-split.wgsl?raw';
import builtinSurfacesSource from '../../shaders/kernels/reyes-builtin-surfaces.wgsl?raw';
import compositeSource from '../../shaders/kernels/reyes-composite.wgsl?raw';
import diceSource from '../../shaders/kernels/reyes-dice.wgsl?raw';
import diceGridSource from '../../shaders/kernels/reyes-dice-grid.wgsl?raw';
import diceShadeSource from '../../shaders/kernels/reyes-dice-shade.wgsl?raw';
import jitterSource from '../../shaders/kernels/reyes-jitter.wgsl?raw';
import motionSource from '../../shaders/kernels/reyes-motion.wgsl?raw';
import reseamSource from '../../shaders/kernels/reyes-reseam.wgsl?raw';
import sampleSource from '../../shaders/kernels/reyes-sample.wgsl?raw';
import sampleLensSource from '../../shaders/kernels/reyes-sample-lens.wgsl?raw';
import samplePinholeSource from '../../shaders/kernels/reyes-sample-pinhole.wgsl?raw';
import seamsSource from '../../shaders/kernels/reyes-seams.wgsl?raw';
import surfaceSource from '../../shaders/kernels/reyes-surface.wgsl?raw';
import trimSource from '../../shaders/kernels/reyes-trim.wgsl?raw';
import scanSource from '../../shaders/kernels/scan.wgsl?raw';
import trigSource from '../../shaders/kernels/trig.wgsl?raw';
import workgroupScanSource from '../../shaders/kernels/workgroup-scan.wgsl?raw';
import type { GpuRuntime } from '../gpu/runtime.ts';
import { BLOBBY_FIELD_CONSTANTS } from './blobby-field.ts';
import { FILTER_BLOCK_CONSTANTS, FILTER_PARAMS } from './filter-params.ts';
import { FRAME_UNIFORMS_WGSL, GRID_INFO_CONSTANTS } from './grid-layout.ts';
import { MOTION_BLOCK_CONSTANTS } from './motion-block.ts';
import { OPAQUE_OWNER_CONSTANTS } from './opaque-owners.ts';
import { PRIMITIVE_RECORD_CONSTANTS } from './primitive-record.ts';
import { READY_PIECE_CONSTANTS } from './ready-piece.ts';
import { CLIP_PLANE_CONSTANTS, SAMPLE_KERNEL_CONSTANTS, SAMPLE_PARAMS } from './sample-params.ts';
import { SAMPLE_POINT_CONSTANTS } from './sample-point.ts';
import { REGION_CUT_CONSTANTS, SPLIT_COUNTER_CONSTANTS, SPLIT_PARAMS } from './split-params.ts';
import { SEAM_TABLE_CONSTANTS } from './seam-table.ts';
import { SOLID_TABLE_CONSTANTS } from './solid-table.ts';
import { TRIM_BLOCK_CONSTANTS } from './trim-block.ts';
import { specialiseKernel } from './kernel-specialise.ts';
import { wgslConstants, type ConstantGroup } from './wgsl-constants.ts';

const FILES = {
  'compact.wgsl': compactSource,
  'image-filter.wgsl': filterSource,
  'imager-tiles.wgsl': imagerTilesSource,
  'radix-sort.wgsl': radixSortSource,
  'reduce.wgsl': reduceSource,
  'reyes-blobby.wgsl': blobbySource,
  'reyes-bound-split.wgsl': boundSplitSource,
  'reyes-builtin-surfaces.wgsl': builtinSurfacesSource,
  'reyes-composite.wgsl': compositeSource,
  'reyes-dice.wgsl': diceSource,
  'reyes-dice-grid.wgsl': diceGridSource,
  'reyes-dice-shade.wgsl': diceShadeSource,
  'reyes-jitter.wgsl': jitterSource,
  'reyes-motion.wgsl': motionSource,
  'reyes-reseam.wgsl': reseamSource,
  'reyes-sample.wgsl': sampleSource,
  'reyes-sample-lens.wgsl': sampleLensSource,
  'reyes-sample-pinhole.wgsl': samplePinholeSource,
  'reyes-seams.wgsl': seamsSource,
  'reyes-surface.wgsl': surfaceSource,
  'reyes-trim.wgsl': trimSource,
  'scan.wgsl': scanSource,
  'trig.wgsl': trigSource,
  'workgroup-scan.wgsl': workgroupScanSource,
} as const;

export type KernelFile = keyof typeof FILES;

/** Layouts a kernel reads as `const` lines (`// @layout NAME`). */
export const CONSTANT_LAYOUTS: Readonly<Record<string, readonly ConstantGroup[]>> = {
  'primitive-record': PRIMITIVE_RECORD_CONSTANTS,
  'blobby-field': BLOBBY_FIELD_CONSTANTS,
  'ready-piece': READY_PIECE_CONSTANTS,
  'grid-info': GRID_INFO_CONSTANTS,
  'sample-point': SAMPLE_POINT_CONSTANTS,
  'opaque-owners': OPAQUE_OWNER_CONSTANTS,
  'seam-table': SEAM_TABLE_CONSTANTS,
  'motion-block': MOTION_BLOCK_CONSTANTS,
  'trim-block': TRIM_BLOCK_CONSTANTS,
  'solid-table': SOLID_TABLE_CONSTANTS,
  'clip-planes': CLIP_PLANE_CONSTANTS,
  'sample-kernel': SAMPLE_KERNEL_CONSTANTS,
  'split-counters': SPLIT_COUNTER_CONSTANTS,
  'region-cuts': REGION_CUT_CONSTANTS,
  'filter-block': FILTER_BLOCK_CONSTANTS,
};

/** Layouts a kernel reads as struct declarations. */
const STRUCT_LAYOUTS: Readonly<Record<string, string>> = {
  'frame-uniforms': FRAME_UNIFORMS_WGSL,
  'sample-params': SAMPLE_PARAMS.wgsl,
  'split-params': SPLIT_PARAMS.wgsl,
  'filter-params': FILTER_PARAMS.wgsl,
};

/** The WGSL declarations `// @layout NAME` stands for, or undefined for an unknown name. */
export function layoutDeclarations(name: string): string | undefined {
  const groups = CONSTANT_LAYOUTS[name];
  return groups ? wgslConstants(groups) : STRUCT_LAYOUTS[name];
}

const DIRECTIVE = /^[ \t]*\/\/ @(include|layout)[ \t]+(\S+)[ \t]*$/gm;

const expanded = new Map<KernelFile, string>();

/** The kernel's text with its includes and layouts in place of their directive lines. */
export function kernelSource(file: KernelFile): string {
  let code = expanded.get(file);
  if (code === undefined) {
    code = expandKernel(file, FILES[file], FILES);
    expanded.set(file, code);
  }
  return code;
}

/** `text` (the kernel file `file`) with its directives expanded, includes taken from `files`. */
export function expandKernel(file: string, text: string, files: Readonly<Record<string, string>>, seen = new Set<string>()): string {
  seen.add(`include ${file}`);
  return text.replace(DIRECTIVE, (_line, kind: string, name: string, at: number) => {
    if (seen.has(`${kind} ${name}`)) return `// (${name} is above)`;
    seen.add(`${kind} ${name}`);
    if (kind === 'include') {
      const included = files[name];
      if (included === undefined) throw new Error(`${file}:${lineOf(text, at)}: @include of unknown kernel file ${name}`);
      return expandKernel(name, included, files, seen);
    }
    const block = layoutDeclarations(name);
    if (block === undefined) {
      const known = [...Object.keys(CONSTANT_LAYOUTS), ...Object.keys(STRUCT_LAYOUTS)].join(', ');
      throw new Error(`${file}:${lineOf(text, at)}: unknown @layout ${name} (known: ${known})`);
    }
    return `// layout ${name} (generated from src/layout)\n${block}`;
  });
}

function lineOf(text: string, at: number): number {
  return text.slice(0, at).split('\n').length;
}

const specialised = new Map<string, string>();

/** The kernel's text specialised to pipeline constants (kernel-specialise.ts). */
export function specialisedKernelSource(file: KernelFile, constants: Readonly<Record<string, number>> = {}): string {
  const key = `${file}\u0000${JSON.stringify(constants)}`;
  let code = specialised.get(key);
  if (code === undefined) {
    code = specialiseKernel(kernelSource(file), constants);
    specialised.set(key, code);
  }
  return code;
}

/** The compute pipeline of `entryPoint` in a kernel file, its text specialised to `constants`
 * (cached per device by the kernel cache). */
export function kernelPipeline(
  gpu: GpuRuntime,
  file: KernelFile,
  entryPoint: string,
  constants?: Record<string, number>,
): Promise<GPUComputePipeline> {
  return gpu.kernels.pipeline({ label: file, code: specialisedKernelSource(file, constants), entryPoint, ...(constants ? { constants } : {}) });
}
