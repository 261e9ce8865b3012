// One device of a several-device render, in a worker thread of its own: its own Dawn device,
// allocator and budget, kernel cache, shading provider and copy of the frame. It renders the regions
// the main thread hands it (device-pool.ts), each as a CropWindow render, and sends back their pixels.
import { parentPort } from 'node:worker_threads';
import { acquireNodeGpu } from '../../gpu/node-gpu.ts';
import { GpuRuntime } from '../../gpu/runtime.ts';
import type { Frame } from '../../rib/scene.ts';
import { nodeTextureStorage } from '../../texture/node-texture-storage.ts';
import { TextureRegistry } from '../../texture/texture-registry.ts';
import { renderFrame } from '../render-frame.ts';
import { nodeRslShading } from '../shading/node-shaders.ts';
import type { DeviceShading, FromDevice, RegionRenderOptions, ToDevice } from './device-messages.ts';

const port = parentPort!;
const post = (message: FromDevice, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

let gpu: GpuRuntime;
try {
  // Dawn imported directly, not through acquireGpu's computed import, which a bundle cannot follow.
  gpu = new GpuRuntime(await acquireNodeGpu());
  post({ type: 'ready', adapter: gpu.context.adapter.description });
} catch (error) {
  post({ type: 'error', message: (error as Error).message });
  process.exit(1);
}

interface Shading {
  provider: ReturnType<typeof nodeRslShading>;
  textures: TextureRegistry;
}

/** Shading providers by their look-up folders, kept across frames so kernels compile once. */
const providers = new Map<string, Shading>();

function shadingFor(setup: DeviceShading): Shading {
  const key = JSON.stringify([setup.sceneDir, setup.outputDir, setup.shaderPath]);
  let found = providers.get(key);
  if (!found) {
    const textures = new TextureRegistry(nodeTextureStorage(setup.sceneDir, setup.outputDir ?? setup.sceneDir));
    found = { textures, provider: nodeRslShading({ sceneDir: setup.sceneDir, shaderPath: setup.shaderPath ?? [], textures }) };
    providers.set(key, found);
  }
  return found;
}

let frame: Frame | undefined;
let options: RegionRenderOptions = {};
let shading: Shading | undefined;

port.on('message', (message: ToDevice) => {
  if (message.type === 'frame') {
    frame = message.frame;
    options = message.options;
    shading = message.shading ? shadingFor(message.shading) : undefined;
    // Make* requests may have rewritten maps since the last frame.
    shading?.textures.forget();
  } else if (message.type === 'region') {
    const cropped = { ...frame!, options: { ...frame!.options, cropWindow: message.cropWindow } };
    renderFrame(gpu, cropped, { ...options, ...(shading ? { shading: shading.provider.provide } : {}) }).then(
      (rendered) => {
        const { image, variables, warnings, stats, regions } = rendered;
        const buffers = [image.rgba.buffer, image.depth.buffer, ...[...variables.values()].flatMap((v) => [v.image.rgba.buffer, v.image.depth.buffer])];
        post({ type: 'pixels', pixels: { image, variables, warnings, stats, regions } }, buffers as ArrayBuffer[]);
      },
      (error: Error) => post({ type: 'error', message: error.message }),
    );
  } else {
    gpu.allocator.trim();
    gpu.context.destroy();
    port.close();
  }
});
