// What bound/split reads of a frame, made directly for tests of that stage: the camera, the
// converted records on the GPU, the grid size.
import type { GpuRuntime } from '../../src/gpu/runtime.ts';
import { gridLayout } from '../../src/layout/grid-layout.ts';
import { frameCamera } from '../../src/reyes/camera.ts';
import { convertFrame } from '../../src/reyes/convert/convert-frame.ts';
import type { FrameGpu } from '../../src/reyes/frame-gpu.ts';
import type { PrimitiveRecords } from '../../src/reyes/primitive-record.ts';
import { builtinShadingProvider } from '../../src/reyes/shading/builtin-surfaces.ts';
import { kernelSpaces } from '../../src/reyes/shading/spaces.ts';
import { emptyStats } from '../../src/reyes/stats.ts';
import type { Frame } from '../../src/rib/scene.ts';
import { storageUsage } from '../gpu/gpu-fixture.ts';

export function boundSplitFrame(runtime: GpuRuntime, frame: Frame, maxVertices: number): { frame: FrameGpu; records: PrimitiveRecords } {
  const camera = frameCamera(frame);
  const spaces = kernelSpaces(camera);
  const layout = gridLayout(maxVertices);
  const { records, motion } = convertFrame(frame, camera, spaces, layout, builtinShadingProvider, () => {});
  const prims = runtime.allocator.createBufferWithData('prims', records.floats(), storageUsage());
  const userCorners = runtime.allocator.createBufferWithData('auxiliary values', records.userFloatsData(), storageUsage());
  const gpuFrame = { gpu: runtime, camera, spaces, layout, prims, userCorners, primCount: records.count, motion, shapeKinds: records.kinds, apron: 1, stats: emptyStats(), profile: false } as unknown as FrameGpu;
  return { frame: gpuFrame, records };
}
