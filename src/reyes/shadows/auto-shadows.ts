// "auto" shadow maps: before a frame renders, each light parameter set to "auto" (shadow-light.ts)
// gets a depth pass of the same pipeline from its shadow camera: the frame's primitives at the map's
// size, one sample per pixel, every surface shaded by the built-in constant kernel (shaders and
// displacement are not run), the nearest depth per pixel as a "zfile" Display keeps it. The depths
// and the camera (as a depth map records it) become a shadow map put straight into the shading
// provider's texture registry under the light's and parameter's own name; no file is written. A
// map is made again only when its view, size or the frame's primitives changed (the registry keeps
// each map's signature), so a camera move or a light's colour edit renders no depth pass.
import type { Frame } from '../../rib/scene.ts';
import { defaultCamera } from '../../rib/defaults.ts';
import { worldBound } from '../../rib/object-bound.ts';
import { depthCamera, depthShadowMap } from '../../texture/shadow-map.ts';
import { defaultProvider } from '../frame/default-provider.ts';
import type { RenderedFrame, RenderOptions } from '../frame/render-options.ts';
import { builtinSurfaceKernel } from '../shading/builtin-surfaces.ts';
import type { ShadingKernelProvider } from '../shading/shading-kernel.ts';
import type { ShadowPassStats } from '../stats.ts';
import { autoParameters, autoShadowName, DEFAULT_SHADOW_MAP_SIZE, shadowLightKind, shadowView, unshadowedReason, type ShadowView } from './shadow-light.ts';

/** Renders a frame (the renderer's own path from scratch). */
export type RenderDepth = (frame: Frame, options: RenderOptions) => Promise<RenderedFrame>;

const NO_PARAMS = new Float32Array(0);

/** Every surface as the constant kernel: a depth pass needs positions only. */
const depthOnly: ShadingKernelProvider = (request) => ({ kernel: builtinSurfaceKernel('constant', request.layout), params: NO_PARAMS });

/** A version per distinct primitives array (the page keeps the array across camera and light edits). */
const geometryVersions = new WeakMap<object, number>();
let nextVersion = 0;

/**
 * Makes (or keeps) every "auto" shadow map the lights of `frame` ask for, in the
 * registry of `options.shading` (the default provider's without one). Warnings (positioned at the
 * LightSource) go to `warn`; returns each light's pass.
 */
export async function renderAutoShadows(frame: Frame, options: RenderOptions, render: RenderDepth, warn: (message: string) => void): Promise<ShadowPassStats[]> {
  const lights = frame.lights.filter((light) => !light.area && autoParameters(light).length > 0);
  if (lights.length === 0) return [];
  const registry = (options.shading ?? defaultProvider().provide).shadowMaps;
  const passes: ShadowPassStats[] = [];
  let version = geometryVersions.get(frame.primitives);
  if (version === undefined) geometryVersions.set(frame.primitives, (version = nextVersion++));
  let bound: number[] | undefined | null = null;
  for (const light of lights) {
    const at = `${light.source.file}:${light.source.line}:${light.source.column}: `;
    const kind = shadowLightKind(light);
    for (const parameter of autoParameters(light)) {
      const unshadowed = unshadowedReason(light, parameter);
      if (!kind || unshadowed || !registry) {
        warn(`${at}${unshadowed ?? `light "${light.shader}" asks for an "auto" shadow map but the shading provider keeps no texture maps; it is unshadowed`}`);
        continue;
      }
      if (kind === 'distant' && bound === null) bound = worldBound(frame);
      const size = light.shadowMapSize ?? DEFAULT_SHADOW_MAP_SIZE;
      const view = shadowView(light, kind, parameter, bound ?? undefined);
      const name = autoShadowName(light, parameter);
      const signature = JSON.stringify([view, size, version]);
      const pass = { light: light.handle, parameter, size };
      if (registry.signature(name) === signature) {
        passes.push({ ...pass, ms: 0, reused: true });
        continue;
      }
      const started = performance.now();
      const rendered = await render(depthFrame(frame, view, size), {
        shading: depthOnly, gpuTimings: false,
        ...(options.budgetBytes !== undefined ? { budgetBytes: options.budgetBytes } : {}),
        ...(options.maxVertices !== undefined ? { maxVertices: options.maxVertices } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      for (const message of rendered.warnings) warn(`${at}shadow pass of light ${light.handle} "${parameter}": ${message}`);
      const { image, camera } = rendered;
      registry.put(name, depthShadowMap(image.width, image.height, image.depth, depthCamera(camera.worldToCamera, camera.cameraToNdc)), signature);
      passes.push({ ...pass, ms: performance.now() - started, reused: false });
    }
  }
  return passes;
}

/** `frame` seen from the shadow camera as a size × size depth map. */
function depthFrame(frame: Frame, view: ShadowView, size: number): Frame {
  return {
    ...frame,
    options: {
      ...frame.options, xResolution: size, yResolution: size, pixelAspectRatio: 1, frameAspectRatio: 1, screenWindow: view.screenWindow,
      cropWindow: [0, 1, 0, 1], pixelSamples: [1, 1], pixelVariance: null, pixelFilter: { name: 'box', xWidth: 1, yWidth: 1 },
      imager: null, displays: [], displayChannels: [],
    },
    camera: { ...defaultCamera(), projection: view.projection, fov: view.fov, worldToCamera: view.worldToCamera, shutter: frame.camera.shutter },
    textureRequests: [],
  };
}

/** A render's result with its shadow passes (stats.shadowPasses) and their warnings (first). */
export function withShadowPasses(rendered: RenderedFrame, passes: ShadowPassStats[], warnings: readonly string[]): RenderedFrame {
  if (passes.length > 0) rendered.stats.shadowPasses = passes;
  rendered.warnings.unshift(...warnings.filter((w) => !rendered.warnings.includes(w)));
  return rendered;
}

/** Renders the "auto" shadow maps of `frame`, then the frame with `render`, reporting both. */
export async function withAutoShadows(frame: Frame, options: RenderOptions, depth: RenderDepth, render: () => Promise<RenderedFrame>): Promise<RenderedFrame> {
  const warnings: string[] = [];
  const passes = await renderAutoShadows(frame, options, depth, (message) => warnings.push(message));
  return withShadowPasses(await render(), passes, warnings);
}
