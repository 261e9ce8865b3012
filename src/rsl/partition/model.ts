// What one pass of a shading kernel may use (the resource model) and what a partition costs (the cost
// model). Costs are in operation units per vertex, so a pass that runs its operations once, reads
// and writes its intermediates and pays its launch can be compared with one that recomputes.

export interface ResourceModel {
  /** Workgroup memory of one grid (derivative neighbourhoods and once-per-grid values). */
  workgroupBytes: number;
  /** Scalar registers live at once per vertex (register pressure; above it a kernel spills). */
  liveValues: number;
  /** Operations per pass (pipeline compile time grows faster than linearly with kernel size). */
  operations: number;
  /** Values a pass may save or write (stores per vertex, as render targets were for MRDS). */
  outputs: number;
  /** Storage buffers a pass may bind: the kernel's own plus one for the intermediates. */
  storageBuffers: number;
}

export interface CostModel {
  /** Cost of one operation. */
  operation: number;
  /** Cost of one byte saved or restored through an intermediate buffer. */
  byte: number;
  /** Cost of launching one more pass, per vertex. */
  launch: number;
  /** Operations cost (1 + occupancy × live / liveValues): more registers, fewer vertices in flight. */
  occupancy: number;
}

/** Storage buffers every shading kernel binds (grids, gridInfo, params, the texture atlas). */
export const KERNEL_STORAGE_BUFFERS = 4;

/** The WebGPU default limits (16 KiB workgroup memory, 8 storage buffers per stage), a register budget
 * of 255 scalars (NVIDIA's per-thread ceiling) and an operation budget at which a pipeline still
 * compiles in well under a second on Dawn. */
export const DEFAULT_RESOURCES: ResourceModel = { workgroupBytes: 16384, liveValues: 255, operations: 20000, outputs: 8, storageBuffers: 8 };

/** A deliberately small device: any real shader needs several passes. (32 registers, not 24: a
 * lighting loop, kept whole, holds its inputs and two colour accumulators.) */
export const TINY_RESOURCES: ResourceModel = { workgroupBytes: 4096, liveValues: 32, operations: 400, outputs: 4, storageBuffers: 8 };

/**
 * Ratios from an NVIDIA H100's published figures, not measured here: ~16e12 IR operations/s
 * (67 TFLOP/s fp32 at ~4 flops an operation) against 3.35 TB/s gives ~5 operations a byte, less
 * what caches return for streamed, coalesced intermediates (4); a ~5 µs dispatch over a 256k-vertex
 * batch is ~300 operations a vertex; halving occupancy costs up to half again as much time.
 */
export const DEFAULT_COSTS: CostModel = { operation: 1, byte: 4, launch: 300, occupancy: 0.5 };

export const RESOURCE_PROFILES: Record<'tiny' | 'default', ResourceModel> = { tiny: TINY_RESOURCES, default: DEFAULT_RESOURCES };

/** A resource profile from JSON text: any of the fields of ResourceModel, the rest from `base`. */
export function parseResourceModel(text: string, file: string, base: ResourceModel = DEFAULT_RESOURCES): ResourceModel {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${file}: expected an object of limits such as {"operations": 400}`);
  const model = { ...base };
  for (const [key, value] of Object.entries(data)) {
    if (!(key in base)) throw new Error(`${file}: unknown limit "${key}" (known: ${Object.keys(base).join(', ')})`);
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) throw new Error(`${file}: limit "${key}" must be a positive number, not ${JSON.stringify(value)}`);
    model[key as keyof ResourceModel] = value;
  }
  return model;
}
