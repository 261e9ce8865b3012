/// <reference types="@webgpu/types" preserve="true" />
/**
 * The renderer as a library: RenderMan RIB scenes in, pictures out, on WebGPU. This entry works in
 * a page (bundled by Vite or another bundler; no Node built-in is reached) and in Node; what only
 * Node has (Dawn, files on disk, shader and texture folders) is in `webgpu-reyes/node`.
 *
 * ```ts
 * import { GpuRuntime, acquireGpu, encodePng, formatDiagnostic, parseRib, quantizeImage, renderFrame } from 'webgpu-reyes';
 * const scene = await parseRib(ribText);              // text, bytes (plain or gzip) or a stream
 * for (const d of scene.errors) console.error(formatDiagnostic(d));
 * const frame = scene.frames[0]!;
 * const gpu = new GpuRuntime(await acquireGpu());     // navigator.gpu; in Node use acquireNodeGpu
 * const { image } = await renderFrame(gpu, frame, { samples: 4, signal: AbortSignal.timeout(60_000) });
 * const png = encodePng(quantizeImage(image, frame.options.exposure, frame.options.quantize.rgba));
 * ```
 *
 * @packageDocumentation
 * @module webgpu-reyes
 */
// Each export carries its own doc comment here (TypeDoc shows it), as most of these were written
// as internal modules.

// ── Reading RIB ────────────────────────────────────────────────────────────────────────────────
// Bad input never throws: every problem is a positioned Diagnostic in scene.errors / scene.warnings.
/** Parses a RIB scene (async): text, bytes (plain or gzip) or a stream of chunks; archives come through `options.resolver`. */
export { parseRib } from './rib/index.ts';
/** Parses a RIB given as a stream of chunks (a fetch body, a Node stream), holding only the current chunk. */
export { parseRibStream } from './rib/index.ts';
/** Parses an in-memory RIB synchronously (resolvers and streams must answer synchronously). */
export { parseRibSync } from './rib/index.ts';
/** `file:line:column: severity: message` for a RIB diagnostic. */
export { formatDiagnostic } from './rib/index.ts';
/** A resolver for archives held in memory (name → text or bytes). */
export { createMemoryResolver } from './rib/index.ts';
/** A resolver that fetches archives by URL, relative to the scene (the page). */
export { createFetchResolver } from './rib/index.ts';
/** A resolver that asks several in turn. */
export { chainResolvers } from './rib/index.ts';
/** Options of parseRib: the scene's file name (for positions and relative archives), resolver, search paths. */
export type { ParseOptions } from './rib/index.ts';
/** What the RIB reader accepts besides the resolver (file name, shader search paths). */
export type { ReadOptions } from './rib/index.ts';
/** A positioned RIB error or warning (file, line, column, request, message). */
export type { Diagnostic } from './rib/index.ts';
/** 'error' or 'warning'. */
export type { Severity } from './rib/index.ts';
/** Where in a RIB file something was (file, line, column). */
export type { SourcePosition } from './rib/index.ts';
/** Finds archive files for ReadArchive: answers with text, bytes or chunks (or undefined: missing). */
export type { RibResolver } from './rib/index.ts';
/** What a resolver answers for one file. */
export type { ResolvedFile } from './rib/index.ts';
/** A stream of RIB chunks: an (async) iterable of bytes or text. */
export type { ByteChunks } from './rib/index.ts';
/** A whole RIB: text or bytes. */
export type { RibInput } from './rib/index.ts';
/** Anything parseRib reads: RibInput or ByteChunks. */
export type { RibSource } from './rib/index.ts';
/** Archive path arithmetic on '/'-separated names: collapses '.', '..', repeated and back slashes (the names a resolver is asked for are normalised so). */
export { normalizePath as normalizeArchivePath } from './rib/archive-paths.ts';
/** Joins a folder and a name as the reader does for archives (an absolute name stands alone), normalised. */
export { joinPath as joinArchivePath } from './rib/archive-paths.ts';
/** Why a `width` × `height` picture cannot be rendered (more pixels than MAX_IMAGE_PIXELS), or undefined when it can. */
export { imageTooLarge } from './rib/image-limits.ts';
/** The most pixels a picture may have. */
export { MAX_IMAGE_PIXELS } from './rib/image-limits.ts';
/** The RenderMan Interface requests the reader knows, described once as data: name → category, positional arguments, parameter list. */
export { REQUESTS } from './rib/requests.ts';
/** One request of REQUESTS: its name, category (which decides its valid scopes), arguments and whether a parameter list follows. */
export type { RequestDef } from './rib/requests.ts';
/** A positional argument of a request: name, kind, fixed length, optional. */
export type { ArgSpec } from './rib/requests.ts';
/** The type of a positional argument ('int', 'float[]', 'basis', ...). */
export type { ArgKind } from './rib/requests.ts';
/** What kind of request it is ('option', 'attribute', 'geometry', ...). */
export type { RequestCategory } from './rib/requests.ts';
/** Applies a 4×4 RIB matrix to a point (row-vector convention, with the homogeneous divide). */
export { transformPoint } from './rib/transforms.ts';
/** A primitive's object-space bounding box from its RIB arguments (frame all in the page). */
export { objectBound } from './rib/object-bound.ts';

