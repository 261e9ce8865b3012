// Run by new-buffer-contents.test.ts in a child process (Dawn's options are fixed per process):
// prints, in hex, the first word of a new 1 MiB allocator buffer that nothing has written.
import { acquireNodeGpu } from '../../src/gpu/node-gpu.ts';
import { GpuRuntime } from '../../src/gpu/runtime.ts';

const runtime = new GpuRuntime(await acquireNodeGpu());
const fresh = runtime.allocator.createBuffer({ label: 'probe', size: 1 << 20, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
const [word] = await runtime.readU32(fresh, 1);
console.log(word!.toString(16).padStart(8, '0'));
runtime.context.destroy();
process.exit(0);
