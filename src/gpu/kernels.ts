// Compute pipelines from WGSL sources, compiled once per device and source and cached. A source the
// WGSL compiler rejects becomes a GpuShaderError carrying every message with line and column.
import { GpuShaderError, GpuValidationError } from './errors.ts';
import { pruneToEntryPoint } from './wgsl-prune.ts';

export interface KernelSpec {
  /** Names the kernel in errors and GPU debug labels, e.g. "scan.wgsl". */
  label: string;
  code: string;
  entryPoint: string;
  constants?: Record<string, number>;
}

export interface CacheStats {
  hits: number;
  misses: number;
}

export class KernelCache {
  private readonly modules = new Map<string, CheckedModule>();
  private readonly pipelines = new Map<string, Promise<GPUComputePipeline>>();
  readonly stats: CacheStats = { hits: 0, misses: 0 };

  constructor(readonly device: GPUDevice) {}

  /** The pipeline for `spec`, compiling it on first use. */
  pipeline(spec: KernelSpec): Promise<GPUComputePipeline> {
    const constants = Object.entries(spec.constants ?? {}).sort(([a], [b]) => a.localeCompare(b));
    const key = `${spec.label}\u0000${spec.entryPoint}\u0000${JSON.stringify(constants)}\u0000${spec.code}`;
    const cached = this.pipelines.get(key);
    if (cached) {
      this.stats.hits++;
      return cached;
    }
    this.stats.misses++;
    const created = this.createPipeline(spec);
    this.pipelines.set(key, created);
    created.catch(() => this.pipelines.delete(key));
    return created;
  }

  private module(label: string, code: string): CheckedModule {
    const key = `${label}\u0000${code}`;
    let module = this.modules.get(key);
    if (!module) {
      module = createModule(this.device, label, code);
      this.modules.set(key, module);
      module.checked.catch(() => this.modules.delete(key));
    }
    return module;
  }

  private async createPipeline(spec: KernelSpec): Promise<GPUComputePipeline> {
    // Each pipeline's module holds only what its entry point calls (wgsl-prune.ts).
    const { module, checked } = this.module(spec.label, pruneToEntryPoint(spec.code, spec.entryPoint));
    // Created at once rather than after the module's check: the check waits for Dawn's events, and
    // the frame asks for all its pipelines together, so every compilation would have waited for
    // the last module to be parsed on this thread (about 60 ms for a frame's kernels on lavapipe).
    const created = this.device.createComputePipelineAsync({
      label: `${spec.label}:${spec.entryPoint}`,
      layout: 'auto',
      compute: { module, entryPoint: spec.entryPoint, ...(spec.constants ? { constants: spec.constants } : {}) },
    });
    created.catch(() => undefined);
    await checked;
    try {
      return await created;
    } catch (error) {
      throw new GpuValidationError(
        `cannot create compute pipeline ${spec.label}:${spec.entryPoint}: ${(error as Error).message}`,
      );
    }
  }
}

/** A shader module, and the check of its compilation (rejecting with a GpuShaderError), which
 * settles later. */
interface CheckedModule {
  module: GPUShaderModule;
  checked: Promise<void>;
}

function createModule(device: GPUDevice, label: string, code: string): CheckedModule {
  // The scope keeps a rejected module from also surfacing as an uncaptured error.
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label, code });
  const scope = device.popErrorScope();
  scope.catch(() => undefined);
  const checked = (async () => {
    const info = await module.getCompilationInfo();
    const scopeError = await scope;
    const errors = info.messages.filter((message) => message.type === 'error');
    if (errors.length > 0) {
      throw new GpuShaderError(
        label,
        errors.map((message) => `${label}:${message.lineNum}:${message.linePos}: ${message.message}`),
      );
    }
    if (scopeError) throw new GpuShaderError(label, [`${label}: ${scopeError.message}`]);
  })();
  return { module, checked };
}

/** Compiles WGSL and throws a GpuShaderError listing the compiler's errors with positions. */
export async function compileModule(device: GPUDevice, label: string, code: string): Promise<GPUShaderModule> {
  const { module, checked } = createModule(device, label, code);
  await checked;
  return module;
}
