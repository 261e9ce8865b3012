// The seam between the renderer and the shading compiler. A shading kernel is a WGSL compute
// module that follows the grid layout's binding contract (src/layout/grid-layout.ts): one workgroup
// per grid, bindings 0 grids, 1 gridInfo, 2 params, 3 frame (12 the loop flags of a kernel whose loops
// report the iteration cap: loop-cap.ts). The renderer asks a
// `ShadingKernelProvider` for the kernel and parameter block of each primitive's shading pipeline
// (its displacement, surface and atmosphere shaders plus its lights); primitives whose kernels
// share a key are shaded in the same dispatch. The same provider compiles the frame's imager shader.
import type { mat4 } from 'gl-matrix';
import type { GridLayout } from '../../layout/grid-layout.ts';
import type { Attributes, Light, Options } from '../../rib/scene.ts';
import type { ImagerInstance, ImagerRequest } from '../stages/imager.ts';
import type { FrameTextures, TextureRegistry } from '../../texture/texture-registry.ts';
import type { KernelSpaces } from './spaces.ts';
import type { ShadingPasses } from './multipass.ts';
import type { SourcePos } from '../../rsl/diagnostics.ts';

export interface ShadingKernel {
  /** Kernels with equal keys are the same kernel (one pipeline, one dispatch per batch). */
  key: string;
  /** Names the kernel in messages and GPU labels. */
  label: string;
  /** The WGSL module. */
  code: string;
  entryPoint: string;
  /** Pipeline-overridable constants of the module. */
  constants?: Record<string, number>;
  /** The contract bindings (0 grids, 1 gridInfo, 2 params, 3 frame, 5 the texture atlas, 6 its
   * feedback, 12 the loop flags) the entry point uses; the first four when absent. Pipelines use layout
   * 'auto', which holds only the bindings a kernel declares. */
  bindings?: readonly (0 | 1 | 2 | 3 | 5 | 6 | 12)[];
  /** A kernel whose loops report leaving through the cap (binding 12, one u32 flag per site, set to 1
   * when it happens; loop-cap.ts): each flag's RSL loop position, and the cap its dispatches put in
   * the frame uniforms (FrameUniforms.loopCap). */
  loops?: { sites: readonly SourcePos[]; iterations: number };
  /** The passes to run instead of `code`, where the compiler split the kernel (shading/multipass.ts). */
  passes?: ShadingPasses;
  /** Workgroup scratch the kernel needs per vertex beyond the grid record (shading scheduler). */
  scratchBytesPerVertex: number;
  /** True when the kernel's Oi is 1 wherever Os is 1, so a primitive with Os = 1 is opaque (opaque
   * fast path; CompiledPipeline.keepsOpaque). */
  keepsOpaque: boolean;
  /** The grid variables the kernel writes back (compiled RSL); absent for the built-in kernels,
   * which write Ci and Oi only. */
  writes?: readonly string[];
  /** The dicer's inputs among them (P and N of a displacement, ...): kept grids must be diced again
   * before this kernel shades them again (CompiledPipeline.writesGridInputs). */
  writesGridInputs: readonly string[];
}

export interface ShadingInstance {
  kernel: ShadingKernel;
  /** This primitive's parameter block (shader and light parameters), in the kernel's layout. */
  params: Float32Array;
}

export interface ShadingRequest {
  attributes: Attributes;
  /** The lights that illuminate the primitive. */
  lights: readonly Light[];
  layout: GridLayout;
  /** The frame's options (e.g. Option "searchpath" "shader"). */
  options: Options;
  /** The primitive's object → camera transform. */
  objectToCamera: mat4;
  /** The space → camera matrices the kernel's FrameUniforms hold (spaces.ts). */
  spaces: KernelSpaces;
  /** The user primitive variables this primitive carries (names in the layout): a shader parameter of
   * the same name and size reads them from the grid per vertex. */
  primitiveVariables?: readonly string[];
  /** Reports a problem (e.g. a shader that cannot be found) once per distinct message. */
  warn(message: string): void;
}

export interface ShadingKernelProvider {
  (request: ShadingRequest): ShadingInstance;
  /** The frame's Imager shader compiled with its parameters, or undefined (with a warning) when it
   * cannot be found or compiled. A provider without this method runs no imagers. */
  imager?(request: ImagerRequest): ImagerInstance | undefined;
  /** The frame's texture maps and page table (src/texture/tile-table.ts) once its primitives have
   * their instances: every map their shaders named; undefined when none. */
  textures?(spaces: KernelSpaces): FrameTextures | undefined;
  /** Where a frame's "auto" shadow maps go (src/reyes/shadows), read by its lights' shadow() calls;
   * a provider without it leaves such lights unshadowed (with a warning). */
  shadowMaps?: TextureRegistry;
}
