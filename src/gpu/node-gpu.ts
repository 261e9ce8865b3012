// WebGPU in Node: Dawn from the `webgpu` package. On a machine without a GPU, Dawn runs on a software
// Vulkan driver; this module picks one before Dawn starts, so tests and the command line need no
// environment set by hand. Imported only in Node (see device.ts).
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, globals } from 'webgpu';
import { acquireGpu, type AcquireOptions, type GpuContext } from './device.ts';
import { GpuUnavailableError } from './errors.ts';
import { paceDawnEventPolling } from './dawn-event-pacing.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LAVAPIPE_ICD = join(projectRoot, '.vulkan', 'lvp_icd.json');
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
const SYSTEM_ICD_DIRS = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'];

export type VulkanChoice = 'environment' | 'system' | 'lavapipe' | 'swiftshader' | 'none';

/**
 * Chooses the Vulkan driver Dawn will load. REYES_VULKAN=system|lavapipe|swiftshader forces one;
 * otherwise VK_ICD_FILENAMES if set, then installed system drivers (a real GPU), then lavapipe
 * (fetched by scripts/setup.mjs), then Chromium's SwiftShader.
 */
export function chooseVulkanDriver(env: NodeJS.ProcessEnv = process.env): { choice: VulkanChoice; icd?: string } {
  const forced = env.REYES_VULKAN;
  if (forced === 'lavapipe') return { choice: 'lavapipe', icd: LAVAPIPE_ICD };
  if (forced === 'swiftshader') return { choice: 'swiftshader', icd: SWIFTSHADER_ICD };
  if (forced === 'system') return { choice: 'system' };
  if (env.VK_ICD_FILENAMES) return { choice: 'environment', icd: env.VK_ICD_FILENAMES };
  const systemDriverInstalled = SYSTEM_ICD_DIRS.some(
    (dir) => existsSync(dir) && readdirSync(dir).some((file) => file.endsWith('.json')),
  );
  if (systemDriverInstalled) return { choice: 'system' };
  if (existsSync(LAVAPIPE_ICD)) return { choice: 'lavapipe', icd: LAVAPIPE_ICD };
  if (existsSync(SWIFTSHADER_ICD)) return { choice: 'swiftshader', icd: SWIFTSHADER_ICD };
  return { choice: 'none' };
}

let dawn: GPU | undefined;

/** The process-wide Dawn instance (Dawn wants one per process). */
export function nodeGpu(): { gpu: GPU; driver: ReturnType<typeof chooseVulkanDriver> } {
  const driver = chooseVulkanDriver();
  if (!dawn) {
    if (driver.icd) process.env.VK_ICD_FILENAMES = driver.icd;
    process.env.XDG_RUNTIME_DIR ??= '/tmp';
    Object.assign(globalThis, globals);
    paceDawnEventPolling();
    dawn = create(dawnFlags());
  }
  return { gpu: dawn, driver };
}

/**
 * Dawn's options. Dawn zeroes each new buffer at its first use, as WebGPU requires; on a CPU driver
 * that memset is slow (about 0.55 ms per MiB on lavapipe here: 380 ms of a 5 s uteapot frame, whose
 * regions' grid records alone are 450 MiB of new buffers), and the renderer never reads a byte it
 * has not written (every buffer comes from allocator.ts, whose pooled buffers are handed out
 * unzeroed already). So in Node new buffers are left as the driver gives them, unless
 * REYES_GPU_BUFFERS=zero. Pages are unaffected: the browser's WebGPU zeroes.
 */
export function dawnFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return env.REYES_GPU_BUFFERS === 'zero' ? [] : ['disable-dawn-features=lazy_clear_resource_on_first_use'];
}

/** What REYES_GPU_BUFFERS=fill has the allocator write over new buffers: as a float -3.4e38 (a
 * colour, depth or position no kernel would leave alone), as an index or count far out of range. */
export const NEW_BUFFER_FILL = 0xff7fffff;

export const NO_DRIVER_HINT =
  'No Vulkan driver was found for Dawn. Run `npm test` once (its setup installs Mesa lavapipe into .vulkan/ ' +
  'and Debian packages when run as root), or as root: `apt-get install -y libvulkan1 mesa-vulkan-drivers`, ' +
  'or point VK_ICD_FILENAMES at a Vulkan ICD JSON file.';

/** Dawn on the chosen driver and how AdapterDescription.runtime names it, e.g. "dawn/vulkan
 * (lavapipe: …)"; GpuUnavailableError (saying how to install a driver) without a Vulkan driver. */
export function dawnGpu(): { gpu: GPU; runtime: string; newBufferFill?: number } {
  const { gpu, driver } = nodeGpu();
  if (driver.choice === 'none') throw new GpuUnavailableError(NO_DRIVER_HINT);
  const runtime = `dawn/vulkan (${driver.choice}${driver.icd ? `: ${driver.icd}` : ''})`;
  return process.env.REYES_GPU_BUFFERS === 'fill' ? { gpu, runtime, newBufferFill: NEW_BUFFER_FILL } : { gpu, runtime };
}

/** A GPU device from Dawn (dawnGpu). */
export async function acquireNodeGpu(options: Omit<AcquireOptions, 'gpu' | 'runtime'> = {}): Promise<GpuContext> {
  return acquireGpu({ ...options, ...dawnGpu() });
}
