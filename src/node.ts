/**
 * What only Node has, for `webgpu-reyes/node`: WebGPU through Dawn (the `webgpu` package, on the
 * machine's Vulkan driver, or Mesa lavapipe / SwiftShader when there is no GPU; VK_ICD_FILENAMES or
 * REYES_VULKAN=system|lavapipe|swiftshader choose), scene files streamed from disk with their
 * archives, and RSL shaders and texture maps found in folders as the `reyes` command finds them.
 *
 * ```ts
 * import { GpuRuntime, renderFrame } from 'webgpu-reyes';
 * import { acquireNodeGpu, parseRibFile } from 'webgpu-reyes/node';
 * const scene = await parseRibFile('scene.rib');
 * const gpu = new GpuRuntime(await acquireNodeGpu());
 * const { image } = await renderFrame(gpu, scene.frames[0]!);
 * ```
 *
 * @packageDocumentation
 * @module webgpu-reyes/node
 */

/**
 * A GPU device from Dawn. Rejects with GpuUnavailableError (its message says how to install a
 * driver) when no Vulkan driver or adapter is found. Call `context.destroy()` when done, so the
 * process can exit.
 */
export { acquireNodeGpu } from './gpu/node-gpu.ts';

/** Which Vulkan driver Dawn loads (and from which ICD file), as acquireNodeGpu will choose it. */
export { chooseVulkanDriver } from './gpu/node-gpu.ts';
/** 'environment' (VK_ICD_FILENAMES), 'system', 'lavapipe', 'swiftshader' or 'none'. */
export type { VulkanChoice } from './gpu/node-gpu.ts';

// `parseRibFile(path, options)` streams a scene file (plain or gzip) from disk, 1 MiB at a time,
// reading archives from disk relative to it; `createNodeResolver` is that archive resolver, for
// parseRib on text or bytes you read yourself.
export { parseRibFile, createNodeResolver } from './rib/resolver-node.ts';

// `nodeRslShading({ sceneDir, shaderPath, textures })` is the shading provider of the `reyes`
// command: RSL shaders (.sl) from the scene's folder, the given folders and the RIB's shader search
// path, then the standard shaders. Pass its `.provide` as RenderOptions.shading.
/** The `reyes` command's RSL shading provider, over shader files on disk (see above). */
export { nodeRslShading } from './reyes/shading/node-shaders.ts';
/** Options of nodeRslShading: the scene's folder, shader folders, texture registry. */
export type { NodeShadingOptions } from './reyes/shading/node-shaders.ts';
/** An RSL #include resolver over files: relative to the including file first, then in each of `searchPath`'s folders (PreprocessOptions / compilePipeline). */
export { fileIncludeResolver } from './rsl/node-resolver.ts';

// Texture maps on disk: `new TextureRegistry(nodeTextureStorage(sceneDir, outputDir))` (TextureRegistry
// from the main entry) gives shaders the textures and shadow maps a scene names, read from sceneDir,
// made by MakeTexture into outputDir.
/** A TextureStorage reading from the scene's folder and writing made textures into the output folder. */
export { nodeTextureStorage } from './texture/node-texture-storage.ts';

// `DevicePool.start({ devices })` opens that many GPU devices, each in a worker thread of its own
// (one per adapter on a machine with several GPUs, several on one adapter otherwise); `pool.render(frame,
// options)` renders a frame on all of them, its regions dealt out and stolen (RenderAnts' scheduling
// across GPUs), and reports per device the regions, pixels, steals and idle time (`stats.devices`).
// `options.shading` names the folders shaders and textures are read from, as nodeRslShading takes
// them. Call `pool.close()` when done.
/** Several GPU devices rendering one frame with work stealing (see above). */
export { DevicePool } from './reyes/devices/device-pool.ts';
/** DevicePool's options, its render options, result and per-device report. */
export type { DevicePoolOptions, DevicesRenderOptions, DevicesRenderedFrame, DevicesFrameStats, DeviceReport } from './reyes/devices/device-pool.ts';
/** The plain data options of a RenderOptions (no callbacks, providers or signals): those `pool.render` can send to its device threads. */
export { regionRenderOptions } from './reyes/devices/device-messages.ts';
/** What regionRenderOptions keeps. */
export type { RegionRenderOptions } from './reyes/devices/device-messages.ts';
/** Where a device thread finds shaders and textures. */
export type { DeviceShading } from './reyes/devices/device-messages.ts';
