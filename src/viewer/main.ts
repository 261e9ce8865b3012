// The page: acquires the WebGPU device, reports it (About GPU), and opens a scene in the viewer.
import { GpuUnavailableError } from '../index.ts';
import { enableSelfTest, reportGpu, reportNoGpu } from './about-gpu.ts';
import { element, setStatus } from './dom.ts';
import { attachFarmPanel } from './farm-panel.ts';
import { attachScenePicker, initialScene, openUrl } from './scene-picker.ts';
import { ViewerApp } from './viewer-app.ts';

declare global {
  interface Window {
    reyesViewer?: ViewerApp['probe'];
  }
}

async function start(): Promise<void> {
  const app = new ViewerApp();
  window.reyesViewer = app.probe;
  // The farm needs no GPU.
  attachFarmPanel();
  try {
    reportGpu(await app.session.get());
  } catch (error) {
    reportNoGpu(error as Error);
    const what = error instanceof GpuUnavailableError ? 'This browser offers no WebGPU' : 'The GPU could not be started';
    setStatus(element('render-status'), 'error', `${what}: ${(error as Error).message}. See About GPU.`);
    document.body.dataset.renderState = 'error';
    element('viewport').dataset.renderState = 'error';
    element('about').setAttribute('open', '');
    return;
  }
  enableSelfTest(() => app.session.get());
  attachScenePicker(app);
  const first = initialScene();
  if (first) await openUrl(app, first);
}

void start();
