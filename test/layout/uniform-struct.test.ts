// A uniform struct defined once: WGSL reads each field where the TypeScript packing put it (Dawn),
// and the offsets follow WGSL's alignment rules.
import { describe, expect, it } from 'vitest';
import { SAMPLE_PARAMS } from '../../src/layout/sample-params.ts';
import { SPLIT_PARAMS } from '../../src/layout/split-params.ts';
import { packUniform, uniformStruct } from '../../src/layout/uniform-struct.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';

const gpu = useGpuRuntime();

describe('uniform structs', () => {
  it('aligns a matrix and a vec4f array to 16 bytes and pads the struct to 16', () => {
    const s = uniformStruct('S', [{ name: 'a', type: 'u32' }, { name: 'm', type: 'mat4x4f' }, { name: 'f', type: 'f32' }, { name: 'v', type: { vec4fArray: 2 } }, { name: 'g', type: 'i32' }]);
    expect(s.fields.map((f) => [f.name, f.offset])).toEqual([['a', 0], ['m', 4], ['f', 20], ['v', 24], ['g', 32]]);
    expect(s.words).toBe(36);
    expect(s.wgsl).toBe('struct S {\n  a: u32,\n  m: mat4x4f,\n  f: f32,\n  v: array<vec4f, 2>,\n  g: i32,\n}');
  });

  it('SplitParams keeps the word offsets bound/split wrote by hand before (region 4, near 8, matrix 12, clipCount 28, planes 32), the region cuts after', () => {
    const at = (name: string) => SPLIT_PARAMS.fields.find((f) => f.name === name)!.offset;
    expect([at('region'), at('near'), at('eyeSplit'), at('cameraToRaster'), at('clipCount'), at('focalDistance'), at('clipPlanes'), at('cuts')]).toEqual([4, 8, 10, 12, 28, 31, 32, 96]);
    expect(SPLIT_PARAMS.words).toBe(32 + 4 * 16 + 4);
  });

  it('refuses an unknown field and a vector for a scalar', () => {
    expect(() => packUniform(SAMPLE_PARAMS, { nope: 1 })).toThrow(/SampleParams has no field nope/);
    expect(() => packUniform(SAMPLE_PARAMS, { near: [1, 2] })).toThrow(/SampleParams.near takes 1 floats, not 2/);
  });

  it('SampleParams: the kernel reads every kind of field where packUniform wrote it', async () => {
    const runtime = gpu();
    const code = `${SAMPLE_PARAMS.wgsl}
@group(0) @binding(0) var<uniform> params: SampleParams;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1) fn main() {
  out[0] = f32(params.gridCount);
  out[1] = f32(params.originX);
  out[2] = f32(params.height);
  out[3] = params.far;
  out[4] = f32(params.clipCount);
  out[5] = params.cameraToRaster[3].y;
  out[6] = params.clipPlanes[2].z;
  out[7] = params.clipPlanes[15].w;
  out[8] = params.lensRadius;
  out[9] = params.focalDistance;
}`;
    const cameraToRaster = Array.from({ length: 16 }, (_, k) => k + 0.5);
    const clipPlanes = Array.from({ length: 64 }, (_, k) => -k);
    const words = packUniform(SAMPLE_PARAMS, {
      gridCount: 7, originX: -3, height: 480, far: 1000, clipCount: 16, cameraToRaster, clipPlanes, lensRadius: 0.25, focalDistance: 5,
    });
    const pipeline = await runtime.kernels.pipeline({ label: 'sample params', code, entryPoint: 'main' });
    const out = runtime.allocator.createBuffer({ label: 'fields', size: 40, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    try {
      const recorder = runtime.recorder('sample params');
      recorder.dispatch(pipeline, { 0: recorder.params('sample', words), 1: out }, 1);
      await recorder.submit();
      const got = new Float32Array((await runtime.readU32(out, 10)).buffer);
      expect(Array.from(got)).toEqual([7, -3, 480, 1000, 16, 13.5, -10, -63, 0.25, 5]);
    } finally {
      runtime.allocator.release(out);
    }
  });
});
