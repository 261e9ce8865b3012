// `reyes gpu-info`: what the renderer would run on.
import { adapterLabel, formatBytes, type GpuContext, GpuUnavailableError, limitEntries } from '../index.ts';
import { acquireNodeGpu } from '../node.ts';

const BYTE_LIMITS = new Set(['maxBufferSize', 'maxStorageBufferBindingSize', 'maxUniformBufferBindingSize', 'maxComputeWorkgroupStorageSize']);

export function describeGpu(context: GpuContext): string {
  const { adapter } = context;
  const lines = [
    `adapter:  ${adapterLabel(adapter) || '(no description)'}`,
    `device:   ${adapter.device || '(none reported)'}`,
    `runtime:  ${adapter.runtime}`,
    'limits:',
  ];
  for (const [name, value] of limitEntries(context.limits)) {
    lines.push(`  ${name.padEnd(46)} ${value}${BYTE_LIMITS.has(name) ? ` (${formatBytes(value)})` : ''}`);
  }
  lines.push(`features: ${context.features.length ? context.features.join(', ') : '(none)'}`);
  return lines.join('\n');
}

export async function gpuInfo(): Promise<number> {
  let context: GpuContext;
  try {
    context = await acquireNodeGpu();
  } catch (error) {
    if (error instanceof GpuUnavailableError) {
      console.error(`reyes: no WebGPU adapter: ${error.message}`);
      return 2;
    }
    throw error;
  }
  console.log(describeGpu(context));
  context.destroy();
  return 0;
}
