// The page: reports whether WebGPU is available and runs the GPU self-test on the page's device.
import { acquireGpu } from '../gpu/device.ts';
import { GpuRuntime } from '../gpu/runtime.ts';
import { adapterName, showLimits } from './gpu-report.ts';
import { runSortSelfTest } from './sort-self-test.ts';

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`index.html lacks #${id}`);
  return found as T;
}

function setStatus(target: HTMLElement, state: string, text: string): void {
  target.dataset.state = state;
  target.textContent = text;
}

async function start(): Promise<void> {
  const status = element<HTMLParagraphElement>('gpu-status');
  const button = element<HTMLButtonElement>('run-sort');
  const result = element<HTMLParagraphElement>('sort-result');
  let gpu: GpuRuntime;
  try {
    const context = await acquireGpu();
    gpu = new GpuRuntime(context);
    setStatus(status, 'ready', `WebGPU is available: ${adapterName(context)}`);
    showLimits(element<HTMLTableElement>('gpu-limits'), context.limits);
    void context.lost.then((lost) => setStatus(status, 'error', `${lost.message} Reload the page to start again.`));
  } catch (error) {
    setStatus(status, 'error', `WebGPU is not available: ${(error as Error).message}`);
    return;
  }
  button.disabled = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    setStatus(result, 'running', 'Sorting…');
    try {
      const outcome = await runSortSelfTest(gpu);
      setStatus(result, outcome.passed ? 'passed' : 'failed', outcome.detail);
    } catch (error) {
      setStatus(result, 'error', `The self-test failed: ${(error as Error).message}`);
    } finally {
      button.disabled = false;
    }
  });
}

void start();