// The parsed scene (src/rib/scene.ts).
/** A parsed RIB: its frames, errors and warnings, and requests made outside any frame. */
export type { Scene } from './rib/scene.ts';
/** One frame (FrameBegin/WorldBegin): options, camera, primitives, lights, displays. */
export type { Frame } from './rib/scene.ts';
/** A frame's options: Format, PixelSamples, Exposure, Quantize, Clipping, CropWindow, user options... */
export type { Options } from './rib/scene.ts';
/** The camera as the RIB set it up: projection, screen window, transformations, shutter, depth of field. */
export type { Camera } from './rib/scene.ts';
/** A Display request: name, driver type, mode and parameters. */
export type { Display } from './rib/scene.ts';
/** A DisplayChannel declaration. */
export type { DisplayChannel } from './rib/scene.ts';
/** One Quantize setting (one, min, max, dither amplitude). */
export type { Quantizer } from './rib/scene.ts';
/** A geometric primitive with its attributes, transformation samples and primitive variables. */
export type { Primitive } from './rib/scene.ts';
/** The primitive kinds the RIB can ask for. */
export type { PrimitiveType } from './rib/scene.ts';
/** A primitive's geometry: its request's arguments and parameters. */
export type { Geometry } from './rib/scene.ts';
/** A light source or area light with its shader and transformation. */
export type { Light } from './rib/scene.ts';
/** The attribute state a primitive was declared with (shaders, colour, opacity, shading rate, ...). */
export type { Attributes } from './rib/scene.ts';
/** A typed parameter-list entry (name, declaration, values). */
export type { Parameter } from './rib/scene.ts';
/** A shader as the scene names it (name, parameters, its "shader" space); not the compiler's ShaderRef. */
export type { ShaderRef as SceneShaderRef } from './rib/scene.ts';
/** A Basis (u and v matrices and steps). */
export type { Basis } from './rib/scene.ts';
/** Orientation: 'outside', 'inside', 'lh' or 'rh'. */
export type { Orientation } from './rib/scene.ts';
/** TrimCurve data. */
export type { TrimCurves } from './rib/scene.ts';
/** The value count of each storage class for a primitive. */
export type { StorageCounts } from './rib/scene.ts';
/** One motion sample of a transformation (time, matrix). */
export type { TransformSample } from './rib/scene.ts';
/** MakeTexture, MakeShadow and friends, as requested. */
export type { TextureRequest } from './rib/scene.ts';
/** A `##` structure comment kept from the file. */
export type { StructureComment } from './rib/scene.ts';
/** A 4×4 matrix, 16 numbers in RIB order. */
export type { Matrix4 } from './rib/scene.ts';
/** A primitive variable's storage class. */
export type { StorageClass } from './rib/scene.ts';
/** A parameter's value type. */
export type { ValueType } from './rib/scene.ts';

