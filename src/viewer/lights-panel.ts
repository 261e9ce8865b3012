// Every light of the frame with its shader's parameters (from the compiler's layout) and an on/off
// switch. Edits go into the page's copy of the frame and ask for a re-render; nothing is re-parsed.
import type { Frame, ShaderDiagnostic as RslDiagnostic } from '../index.ts';
import { h } from './dom.ts';
import { paramControl } from './param-controls.ts';
import { currentValue, type SceneEdits } from './scene-edits.ts';

export function buildLightsPanel(container: HTMLElement, frame: Frame, edits: SceneEdits, maxVertices: number, changed: () => void, reportErrors: (d: RslDiagnostic[]) => void): void {
  container.replaceChildren();
  if (frame.lights.length === 0) container.append(h('p', { class: 'note' }, 'The scene has no lights.'));
  for (const light of frame.lights) {
    // Handles need not be unique (a RIB may reuse one): the label and data-light are the light's own
    // number, its place among the frame's lights; the RIB's handle is shown next to it.
    const number = light.id + 1;
    const toggle = h('input', { type: 'checkbox', checked: edits.lightEnabled(light.id), 'aria-label': `light ${number} on`, 'data-light-toggle': '' });
    toggle.addEventListener('change', () => {
      edits.setLightEnabled(light.id, toggle.checked);
      changed();
    });
    const box = h('fieldset', { class: 'light', 'data-light': String(light.id), 'data-handle': light.handle, 'data-shader': light.shader },
      h('legend', {}, toggle, ` ${light.shader} `, h('small', { title: `${light.source.file}:${light.source.line}` },
        `light ${number} (handle ${light.handle})${light.area ? ' (area light: not rendered)' : ''}`)));
    const layout = edits.parameters('light', light.shader, maxVertices, light.source);
    if ('notFound' in layout) {
      reportErrors([layout.notFound]);
      box.append(h('p', { class: 'note', 'data-problem': 'not found' }, `Shader "${light.shader}" not found: open its .sl file together with the scene.`));
    } else if ('errors' in layout) {
      reportErrors(layout.errors);
      box.append(h('p', { class: 'note', 'data-problem': 'does not compile' }, 'The shader does not compile; see Messages.'));
    } else {
      for (const entry of layout.entries) {
        box.append(paramControl(entry, currentValue(light.params, entry), (_name, value) => {
          edits.setLightParam(light, entry, value);
          changed();
        }));
      }
    }
    container.append(box);
  }
}
