// The selected object's material: its colour and opacity (attributes), its surface shader's
// parameters from the compiler's layout, and how many passes its kernel ran in the last render (the
// compiler splits a kernel too big for the resource model, src/rsl/partition). Edits change only
// that primitive.
import type { CompiledPipeline, Frame, PartitionAlgorithm, ShaderDiagnostic as RslDiagnostic, ShadingKernel } from '../index.ts';
import { h } from './dom.ts';
import { colorControl, paramControl } from './param-controls.ts';
import { currentValue, type SceneEdits } from './scene-edits.ts';

export function buildMaterialPanel(
  container: HTMLElement, frame: Frame, index: number | undefined, edits: SceneEdits, maxVertices: number, changed: () => void,
  reportErrors: (d: RslDiagnostic[]) => void, editShader: (name: string) => void,
): void {
  container.replaceChildren();
  const primitive = index === undefined ? undefined : frame.primitives[index];
  if (index === undefined || !primitive) {
    container.append(h('p', { class: 'note' }, 'Click an object in the picture to edit its material.'));
    container.dataset.selected = '';
    return;
  }
  container.dataset.selected = String(index);
  const { attributes, source } = primitive;
  const surfaceName = attributes.surface?.name ?? 'defaultsurface';
  container.append(h('p', {}, h('strong', {}, primitive.geometry.type), ` #${index} at ${source.file}:${source.line}:${source.column}, surface `, h('code', {}, surfaceName)));
  container.append(h('p', { class: 'note', 'data-kernel': '' }));
  showKernelPasses(container, frame, edits);
  container.append(colorControl('Color', attributes.color, (rgb) => {
    edits.setColor(index, rgb);
    changed();
  }, { 'data-material': 'color' }));
  const opacity = h('input', { type: 'range', min: '0', max: '1', step: '0.01', value: String(attributes.opacity[0] ?? 1), 'data-material': 'opacity', 'aria-label': 'Opacity' });
  opacity.addEventListener('input', () => {
    edits.setOpacity(index, Number(opacity.value));
    changed();
  });
  container.append(h('label', { class: 'param' }, h('span', {}, 'Opacity'), opacity));
  if (!attributes.surface || surfaceName === 'defaultsurface') {
    container.append(h('p', { class: 'note' }, 'The default surface has no shader parameters.'));
    return;
  }
  if (edits.source(surfaceName)) {
    const edit = h('button', { type: 'button', 'data-action': 'edit-shader' }, 'Edit shader source');
    edit.addEventListener('click', () => editShader(surfaceName));
    container.append(edit);
  }
  const layout = edits.parameters('surface', surfaceName, maxVertices, attributes.surface.source ?? source);
  if ('notFound' in layout) {
    reportErrors([layout.notFound]);
    container.append(h('p', { class: 'note', 'data-problem': 'not found' }, `Surface shader "${surfaceName}" not found: open its .sl file together with the scene.`));
    return;
  }
  if ('errors' in layout) {
    reportErrors(layout.errors);
    container.append(h('p', { class: 'note', 'data-problem': 'does not compile' }, 'The surface shader does not compile; see Messages.'));
    return;
  }
  for (const entry of layout.entries) {
    container.append(paramControl(entry, currentValue(attributes.surface.params, entry), (_name, value) => {
      edits.setSurfaceParam(index, entry, value);
      changed();
    }));
  }
}

const ALGORITHM_NAMES: Record<PartitionAlgorithm, string> = { rds: 'RDS', rds_h: 'RDS_h', mrds: 'MRDS', dp: 'DP', auto: 'auto' };

/** The kernel line: "kernel: 1 pass", or "kernel: 3 passes (split: RDS_h, …)" where the compiler split
 * the pipeline; `kernel` is the one the last render shaded the primitive with, `compiled` its
 * compiled pipeline (none for the built-in default and constant surfaces). */
export function kernelPassesText(kernel: ShadingKernel | undefined, compiled: CompiledPipeline | undefined): string {
  if (!kernel) return 'kernel: not rendered yet';
  const multipass = compiled?.multipass;
  if (!multipass) return `kernel: 1 pass${compiled ? '' : ` (${kernel.label})`}`;
  return `kernel: ${multipass.passes.length} passes (split: ${ALGORITHM_NAMES[multipass.algorithm]}, ${multipass.intermediateFloats} floats a vertex saved between them, predicted cost ${multipass.cost.toFixed(0)})`;
}

/** Fills in the kernel line of the panel's selected primitive (after each render: the kernel is the
 * one that render used). */
export function showKernelPasses(container: HTMLElement, frame: Frame, edits: SceneEdits): void {
  const line = container.querySelector<HTMLElement>('[data-kernel]');
  const attributes = frame.primitives[Number(container.dataset.selected)]?.attributes;
  if (!line || !attributes) return;
  const kernel = edits.provider.kernelFor(attributes);
  const text = kernelPassesText(kernel, kernel && edits.provider.compiled(kernel.key));
  line.textContent = text;
  line.dataset.kernel = text.startsWith('kernel: 1 pass') ? '1' : (/^kernel: (\d+) passes/.exec(text)?.[1] ?? '');
}