// ── Compiling shaders ──────────────────────────────────────────────────────────────────────────
/** Compiles RSL (a surface with its displacement, lights and atmosphere) into one WGSL compute kernel; throws RslCompileError. */
export { compilePipeline } from './rsl/index.ts';
/** compilePipeline with a cache by pipeline. */
export { ShaderCompiler } from './rsl/index.ts';
/** Parses and type-checks RSL source, returning its diagnostics without compiling. */
export { checkSource } from './rsl/index.ts';
/** A failed compile; `.diagnostics` holds the positioned errors and warnings. */
export { RslCompileError } from './rsl/index.ts';
/** The standard shaders' names (matte, plastic, ...), compiled in. */
export { STANDARD_SHADERS } from './rsl/index.ts';
/** A standard shader's RSL source. */
export { standardShaderSource } from './rsl/index.ts';
/** `file:line:column: severity: message` for a shader diagnostic. */
export { formatDiagnostic as formatShaderDiagnostic } from './rsl/index.ts';
/** A compiled pipeline: WGSL, grid layout, parameter layout, diagnostics. */
export type { CompiledPipeline } from './rsl/index.ts';
/** What to compile: surface, displacement, lights, atmosphere or imager, primitive variables, options. */
export type { PipelineDescription } from './rsl/index.ts';
/** A shader to compile: a standard shader's name, or source text (with its file and shader name). */
export type { ShaderRef } from './rsl/index.ts';
/** Where #include finds files. */
export type { IncludeResolver } from './rsl/index.ts';
/** The type of a grid variable (float, point, vector, normal, color). */
export type { GridVariableType } from './rsl/index.ts';
/** A positioned shader error or warning. */
export type { Diagnostic as ShaderDiagnostic } from './rsl/index.ts';
/** The result of checkSource. */
export type { FrontEndResult } from './rsl/frontend.ts';
/** The diagnostics of checkSource: `.list` holds each positioned error and warning. */
export type { Diagnostics as ShaderDiagnostics } from './rsl/diagnostics.ts';
/** Preprocessor options of checkSource (include resolver, defines). */
export type { PreprocessOptions } from './rsl/preprocessor.ts';
/** Preprocesses and parses RSL without type checking: `ast.shaders` are the shaders a source declares (names, kinds, parameters). */
export { parseSource } from './rsl/index.ts';
/** One shader parameter of a compiled kernel's parameter block: name, type, default value, offset. */
export type { ParamEntry } from './rsl/index.ts';
/** An RSL value's type name ('float', 'point', 'color', 'string', 'matrix', ...). */
export type { TypeName as RslTypeName } from './rsl/types.ts';
/** The RSL types a variable can have (RslTypeName without 'bool'). */
export type { BaseTypeName as RslBaseTypeName } from './rsl/ast.ts';
/** 'surface', 'displacement', 'light', 'volume' or 'imager'. */
export type { ShaderKind } from './rsl/ast.ts';
/** The ways a kernel that passes the resource model's limits is split into passes (PipelineDescription.partition.algorithm). */
export { PARTITION_ALGORITHMS } from './rsl/partition/index.ts';
/** The built-in resource models ('tiny', 'default') the partitioner splits kernels under. */
export { RESOURCE_PROFILES } from './rsl/partition/index.ts';
/** A resource model from JSON text: any fields of ResourceModel, the rest from the default; throws a message naming the file. */
export { parseResourceModel } from './rsl/partition/index.ts';
/** A partitioning algorithm: 'rds', 'rds_h', 'mrds', 'dp' or 'auto'. */
export type { PartitionAlgorithm } from './rsl/partition/index.ts';
/** The limits a kernel must fit (registers, workgroup memory, ...) for the partitioner. */
export type { ResourceModel } from './rsl/partition/index.ts';
/** How a kernel is partitioned (PipelineDescription.partition): the algorithm, resource model and cost model. */
export type { PartitionOptions } from './rsl/partition/partition-kernel.ts';
/** The partitioner's costs: of an operation, of a byte through the intermediate buffer, of a launch. */
export type { CostModel } from './rsl/partition/index.ts';
/** A kernel split into passes (CompiledPipeline.multipass): the passes, intermediate buffer, algorithm and cost. */
export type { MultipassKernel } from './rsl/partition/partition-kernel.ts';
/** One pass of a MultipassKernel: its WGSL, what it computes, saves and restores. */
export type { KernelPass } from './rsl/partition/partition-kernel.ts';

