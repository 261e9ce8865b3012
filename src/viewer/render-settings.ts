// Render settings the page can override: resolution (as a multiple of the scene's Format), pixel
// samples, shading rate (as a multiple of the scene's), pixel filter, memory budget, scheduler versus
// bucket mode, and progressive rendering (a fast pass before each full one). "Scene" keeps the RIB's.
import { PIXEL_FILTERS } from '../index.ts';
import { h } from './dom.ts';

export interface RenderSettings {
  /** Format × this, the same view. */
  resolutionScale: number;
  samples: number | null;
  shadingRateScale: number;
  filter: { name: string; width: number } | null;
  budgetMiB: number | null;
  bucketSize: number | null;
  /** Each full render is preceded by a fast pass (low resolution, one sample), shown as it finishes. */
  progressive: boolean;
}

export const DEFAULT_SETTINGS: RenderSettings = {
  resolutionScale: 1, samples: null, shadingRateScale: 1, filter: null, budgetMiB: null, bucketSize: null, progressive: false,
};

function select(name: string, options: [string, string][], value: string): HTMLSelectElement {
  const s = h('select', { name, 'data-setting': name });
  s.append(...options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
  return s;
}

export function buildSettingsPanel(form: HTMLFormElement, settings: RenderSettings, changed: () => void): void {
  const resolution = select('resolution', [0.25, 0.5, 1, 2].map((n): [string, string] => [String(n), n === 1 ? 'Scene' : `${n} × scene`]), String(settings.resolutionScale));
  const progressive = h('input', { type: 'checkbox', name: 'progressive', 'data-setting': 'progressive', checked: settings.progressive, 'aria-label': 'Progressive: a fast pass first' });
  const samples = select('samples', [['', 'Scene'], ...[1, 2, 3, 4, 6, 8].map((n): [string, string] => [String(n), `${n} × ${n}`])], settings.samples === null ? '' : String(settings.samples));
  const rate = select('shading-rate', [0.25, 0.5, 1, 2, 4, 8].map((n): [string, string] => [String(n), `${n} × scene`]), String(settings.shadingRateScale));
  const filter = select('filter', [['', 'Scene'], ...PIXEL_FILTERS.map((f): [string, string] => [f, f])], settings.filter?.name ?? '');
  const width = h('input', { type: 'number', name: 'filter-width', min: '1', max: '8', step: '0.5', value: String(settings.filter?.width ?? 2), 'aria-label': 'Filter width' });
  const budget = h('input', { type: 'number', name: 'budget', min: '1', step: '1', placeholder: 'default', value: settings.budgetMiB === null ? '' : String(settings.budgetMiB), 'aria-label': 'Memory budget in MiB', 'data-setting': 'budget' });
  const mode = select('mode', [['', 'Schedulers'], ['16', 'Buckets 16 × 16'], ['32', 'Buckets 32 × 32'], ['64', 'Buckets 64 × 64']], settings.bucketSize === null ? '' : String(settings.bucketSize));
  const row = (label: string, ...controls: HTMLElement[]): HTMLElement => h('label', { class: 'param' }, h('span', {}, label), ...controls);
  form.replaceChildren(
    row('Resolution', resolution), row('Progressive', progressive, h('span', { class: 'note' }, 'fast pass first')),
    row('Pixel samples', samples), row('Shading rate', rate), row('Pixel filter', filter, width),
    row('Memory budget (MiB)', budget), row('Mode', mode),
    h('p', { class: 'note', 'data-note': 'preview' }, 'Previews while the camera moves, and progressive fast passes, render without motion blur and depth of field; the full-quality picture has them.'),
  );
  form.addEventListener('change', () => {
    settings.resolutionScale = Number(resolution.value);
    settings.progressive = progressive.checked;
    settings.samples = samples.value ? Number(samples.value) : null;
    settings.shadingRateScale = Number(rate.value);
    settings.filter = filter.value ? { name: filter.value, width: Math.max(1, Number(width.value) || 2) } : null;
    const mib = Number(budget.value);
    settings.budgetMiB = budget.value && mib > 0 ? mib : null;
    settings.bucketSize = mode.value ? Number(mode.value) : null;
    changed();
  });
}
