/// <reference types="@webgpu/types" preserve="true" />
/**
 * The renderer as a library: RenderMan RIB scenes in, pictures out, on WebGPU. This entry works in
 * a page (bundled by Vite or another bundler; no Node built-in is reached) and in Node; what only
 * Node has (Dawn, files on disk, shader and texture folders) is in `webgpu-reyes/node`.
 *
 * ```ts
 * import { GpuRuntime, acquireGpu, encodePng, parseRib, quantizeImage, renderFrame } from 'webgpu-reyes';
 * const scene = await parseRib(ribText);              // text, bytes (plain or gzip) or a stream
 * for (const d of scene.errors) console.error(formatDiagnostic(d));
 * const frame = scene.frames[0]!;
 * const gpu = new GpuRuntime(await acquireGpu());     // navigator.gpu; in Node use acquireNodeGpu
 * const { image } = await renderFrame(gpu, frame, { samples: 4, signal: AbortSignal.timeout(60_000) });
 * const png = encodePng(quantizeImage(image, frame.options.exposure, frame.options.quantize.rgba));
 * ```
 *
 * @packageDocumentation
 */

// ── Reading RIB ────────────────────────────────────────────────────────────────────────────────
/**
 * Parsing: `parseRib` (async; text, bytes, or a stream of chunks), `parseRibStream` (a stream read
 * one chunk at a time), `parseRibSync` (in-memory scenes). Bad input never throws: every problem is
 * a positioned Diagnostic in `scene.errors` / `scene.warnings` (print them with formatDiagnostic).
 * Archives (ReadArchive) are read through `options.resolver`: createMemoryResolver for files you
 * hold, createFetchResolver for URLs relative to the page, chainResolvers to try several.
 */
export { parseRib, parseRibStream, parseRibSync, formatDiagnostic, createMemoryResolver, createFetchResolver, chainResolvers } from './rib/index.ts';
export type { ParseOptions, ReadOptions, Diagnostic, Severity, SourcePosition, RibResolver, ResolvedFile, ByteChunks, RibInput, RibSource } from './rib/index.ts';
/** The parsed scene: Scene (frames, errors, warnings), Frame (options, camera, primitives, lights, displays). */
export type * from './rib/scene.ts';

// ── Compiling shaders ──────────────────────────────────────────────────────────────────────────
/**
 * The RenderMan Shading Language compiler: `compilePipeline` turns a surface (with displacement,
 * lights, atmosphere) into one WGSL compute kernel; `ShaderCompiler` caches by pipeline;
 * `checkSource` reports diagnostics without compiling. Errors throw RslCompileError with positions.
 */
export { compilePipeline, ShaderCompiler, checkSource, RslCompileError, STANDARD_SHADERS, standardShaderSource } from './rsl/index.ts';
export type { CompiledPipeline, PipelineDescription, ShaderRef, IncludeResolver } from './rsl/index.ts';
export { formatDiagnostic as formatShaderDiagnostic } from './rsl/index.ts';
export type { Diagnostic as ShaderDiagnostic } from './rsl/index.ts';

// ── The GPU ────────────────────────────────────────────────────────────────────────────────────
/**
 * `acquireGpu` gets a device (navigator.gpu in a page; pass `{ gpu }` for another WebGPU
 * implementation) and `new GpuRuntime(context, budgetBytes?)` wraps it with the budgeted allocator
 * and kernel cache every render uses. Failures are the typed errors below.
 */
export { acquireGpu, GpuRuntime, defaultBudget } from './gpu/index.ts';
export type { AcquireOptions, AdapterDescription, GpuContext } from './gpu/index.ts';
export { GpuError, GpuUnavailableError, GpuValidationError, GpuShaderError, GpuOutOfMemoryError, GpuDeviceLostError, GpuBudgetError } from './gpu/index.ts';

// ── Rendering ──────────────────────────────────────────────────────────────────────────────────
/**
 * `renderFrame(gpu, frame, options)` renders one frame to a float image (RenderedFrame.image, plus
 * camera, statistics, warnings). RenderOptions: budgetBytes, samples, resolution, bucketSize,
 * pipeline, shading (a ShadingKernelProvider, e.g. an RslShadingProvider with your shader lookup),
 * onProgress / onRegion / onPixels callbacks and `signal` (an AbortSignal; the render rejects with an
 * AbortError, see isCancelled). `prepareFrame` renders once and keeps the diced grids, so
 * PreparedFrame.render re-renders quickly after shader, light or colour edits (interactive use).
 * BudgetTooSmallError: no region fits the memory budget.
 */
export { renderFrame, prepareFrame, ribBudgetBytes, BudgetTooSmallError, RslShadingProvider, builtinShadingProvider, frameCamera } from './reyes/index.ts';
export type {
  RenderOptions, RenderedFrame, PreparedFrame, PreparedRenderOptions, RegionKind, RegionReport, FrameStats, StageTimes,
  FrameCamera, PixelRect, ShadingKernelProvider, ShadingKernel, ShadingInstance, ShadingRequest, RslShadingOptions, ShaderLookup,
  ShaderSourceFile,
} from './reyes/index.ts';
export type { OutputVariableRequest } from './reyes/render-frame.ts';
export { parsePipelineConfig, PipelineConfigError } from './reyes/pipeline/pipeline-config.ts';
export type { PipelineConfig } from './reyes/pipeline/pipeline-config.ts';
export { isCancelled } from './reyes/cancel.ts';

// ── Pictures out ───────────────────────────────────────────────────────────────────────────────
/**
 * From the float image to bytes: `quantizeImage` applies the frame's Exposure and Quantize (with
 * dither), `encodePng` writes a PNG; `displayFiles` writes what a RIB Display asks for (TIFF, PNG,
 * OpenEXR, float depth TIFF; its warnings list what it could not do as asked) and `outputVariables`
 * says which output variables to request in RenderOptions for the frame's Displays. `depthCamera`
 * gives DisplaySettings.depthCamera from RenderedFrame.camera. `compareImages` gives the difference
 * figures the tests use.
 */
export { quantizeImage, createFloatImage, compareImages } from './image/index.ts';
export type { ImageDifference } from './image/compare.ts';
export type { FloatImage, QuantizedImage, VariableImage, ExposureSettings, QuantizeSettings, AlphaStorage } from './image/index.ts';
export { encodePng, decodePng } from './image/png.ts';
export { encodeExr } from './image/exr.ts';
export { encodeTiff, encodeDepthTiff } from './image/tiff.ts';
export type { TiffRaster, DepthCamera } from './image/tiff.ts';
export { displayFiles, outputVariables } from './image/display-files.ts';
export type { DisplayFile, DisplaySettings } from './image/display-files.ts';
export { depthCamera } from './texture/shadow-map.ts';