// ── The GPU ────────────────────────────────────────────────────────────────────────────────────
/** A GPU device: navigator.gpu in a page, or the WebGPU implementation given as `{ gpu }` (in Node, acquireNodeGpu). */
export { acquireGpu } from './gpu/index.ts';
/** The device with the budgeted allocator and kernel cache every render uses: `new GpuRuntime(context, budgetBytes?)`. */
export { GpuRuntime } from './gpu/index.ts';
/** The memory budget a runtime takes by default from the device's limits. */
export { defaultBudget } from './gpu/index.ts';
/** Options of acquireGpu. */
export type { AcquireOptions } from './gpu/index.ts';
/** Which adapter and runtime a device came from. */
export type { AdapterDescription } from './gpu/index.ts';
/** A device with its limits, features, uncaptured errors and loss. */
export type { GpuContext } from './gpu/index.ts';
/** The base of the GPU errors below. */
export { GpuError } from './gpu/index.ts';
/** No WebGPU or no adapter; the message says what to do. */
export { GpuUnavailableError } from './gpu/index.ts';
/** A WebGPU validation error. */
export { GpuValidationError } from './gpu/index.ts';
/** A kernel failed to compile on the device. */
export { GpuShaderError } from './gpu/index.ts';
/** The device ran out of memory. */
export { GpuOutOfMemoryError } from './gpu/index.ts';
/** The device was lost. */
export { GpuDeviceLostError } from './gpu/index.ts';
/** An allocation would pass the runtime's memory budget. */
export { GpuBudgetError } from './gpu/index.ts';
/** The adapter's vendor, architecture and description as one label (from GpuContext.adapter). */
export { adapterLabel } from './gpu/device.ts';
/** Every numeric limit of a device as [name, value], sorted by name. */
export { limitEntries } from './gpu/device.ts';
/** A byte count as people read it ('1.5 MiB'), as the GPU errors word it. */
export { formatBytes } from './gpu/errors.ts';

