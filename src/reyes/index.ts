/**
 * The Reyes pipeline on WebGPU, after RenderAnts (Zhou, Hou et al. 2009): every stage is a set of
 * data-parallel compute passes, and schedulers size the work to a GPU memory budget.
 *
 *     Frame (src/rib) ─▶ camera.ts (projection, ScreenWindow, Format, CropWindow, clipping)
 *       ─▶ convert/ (CPU, once per frame): each primitive becomes fixed-size GPU records of a few
 *          splittable kinds (bicubic Bézier patch, bilinear patch, the seven quadrics, Blobby
 *          patches that the dicer puts onto their implicit surface; polygons are fanned or
 *          triangulated into bilinear pieces) with corner values of Cs, Os, s, t, N and
 *          the user primitive variables (primvars.ts: they join the frame's grid layout, and a
 *          shader parameter of the same name reads them per vertex) by storage class; shading/
 *          picks each primitive's kernel and parameter block
 *       ─▶ schedulers/dicing-scheduler.ts: for a screen region,
 *            stages/bound-split.ts  queue of (primitive, uv-range) pieces bounded and split on the
 *                                   GPU each iteration (frustum cull, eye-plane split, grid size
 *                                   from the shading rate); scan + compact place children and
 *                                   ready pieces
 *          the region is BSP-split while the ready pieces' grids exceed budget − reserve
 *            stages/dice.ts         one workgroup per piece writes a grid in the shared layout
 *                                   (src/layout/grid-layout.ts)
 *            stages/shade.ts        the shading kernels (compiled RSL: displacement, then surface
 *                                   with the primitive's lights, then atmosphere, in one kernel),
 *                                   batched per kernel by the shading scheduler
 *       ─▶ schedulers/sampling-scheduler.ts: BSP of the region until sample points + subpixel
 *          framebuffer fit, then for each piece
 *            stages/sample.ts       conservative count per micropolygon, scan, jittered sample
 *                                   points (hash of the subpixel), radix sort by (subpixel, depth),
 *                                   front-to-back composite; or the opaque atomic-depth fast path
 *                                   (which counts the sample points it tests on the GPU); both keep
 *                                   the nearest sample's primitive record per subpixel
 *            stages/filter.ts       the pixel filter over the subpixels (with an apron of the
 *                                   filter's half width), read back into the float image (and, on
 *                                   request, the primitive under each pixel)
 *       ─▶ src/image/: exposure, quantize with dither, PNG; camera-space depth (FloatImage.depth) as a
 *          32-bit float TIFF (tiff.ts) for Display modes with z and the CLI's --depth.
 *
 * The memory budget is RenderOptions.budgetBytes (the CLI's --budget), else the RIB's
 * `Option "limits" "gpumemory" [MiB]` (frame/frame-budget.ts ribBudgetBytes), else what the runtime allows.
 * Bucket mode (`bucketSize`) runs the same stages over fixed tiles without splitting. Statistics
 * per frame are in stats.ts. For the page's Insight, RenderOptions.onRegion / RenderedFrame.regions
 * report the dicing and sampling regions (and buckets) as the schedulers finish or split them,
 * onProgress the pixels done weighted by the last stage their region finished (schedulers/progress.ts;
 * rising, ending at every pixel), onPixels each sampling region's filtered pixels as it finishes,
 * RenderOptions.signal cancels at the next region or stage boundary (cancel.ts), gridOutlines the
 * shaded grids' corners in raster space
 * (schedulers/insight.ts), primitiveIds the scene primitive under each pixel. prepareFrame
 * (frame/prepared-frame.ts) renders once and keeps every dicing region's ready pieces and shaded grids while
 * they fit half the budget; PreparedFrame.render re-runs shade → sample → composite → filter after
 * shader, light or colour edits (re-dicing from the kept pieces where colours changed or a kernel
 * displaces), and renders from scratch when the camera, settings or geometry changed. Shading kernels plug in through shading/shading-kernel.ts: by default
 * shading/rsl-provider.ts compiles one kernel per composition (surface, displacement, atmosphere,
 * lights) with src/rsl and packs each primitive's RIB shader parameters (shading/shader-params.ts,
 * points brought to camera space; shading/spaces.ts says what the kernels' space matrices hold);
 * shaders come from an injectable lookup (shading/node-shaders.ts on Node) then the standard
 * shaders. shading/builtin-surfaces.ts keeps the default and constant surfaces as WGSL kernels: used
 * for those surfaces and as the fallback when a composition cannot be compiled.
 */
export { KEEP_SHARE, prepareFrame, renderFrame, ribBudgetBytes } from './render-frame.ts';
export type { FrameEdit, PreparedFrame, PreparedRenderOptions, RegionKind, RegionReport, RenderOptions, RenderedFrame } from './render-frame.ts';
export { frameCamera } from './camera.ts';
export { defaultGridVertices } from './frame/frame-job.ts';
export type { FrameCamera, PixelRect } from './camera.ts';
export { BudgetTooSmallError } from './errors.ts';
export type { FrameStats, ShadowPassStats, StageTimes } from './stats.ts';
export type { ShadingInstance, ShadingKernel, ShadingKernelProvider, ShadingRequest } from './shading/shading-kernel.ts';
export { builtinShadingProvider, builtinSurfaceKernel } from './shading/builtin-surfaces.ts';
export { RslShadingProvider } from './shading/rsl-provider.ts';
export type { RslShadingOptions, ShaderLookup, ShaderSourceFile } from './shading/rsl-provider.ts';
export { kernelSpaces } from './shading/spaces.ts';
export type { KernelSpaces } from './shading/spaces.ts';
