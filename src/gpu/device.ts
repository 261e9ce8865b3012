// One way to get a GPUDevice, in a page (navigator.gpu) and in Node (Dawn): the viewer, the command
// line and the tests share it. Errors surface as the typed errors of errors.ts.
import { GpuDeviceLostError, GpuError, GpuUnavailableError, toTypedError } from './errors.ts';

/** Limits the renderer raises to whatever the adapter offers. */
const WANTED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxStorageBuffersPerShaderStage',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupsPerDimension',
  'maxUniformBufferBindingSize',
] as const;

/** Features used where present; the renderer works without them. */
const OPTIONAL_FEATURES: GPUFeatureName[] = ['timestamp-query'];

export interface AdapterDescription {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** 'browser' or the Vulkan driver Dawn uses in Node. */
  runtime: string;
}

export interface GpuContext {
  readonly device: GPUDevice;
  readonly adapter: AdapterDescription;
  readonly limits: GPUSupportedLimits;
  readonly features: readonly string[];
  /** Errors no error scope caught, in order. Checked by `checkUncapturedErrors`. */
  readonly uncapturedErrors: GpuError[];
  /** Set once the device is lost. */
  lostError: GpuDeviceLostError | undefined;
  /** Resolves when the device is lost (also after `destroy`). */
  readonly lost: Promise<GpuDeviceLostError>;
  /** A word the allocator writes over every new buffer before handing it out (a test of whether
   * anything reads what it did not write: REYES_GPU_BUFFERS=fill in Node); unset, new buffers hold
   * whatever the implementation gives them. */
  readonly newBufferFill?: number;
  destroy(): void;
}

export interface AcquireOptions {
  powerPreference?: GPUPowerPreference;
  /** A specific WebGPU implementation; by default navigator.gpu in a page, Dawn in Node. */
  gpu?: GPU;
  /** Names `gpu` in AdapterDescription.runtime ("given" if not said). */
  runtime?: string;
  /** GpuContext.newBufferFill (Dawn in Node sets it when REYES_GPU_BUFFERS=fill). */
  newBufferFill?: number;
}

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** A WebGPU implementation, its name in AdapterDescription.runtime, and GpuContext.newBufferFill. */
interface FoundGpu {
  gpu: GPU;
  runtime: string;
  newBufferFill?: number;
}

async function findGpu(): Promise<FoundGpu> {
  if (typeof navigator !== 'undefined' && navigator.gpu) return { gpu: navigator.gpu, runtime: 'browser' };
  if (!isNode) {
    const secure = typeof window !== 'undefined' && !window.isSecureContext;
    throw new GpuUnavailableError(
      secure
        ? 'WebGPU needs a secure context: open the page over https or from localhost/127.0.0.1.'
        : 'This browser has no WebGPU (navigator.gpu is missing). Use a recent Chrome, Edge or Firefox, ' +
            'or start Chromium with --enable-unsafe-webgpu.',
    );
  }
  // Kept out of the page bundle: the specifier is computed, and Vite leaves it alone.
  const nodeModule = './node-gpu.ts';
  const { dawnGpu } = (await import(/* @vite-ignore */ nodeModule)) as typeof import('./node-gpu.ts');
  return dawnGpu();
}

export async function acquireGpu(options: AcquireOptions = {}): Promise<GpuContext> {
  const found: FoundGpu = options.gpu ? { gpu: options.gpu, runtime: options.runtime ?? 'given' } : await findGpu();
  const adapter = await found.gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  if (!adapter) {
    throw new GpuUnavailableError(
      found.runtime === 'browser'
        ? 'WebGPU is present but no GPU adapter is available (the GPU may be blocklisted or disabled; ' +
            'check chrome://gpu, or start Chromium with --enable-unsafe-webgpu).'
        : `Dawn found no GPU adapter (${found.runtime}). Check the Vulkan driver: run \`npm test\` once to install ` +
            'lavapipe, or set VK_ICD_FILENAMES.',
    );
  }
  const requiredLimits: Record<string, number> = {};
  for (const name of WANTED_LIMITS) requiredLimits[name] = adapter.limits[name];
  const requiredFeatures = OPTIONAL_FEATURES.filter((feature) => adapter.features.has(feature));
  const device = await adapter.requestDevice({ requiredLimits, requiredFeatures, label: 'reyes' });

  const info = adapter.info;
  const uncapturedErrors: GpuError[] = [];
  device.addEventListener('uncapturederror', (event) => {
    uncapturedErrors.push(toTypedError((event as GPUUncapturedErrorEvent).error, 'uncaptured GPU error'));
  });
  const context: GpuContext = {
    device,
    adapter: {
      vendor: info.vendor,
      architecture: info.architecture,
      device: info.device,
      description: info.description,
      runtime: found.runtime,
    },
    limits: device.limits,
    features: [...device.features].sort(),
    uncapturedErrors,
    lostError: undefined,
    newBufferFill: options.newBufferFill ?? found.newBufferFill,
    lost: device.lost.then((lost) => {
      context.lostError = new GpuDeviceLostError(lost.reason, lost.message);
      return context.lostError;
    }),
    destroy: () => device.destroy(),
  };
  return context;
}

/** The adapter's vendor, architecture and description, as one label. */
export function adapterLabel(adapter: AdapterDescription): string {
  return [adapter.vendor, adapter.architecture, adapter.description].filter(Boolean).join(' / ');
}

/** Every numeric limit as [name, value], sorted by name (GPUSupportedLimits keeps them as getters). */
export function limitEntries(limits: GPUSupportedLimits): [string, number][] {
  const values = limits as unknown as Record<string, unknown>;
  const entries: [string, number][] = [];
  for (const name in values) {
    const value = values[name];
    if (typeof value === 'number') entries.push([name, value]);
  }
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Throws the first error no scope caught, and the lost-device error, if any. */
export function checkUncapturedErrors(gpu: GpuContext): void {
  if (gpu.lostError) throw gpu.lostError;
  const first = gpu.uncapturedErrors.shift();
  if (first) throw first;
}

/**
 * Runs `work` inside validation and out-of-memory error scopes and throws the typed error if the
 * GPU reported one. Use around pipeline creation and submissions whose failure must not pass silently.
 */
export async function withGpuErrorScope<T>(device: GPUDevice, context: string, work: () => T): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let result: T;
  try {
    result = work();
  } finally {
    // Both popped before either is awaited: one wait on Dawn's events rather than two.
    const [validation, memory] = await Promise.all([device.popErrorScope(), device.popErrorScope()]);
    const error = validation ?? memory;
    if (error) throw toTypedError(error, context);
  }
  return result;
}