// ── Rendering ──────────────────────────────────────────────────────────────────────────────────
/** Renders one frame to a float image (RenderedFrame: image, camera, statistics, warnings). */
export { renderFrame } from './reyes/index.ts';
/** Renders once and keeps the diced grids, so PreparedFrame.render re-renders quickly after shader, light or colour edits. */
export { prepareFrame } from './reyes/index.ts';
/** The renderer's default grid size (RenderOptions.maxVertices) on a device with this many invocations per workgroup. */
export { defaultGridVertices } from './reyes/index.ts';
/** The budget a frame's `Option "limits" "gpumemory"` asks for, in bytes. */
export { ribBudgetBytes } from './reyes/index.ts';
/** No region fits the memory budget. */
export { BudgetTooSmallError } from './reyes/index.ts';
/** The default shading: compiled RSL with a shader lookup and texture registry (RenderOptions.shading = provider.provide). */
export { RslShadingProvider } from './reyes/index.ts';
/** Shading with the built-in default and constant surfaces only. */
export { builtinShadingProvider } from './reyes/index.ts';
/** The warning a render gives for a shader no lookup finds (`role` shader "name" not found; what happens instead). */
export { notFoundMessage as shaderNotFoundMessage } from './reyes/shading/rsl-provider.ts';
/** What a shader is used as in a frame: 'surface', 'displacement', 'atmosphere', 'light' or 'imager'. */
export type { Role as ShaderRole } from './reyes/shading/rsl-provider.ts';
/** The frame's camera as the renderer uses it (projection, raster size, crop, lens). */
export { frameCamera } from './reyes/index.ts';
/** Whether an error is the AbortError of a cancelled render (RenderOptions.signal). */
export { isCancelled } from './reyes/cancel.ts';
/** Reads a pipeline configuration (JSON text: dicing and sampling bins); throws PipelineConfigError. */
export { parsePipelineConfig } from './reyes/pipeline/pipeline-config.ts';
/** A bad pipeline configuration. */
export { PipelineConfigError } from './reyes/pipeline/pipeline-config.ts';
/** Options of a render: budgetBytes, samples, resolution, bucketSize, pipeline, shading, onProgress/onRegion/onPixels, signal, ... */
export type { RenderOptions } from './reyes/index.ts';
/** A rendered frame: the float image, camera, statistics, warnings, regions, output variables. */
export type { RenderedFrame } from './reyes/index.ts';
/** A frame ready for interactive edits (see prepareFrame). */
export type { PreparedFrame } from './reyes/index.ts';
/** The RenderOptions a PreparedFrame's re-render accepts. */
export type { PreparedRenderOptions } from './reyes/index.ts';
/** What the page changed since a prepared frame's last render (PreparedRenderOptions.edits): a light's parameters, or the shader parameters or colour of known primitives. */
export type { FrameEdit } from './reyes/index.ts';
/** 'dicing', 'sampling' or 'bucket'. */
export type { RegionKind } from './reyes/index.ts';
/** A region the schedulers chose (RenderOptions.onRegion). */
export type { RegionReport } from './reyes/index.ts';
/** A frame's statistics (micropolygons, samples, memory, stage times). */
export type { FrameStats } from './reyes/index.ts';
/** One light's "auto" shadow map pass in FrameStats.shadowPasses. */
export type { ShadowPassStats } from './reyes/index.ts';
/** Time spent in each stage. */
export type { StageTimes } from './reyes/index.ts';
/** The renderer's camera (see frameCamera). */
export type { FrameCamera } from './reyes/index.ts';
/** A pixel rectangle, x1 and y1 exclusive. */
export type { PixelRect } from './reyes/index.ts';
/** Where shading kernels come from (RenderOptions.shading). */
export type { ShadingKernelProvider } from './reyes/index.ts';
/** A compiled shading kernel. */
export type { ShadingKernel } from './reyes/index.ts';
/** A kernel with one primitive's parameter block. */
export type { ShadingInstance } from './reyes/index.ts';
/** What a provider is asked to shade. */
export type { ShadingRequest } from './reyes/index.ts';
/** Options of RslShadingProvider: shader lookup, search path, include resolver, compile cache, textures. */
export type { RslShadingOptions } from './reyes/index.ts';
/** Finds a shader's source by name. */
export type { ShaderLookup } from './reyes/index.ts';
/** A shader source a lookup found. */
export type { ShaderSourceFile } from './reyes/index.ts';
/** The space matrices a kernel holds. */
export type { KernelSpaces } from './reyes/index.ts';
/** A coordinate system name a kernel knows. */
export type { SpaceName } from './layout/grid-layout.ts';
/** Overrides of frameCamera (the --res resolution). */
export type { CameraOverrides } from './reyes/camera.ts';
/** An output variable to render besides colour (RenderOptions.outputVariables). */
export type { OutputVariableRequest } from './reyes/render-frame.ts';
/** How the stages bin the screen (RenderOptions.pipeline). */
export type { PipelineConfig } from './reyes/pipeline/pipeline-config.ts';
/** How dicing bins the screen. */
export type { DicingBins } from './reyes/pipeline/pipeline-config.ts';
/** How sampling bins the screen. */
export type { SamplingBins } from './reyes/pipeline/pipeline-config.ts';

