// The WGSL kernels of the Reyes stages, with their shared snippets prepended (WGSL has no
// imports) and the grid layout's offsets passed as pipeline constants.
import boundSplitSource from '../../shaders/kernels/reyes-bound-split.wgsl?raw';
import compositeSource from '../../shaders/kernels/reyes-composite.wgsl?raw';
import diceSource from '../../shaders/kernels/reyes-dice.wgsl?raw';
import jitterSource from '../../shaders/kernels/reyes-jitter.wgsl?raw';
import sampleSource from '../../shaders/kernels/reyes-sample.wgsl?raw';
import surfaceSource from '../../shaders/kernels/reyes-surface.wgsl?raw';
import filterSource from '../../shaders/kernels/image-filter.wgsl?raw';
import imagerTilesSource from '../../shaders/kernels/imager-tiles.wgsl?raw';
import type { GpuRuntime } from '../gpu/runtime.ts';
import type { GridLayout } from '../rsl/grid-layout.ts';

const SOURCES = {
  boundSplit: { label: 'reyes-bound-split.wgsl', code: `${surfaceSource}\n${boundSplitSource}` },
  dice: { label: 'reyes-dice.wgsl', code: `${surfaceSource}\n${diceSource}` },
  sample: { label: 'reyes-sample.wgsl', code: `${jitterSource}\n${sampleSource}` },
  composite: { label: 'reyes-composite.wgsl', code: compositeSource },
  filter: { label: 'image-filter.wgsl', code: `${jitterSource}\n${filterSource}` },
  imagerTiles: { label: 'imager-tiles.wgsl', code: imagerTilesSource },
} as const;

export type ReyesKernel = keyof typeof SOURCES;

/** Offsets of grid variables as pipeline constants: OFF_P, OFF_N, OFF_DPDU, ... */
export function gridOffsetConstants(layout: GridLayout, names: readonly string[]): Record<string, number> {
  const constants: Record<string, number> = { MAXV: layout.maxVertices };
  for (const name of names) {
    const variable = layout.variables.find((v) => v.name === name);
    if (!variable) throw new Error(`grid layout has no variable ${name}`);
    constants[`OFF_${name.toUpperCase()}`] = variable.offset;
  }
  return constants;
}

export function reyesPipeline(
  gpu: GpuRuntime,
  kernel: ReyesKernel,
  entryPoint: string,
  constants?: Record<string, number>,
): Promise<GPUComputePipeline> {
  const source = SOURCES[kernel];
  return gpu.kernels.pipeline({ label: source.label, code: source.code, entryPoint, ...(constants ? { constants } : {}) });
}
