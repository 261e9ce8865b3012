// The shader loop cap: every RSL loop leaves after a number of iterations of one run (src/rsl/wgsl.ts:
// a GPU has no watchdog), DEFAULT_MAX_LOOP_ITERATIONS or the RIB's `Option "limits"
// "shaderloopiterations" [N]`. The cap reaches the kernel through the frame uniforms (loopCap, read
// by rsl_loop_cap()), not as a WGSL constant or `override`: another cap needs neither another RSL
// compile nor another pipeline, and a trip count unknown at compile time keeps lavapipe from working
// through an endless loop's 100,000 iterations while it builds the pipeline (with a constant cap,
// 40 s to over 2 min for a loop that raises its flag; 20 to 40 ms so).
// A loop cut short leaves a wrong picture, so the shading kernels report it: a loop that leaves
// through the cap stores 1 in its flag (one u32 per RSL loop position, binding LOOP_FLAG_BINDING, a
// buffer per pipeline made with its parameter blocks each render), and after the frame the flags are
// read back (one small read per pipeline with loops; kernels without loops have no flags, no binding
// and no read) and each raised one is a warning at the loop's position.
import type { GpuRuntime } from '../../gpu/runtime.ts';
import type { Options } from '../../rib/scene.ts';
import { MAX_SHADER_LOOP_ITERATIONS } from '../../rib/scene-builder.ts';
import type { FrameGpu } from '../frame-gpu.ts';
import type { ShadingKernel } from './shading-kernel.ts';

/** How the RIB sets the cap, as the warnings name it. */
export const LOOP_CAP_OPTION = 'Option "limits" "shaderloopiterations"';

/** The RIB's `Option "limits" "shaderloopiterations" [N]`, or undefined when it gives none (or one out
 * of range, which the RIB reader has warned about at the Option and dropped). */
export function shaderLoopIterations(options: Options): number | undefined {
  const n = options.user['limits']?.find((p) => p.name === 'shaderloopiterations')?.values[0];
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_SHADER_LOOP_ITERATIONS ? n : undefined;
}

/** The flags a render of `kernel` binds (zeros), or undefined for a kernel without reporting loops. */
export function createLoopFlags(gpu: GpuRuntime, kernel: ShadingKernel): GPUBuffer | undefined {
  const sites = kernel.loops?.sites.length ?? 0;
  if (sites === 0) return undefined;
  return gpu.allocator.createBufferWithData(`${kernel.label} loop flags`, new Uint32Array(sites), GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
}

/** One warning per loop whose flag a frame's shading raised: the loop's RSL position and the cap. */
export async function reportCappedLoops(gpu: GpuRuntime, pipelines: FrameGpu['pipelines'], warn: (message: string) => void): Promise<void> {
  for (const { kernel, loopFlags } of pipelines) {
    if (!loopFlags || !kernel.loops) continue;
    const { sites, iterations } = kernel.loops;
    const flags = await gpu.readU32(loopFlags, sites.length);
    sites.forEach((pos, k) => {
      if (flags[k]) warn(`${pos.file}:${pos.line}:${pos.column}: warning: loop stopped after ${iterations} iterations (${LOOP_CAP_OPTION})`);
    });
  }
}