// ── Pictures out ───────────────────────────────────────────────────────────────────────────────
/** Applies Exposure and Quantize (with dither) to a float image. */
export { quantizeImage } from './image/index.ts';
/** One colour value after exposure: (gain × c) ^ (1 / gamma). */
export { expose } from './image/quantize.ts';
/** The pixel filters the renderer has (PixelFilter names). */
export { PIXEL_FILTERS } from './image/pixel-filters.ts';
/** A pixel filter's name. */
export type { PixelFilterName } from './image/pixel-filters.ts';
/** An empty float image. */
export { createFloatImage } from './image/index.ts';
/** The difference figures between two quantized images that the tests use. */
export { compareImages } from './image/index.ts';
/** A PNG of a quantized image. */
export { encodePng } from './image/png.ts';
/** Reads a PNG into a quantized image. */
export { decodePng } from './image/png.ts';
/** An OpenEXR of float RGBA. */
export { encodeExr } from './image/exr.ts';
/** A TIFF of a raster (8-bit, 16-bit or float samples). */
export { encodeTiff } from './image/tiff.ts';
/** A float depth TIFF (a depth map MakeShadow can read). */
export { encodeDepthTiff } from './image/tiff.ts';
/** The files a RIB Display writes for a rendered frame, and warnings for what it cannot do as asked. */
export { displayFiles } from './image/display-files.ts';
/** The output variables a frame's Displays ask for (for RenderOptions.outputVariables). */
export { outputVariables } from './image/display-files.ts';
/** Where a file a Display names goes inside an output folder; `escapes` when the name is absolute or climbs out with '..'. */
export { placeDisplayFile } from './image/display-files.ts';
/** DisplaySettings.depthCamera from RenderedFrame.camera. */
export { depthCamera } from './texture/shadow-map.ts';
/** Per pixel: premultiplied float RGBA and camera-space depth. */
export type { FloatImage } from './image/index.ts';
/** Quantized RGBA. */
export type { QuantizedImage } from './image/index.ts';
/** An output variable's filtered image. */
export type { VariableImage } from './image/index.ts';
/** Exposure gain and gamma. */
export type { ExposureSettings } from './image/index.ts';
/** Quantize one, min, max and dither. */
export type { QuantizeSettings } from './image/index.ts';
/** Whether colour is stored premultiplied by alpha. */
export type { AlphaStorage } from './image/index.ts';
/** The result of compareImages. */
export type { ImageDifference } from './image/compare.ts';
/** 'half' or 'float'. */
export type { ExrPixelType } from './image/exr.ts';
/** A raster for encodeTiff. */
export type { TiffRaster } from './image/tiff.ts';
/** The camera recorded in a depth map. */
export type { DepthCamera } from './image/tiff.ts';
/** A file a Display writes: name, bytes, what it holds. */
export type { DisplayFile } from './image/display-files.ts';
/** Exposure, quantize and depth camera for displayFiles. */
export type { DisplaySettings } from './image/display-files.ts';

// ── Textures ───────────────────────────────────────────────────────────────────────────────────
/** The texture and shadow maps shaders name, read through a TextureStorage (RslShadingOptions.textures). */
export { TextureRegistry } from './texture/texture-registry.ts';
/** A TextureStorage over files held in memory. */
export { memoryTextureStorage } from './texture/texture-storage.ts';
/** The MakeTexture/MakeShadow/... requests that run between two frames (`texturesBetween(scene, first, last)`), in RIB order. */
export { texturesBetween } from './texture/make-textures.ts';
/** Runs texture requests: reads their pictures from, and writes the made maps into, a TextureStorage. */
export { runTextureRequests } from './texture/make-textures.ts';
/** What runTextureRequests wrote and the warnings it gave. */
export type { MadeTextures } from './texture/make-textures.ts';
/** Reads the pictures texture requests name through a RIB resolver (the page fetches them), by path. */
export { fetchPictures } from './texture/fetch-pictures.ts';
/** Decodes a PNG or TIFF picture into float samples; throws a message saying what is wrong with it. */
export { decodePicture } from './texture/picture.ts';
/** A decoded picture: width, height, channels and float samples. */
export type { FloatRaster } from './texture/tiff-samples.ts';
/** Where texture files are read and made. */
export type { TextureStorage } from './texture/texture-storage.ts';
