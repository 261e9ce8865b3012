// The WGSL constants a kernel gets from `// @layout NAME` hold the TypeScript layouts' values: a tiny
// kernel on Dawn writes every generated constant into a buffer and the test reads them back.
import { describe, expect, it } from 'vitest';
import { GRID_INFO } from '../../src/layout/grid-layout.ts';
import { CONSTANT_LAYOUTS, layoutDeclarations } from '../../src/layout/kernel-sources.ts';
import { BicubicBit, PrimitiveFlag, PrimitiveKind, RECORD } from '../../src/layout/primitive-record.ts';
import { MOTION_BLOCK, MOTION_KEY } from '../../src/layout/motion-block.ts';
import { PIECE, SPLITS } from '../../src/layout/ready-piece.ts';
import { SAMPLE_KEY, SAMPLE_PAYLOAD } from '../../src/layout/sample-point.ts';
import { SEAM_TABLE } from '../../src/layout/seam-table.ts';
import { constantName } from '../../src/layout/wgsl-constants.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';

const gpu = useGpuRuntime();

async function constantsOnGpu(layout: string): Promise<Map<string, number>> {
  const names = CONSTANT_LAYOUTS[layout]!.flatMap((group) => Object.keys(group.values).map((key) => constantName(group, key)));
  const code = `${layoutDeclarations(layout)}
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
${names.map((name, i) => `  out[${i}] = ${name};`).join('\n')}
}`;
  const runtime = gpu();
  const pipeline = await runtime.kernels.pipeline({ label: `layout ${layout}`, code, entryPoint: 'main' });
  const out = runtime.allocator.createBuffer({ label: 'layout constants', size: names.length * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  try {
    const recorder = runtime.recorder(`layout ${layout}`);
    recorder.dispatch(pipeline, { 0: out }, 1);
    await recorder.submit();
    const words = await runtime.readU32(out, names.length);
    return new Map(names.map((name, i) => [name, words[i]!]));
  } finally {
    runtime.allocator.release(out);
  }
}

describe('layout constants on the GPU', () => {
  it('primitive record: offsets, kinds, flags and bicubic bits', async () => {
    const got = await constantsOnGpu('primitive-record');
    expect(got.get('REC_FLOATS')).toBe(RECORD.floats);
    expect(got.get('REC_PARAM_BASE')).toBe(RECORD.paramBase);
    expect(got.get('REC_DISPLACEMENT_BOUND')).toBe(RECORD.displacementBound);
    expect(got.get('REC_BICUBIC_MASK')).toBe(RECORD.bicubicMask);
    expect(got.get('REC_CS')).toBe(RECORD.Cs);
    expect(got.get('REC_LOD')).toBe(RECORD.lod);
    expect(got.get('KIND_TORUS')).toBe(PrimitiveKind.torus);
    expect(got.get('FLAG_BICUBIC_VERTEX')).toBe(PrimitiveFlag.bicubicVertex);
    expect(got.get('FLAG_HAS_NORMALS')).toBe(PrimitiveFlag.hasNormals);
    expect(got.get('BICUBIC_OS')).toBe(BicubicBit.Os);
    for (const [key, value] of Object.entries(RECORD)) expect(got.get(constantName({ prefix: 'REC_', values: RECORD }, key)), key).toBe(value);
  });

  it('ready piece and its splits word', async () => {
    const got = await constantsOnGpu('ready-piece');
    expect(got.get('PIECE_WORDS')).toBe(PIECE.words);
    expect(got.get('PIECE_NU')).toBe(PIECE.nu);
    expect(got.get('PIECE_NV')).toBe(PIECE.nv);
    expect(got.get('PIECE_V1')).toBe(PIECE.v1);
    expect(got.get('DEPTH_MASK')).toBe(SPLITS.depthMask);
    expect(got.get('EYE_SPLIT')).toBe(SPLITS.eyeSplit);
  });

  it('sample point, seam table and motion block', async () => {
    const sample = await constantsOnGpu('sample-point');
    expect(sample.get('SAMPLE_KEY_SUBPIXEL')).toBe(SAMPLE_KEY.subpixel);
    expect(sample.get('SAMPLE_PAYLOAD_OPACITY')).toBe(SAMPLE_PAYLOAD.opacity);
    expect(sample.get('SAMPLE_PAYLOAD_VEC4S')).toBe(SAMPLE_PAYLOAD.vec4s);
    const seams = await constantsOnGpu('seam-table');
    expect(seams.get('SEAM_EDGES')).toBe(SEAM_TABLE.edges);
    expect(seams.get('SEAM_ACROSS_RECORDS')).toBe(SEAM_TABLE.acrossRecords);
    const motion = await constantsOnGpu('motion-block');
    expect(motion.get('MOTION_BLOCK_KEYS')).toBe(MOTION_BLOCK.keys);
    expect(motion.get('MOTION_KEY_MATRIX')).toBe(MOTION_KEY.matrix);
    expect(motion.get('MOTION_KEY_FLOATS')).toBe(MOTION_KEY.floats);
  });

  it('every constant of every layout', async () => {
    for (const [layout, groups] of Object.entries(CONSTANT_LAYOUTS)) {
      const got = await constantsOnGpu(layout);
      for (const group of groups) {
        for (const [key, value] of Object.entries(group.values)) expect(got.get(constantName(group, key)), `${layout} ${key}`).toBe(value);
      }
    }
  });

  it('grid info', async () => {
    const got = await constantsOnGpu('grid-info');
    expect(got.get('GRID_INFO_WORDS')).toBe(GRID_INFO.words);
    expect(got.get('GRID_INFO_RECORD_BASE')).toBe(GRID_INFO.recordBase);
    expect(got.get('GRID_INFO_PARAM_BASE')).toBe(GRID_INFO.paramBase);
  });
});
