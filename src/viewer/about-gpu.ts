// The "About GPU" panel: the adapter and its limits, or why there is no WebGPU and what to do, and
// the self-test that runs the renderer's radix sort on the page's device.
import type { GpuRuntime } from '../index.ts';
import { element, setStatus } from './dom.ts';
import { adapterName, showLimits } from './gpu-report.ts';
import { runSortSelfTest } from './sort-self-test.ts';

export const NO_WEBGPU_ADVICE =
  'Use a browser with WebGPU (Chrome or Edge 113+, Safari 26+, Firefox 141+ on Windows), or start Chromium with --enable-unsafe-webgpu; on a machine without a GPU add --use-webgpu-adapter=swiftshader.';

export function reportGpu(gpu: GpuRuntime): void {
  setStatus(element('gpu-status'), 'ready', `WebGPU is available: ${adapterName(gpu.context)}`);
  showLimits(element<HTMLTableElement>('gpu-limits'), gpu.context.limits);
}

export function reportNoGpu(error: Error): void {
  setStatus(element('gpu-status'), 'error', `WebGPU is not available: ${error.message}`);
  const advice = element('gpu-advice');
  advice.textContent = NO_WEBGPU_ADVICE;
  advice.hidden = false;
}

/** Enables the self-test button; it always runs on the session's current device. */
export function enableSelfTest(current: () => Promise<GpuRuntime>): void {
  const button = element<HTMLButtonElement>('run-sort');
  const result = element('sort-result');
  button.disabled = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    setStatus(result, 'running', 'Sorting…');
    try {
      const outcome = await runSortSelfTest(await current());
      setStatus(result, outcome.passed ? 'passed' : 'failed', outcome.detail);
    } catch (error) {
      setStatus(result, 'error', `The self-test failed: ${(error as Error).message}`);
    } finally {
      button.disabled = false;
    }
  });
}
