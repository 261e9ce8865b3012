// Which primitive covers a pixel. The renderer does not report it, so the page renders an ID pass:
// the same frame and camera through a provider whose kernel writes each primitive's index + 1 as
// its colour (opaque), one sample per pixel and a 1 × 1 box filter so no ids are blended.
import { renderFrame } from '../reyes/index.ts';
import type { RenderOptions, ShadingKernel, ShadingKernelProvider } from '../reyes/index.ts';
import type { GpuRuntime } from '../gpu/runtime.ts';
import type { Attributes, Frame } from '../rib/scene.ts';
import { FRAME_UNIFORMS_WGSL } from '../rsl/index.ts';
import type { GridLayout } from '../rsl/index.ts';

function idKernel(layout: GridLayout): ShadingKernel {
  const offset = (name: string): number => layout.variables.find((v) => v.name === name)!.offset;
  const code = `${FRAME_UNIFORMS_WGSL}
@group(0) @binding(0) var<storage, read_write> grids: array<f32>;
@group(0) @binding(1) var<storage, read> gridInfo: array<u32>;
@group(0) @binding(2) var<storage, read> params: array<f32>;
@group(0) @binding(3) var<uniform> frame: FrameUniforms;
const MAXV = ${layout.maxVertices}u;
@compute @workgroup_size(${layout.maxVertices})
fn main(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_index) k: u32) {
  let g = group.x + group.y * groups.x;
  if (g >= frame.gridCount) { return; }
  if (k >= gridInfo[g * 4u] * gridInfo[g * 4u + 1u]) { return; }
  let base = gridInfo[g * 4u + 2u];
  let id = params[gridInfo[g * 4u + 3u]];
  grids[base + ${offset('Ci')}u + k] = id;
  grids[base + ${offset('Ci')}u + MAXV + k] = 0.0;
  grids[base + ${offset('Ci')}u + 2u * MAXV + k] = 0.0;
  grids[base + ${offset('Oi')}u + k] = 1.0;
  grids[base + ${offset('Oi')}u + MAXV + k] = 1.0;
  grids[base + ${offset('Oi')}u + 2u * MAXV + k] = 1.0;
}`;
  return { key: `viewer-id:${layout.maxVertices}`, label: 'primitive ids', code, entryPoint: 'main', scratchBytesPerVertex: 0, opacityIsOs: false };
}

export interface IdImage {
  width: number;
  height: number;
  /** Primitive index per pixel, -1 where nothing. */
  ids: Int32Array;
}

export async function renderIdPass(gpu: GpuRuntime, frame: Frame, options: RenderOptions): Promise<IdImage> {
  const indexOf = new Map<Attributes, number>();
  frame.primitives.forEach((p, k) => indexOf.set(p.attributes, k));
  const provider: ShadingKernelProvider = ({ attributes, layout }) => {
    const params = new Float32Array(4);
    params[0] = (indexOf.get(attributes) ?? -1) + 1;
    return { kernel: idKernel(layout), params };
  };
  const idFrame: Frame = {
    ...frame,
    options: { ...frame.options, pixelFilter: { name: 'box', xWidth: 1, yWidth: 1 } },
    // Opacity would blend ids: every primitive is made opaque and non-matte for this pass.
    primitives: frame.primitives.map((p) => ({ ...p, attributes: { ...p.attributes, matte: false } })),
  };
  idFrame.primitives.forEach((p, k) => indexOf.set(p.attributes, k));
  const { image } = await renderFrame(gpu, idFrame, { ...options, samples: 1, shading: provider });
  const ids = new Int32Array(image.width * image.height);
  for (let i = 0; i < ids.length; i++) {
    const alpha = image.rgba[i * 4 + 3]!;
    ids[i] = alpha > 0.5 ? Math.round(image.rgba[i * 4]! / alpha) - 1 : -1;
  }
  return { width: image.width, height: image.height, ids };
}
