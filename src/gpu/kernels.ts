// Compute pipelines from WGSL sources, compiled once per device and source and cached. A source the
// WGSL compiler rejects becomes a GpuShaderError carrying every message with line and column.
import { GpuShaderError, GpuValidationError } from './errors.ts';

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
  private readonly modules = new Map<string, Promise<GPUShaderModule>>();
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

  private module(label: string, code: string): Promise<GPUShaderModule> {
    const key = `${label}\u0000${code}`;
    let module = this.modules.get(key);
    if (!module) {
      module = compileModule(this.device, label, code);
      this.modules.set(key, module);
      module.catch(() => this.modules.delete(key));
    }
    return module;
  }

  private async createPipeline(spec: KernelSpec): Promise<GPUComputePipeline> {
    const module = await this.module(spec.label, spec.code);
    try {
      return await this.device.createComputePipelineAsync({
        label: `${spec.label}:${spec.entryPoint}`,
        layout: 'auto',
        compute: { module, entryPoint: spec.entryPoint, ...(spec.constants ? { constants: spec.constants } : {}) },
      });
    } catch (error) {
      throw new GpuValidationError(
        `cannot create compute pipeline ${spec.label}:${spec.entryPoint}: ${(error as Error).message}`,
      );
    }
  }
}

/** Compiles WGSL and throws a GpuShaderError listing the compiler's errors with positions. */
export async function compileModule(device: GPUDevice, label: string, code: string): Promise<GPUShaderModule> {
  // The scope keeps a rejected module from also surfacing as an uncaptured error.
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const scopeError = await device.popErrorScope();
  const errors = info.messages.filter((message) => message.type === 'error');
  if (errors.length > 0) {
    throw new GpuShaderError(
      label,
      errors.map((message) => `${label}:${message.lineNum}:${message.linePos}: ${message.message}`),
    );
  }
  if (scopeError) throw new GpuShaderError(label, [`${label}: ${scopeError.message}`]);
  return module;
}
