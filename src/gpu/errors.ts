// Typed GPU failures. Every GPU problem reaches the caller as one of these, carrying the messages the
// driver or the WGSL compiler gave, so a failure is never a silent blank result.

export class GpuError extends Error {
  override name = 'GpuError';
}

/** No WebGPU implementation or no adapter: the message says why and what to do. */
export class GpuUnavailableError extends GpuError {
  override name = 'GpuUnavailableError';
}

/** A validation error: bad pipeline, bad binding, bad dispatch. */
export class GpuValidationError extends GpuError {
  override name = 'GpuValidationError';
}

/** The WGSL compiler rejected a kernel; `messages` are "file:line:column: text" lines. */
export class GpuShaderError extends GpuError {
  override name = 'GpuShaderError';
  constructor(
    readonly label: string,
    readonly messages: readonly string[],
  ) {
    super(`WGSL compile error in ${label}:\n${messages.join('\n')}`);
  }
}

/** The driver could not allocate memory. */
export class GpuOutOfMemoryError extends GpuError {
  override name = 'GpuOutOfMemoryError';
}

/** The device was lost (driver reset, destroy, or a hang). */
export class GpuDeviceLostError extends GpuError {
  override name = 'GpuDeviceLostError';
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(`GPU device lost (${reason}): ${message}`);
  }
}

/** A request past the renderer's own memory budget (not the driver's). */
export class GpuBudgetError extends GpuError {
  override name = 'GpuBudgetError';
  constructor(
    readonly label: string,
    readonly requestedBytes: number,
    readonly budgetBytes: number,
    readonly liveBytes: number,
  ) {
    super(
      `GPU memory budget exceeded: "${label}" asks for ${formatBytes(requestedBytes)} while ` +
        `${formatBytes(liveBytes)} of the ${formatBytes(budgetBytes)} budget are in use ` +
        `(${formatBytes(Math.max(0, budgetBytes - liveBytes))} free)`,
    );
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** Turns a popped error scope's GPUError into the matching typed error. */
export function toTypedError(error: GPUError, context: string): GpuError {
  const outOfMemory =
    (typeof GPUOutOfMemoryError !== 'undefined' && error instanceof GPUOutOfMemoryError) ||
    error.constructor.name === 'GPUOutOfMemoryError';
  if (outOfMemory) {
    return new GpuOutOfMemoryError(`${context}: out of GPU memory: ${error.message}`);
  }
  return new GpuValidationError(`${context}: ${error.message}`);
}
