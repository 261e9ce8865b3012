// A control per shader parameter, built from the compiler's parameter layout: floats get a slider
// and a number field, colours a colour picker, points and vectors three number fields, strings a
// text field. Arrays and matrices are listed but not editable here.
import type { ParamEntry } from '../index.ts';
import { h } from './dom.ts';
import type { ParamValue } from './scene-edits.ts';

export type ParamChange = (name: string, value: ParamValue) => void;

function hex(rgb: readonly number[]): string {
  return `#${rgb.slice(0, 3).map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, '0')).join('')}`;
}

function fromHex(text: string): number[] {
  return [1, 3, 5].map((k) => parseInt(text.slice(k, k + 2), 16) / 255);
}

function numberField(value: number, onInput: (n: number) => void, label: string): HTMLInputElement {
  const input = h('input', { type: 'number', step: 'any', value: String(value), 'aria-label': label });
  input.addEventListener('change', () => {
    const n = Number(input.value);
    if (Number.isFinite(n)) onInput(n);
  });
  return input;
}

/** Slider range: wide enough for the current value and some headroom. */
function sliderMax(value: number): number {
  return Math.max(1, Math.abs(value) * 4);
}

export function colorControl(label: string, value: readonly number[], onChange: (rgb: number[]) => void, attrs: Record<string, string> = {}): HTMLElement {
  const picker = h('input', { type: 'color', value: hex(value), 'aria-label': label, ...attrs });
  picker.addEventListener('input', () => onChange(fromHex(picker.value)));
  return h('label', { class: 'param' }, h('span', {}, label), picker);
}

export function paramControl(entry: ParamEntry, current: ParamValue, onChange: ParamChange): HTMLElement {
  const row = h('label', { class: 'param', 'data-param': entry.name, title: `${entry.type} ${entry.name}` }, h('span', {}, entry.name));
  if (entry.arrayLength !== undefined || entry.type === 'matrix') {
    row.append(h('output', {}, `${entry.type}${entry.arrayLength !== undefined ? `[${entry.arrayLength}]` : ''} (not editable)`));
    return row;
  }
  if (typeof current === 'string' || entry.type === 'string') {
    const text = h('input', { type: 'text', value: String(current), 'aria-label': entry.name });
    text.addEventListener('change', () => onChange(entry.name, text.value));
    row.append(text);
    return row;
  }
  if (entry.type === 'float') {
    const value = current[0] ?? 0;
    const slider = h('input', { type: 'range', min: String(Math.min(0, value)), max: String(sliderMax(value)), step: 'any', value: String(value), 'aria-label': `${entry.name} slider` });
    const field = numberField(value, (n) => {
      slider.max = String(Math.max(Number(slider.max), n));
      slider.value = String(n);
      onChange(entry.name, [n]);
    }, entry.name);
    slider.addEventListener('input', () => {
      // A slider's position is as exact as a pixel: four significant digits say it.
      const n = Number(Number(slider.value).toPrecision(4));
      field.value = String(n);
      onChange(entry.name, [n]);
    });
    row.append(slider, field);
    return row;
  }
  if (entry.type === 'color' && current.every((c) => c >= 0 && c <= 1)) {
    const picker = h('input', { type: 'color', value: hex(current), 'aria-label': entry.name });
    picker.addEventListener('input', () => onChange(entry.name, fromHex(picker.value)));
    row.append(picker);
    return row;
  }
  const values = [...current];
  ['x', 'y', 'z'].forEach((axis, k) => {
    row.append(numberField(values[k] ?? 0, (n) => {
      values[k] = n;
      onChange(entry.name, [...values]);
    }, `${entry.name} ${axis}`));
  });
  return row;
}
