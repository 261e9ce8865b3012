// What the page says about WebGPU: the adapter and its limits, or why there is none.
import { adapterLabel, type GpuContext, limitEntries } from '../index.ts';

export function adapterName(context: GpuContext): string {
  return adapterLabel(context.adapter) || 'unnamed adapter';
}

/** Fills `table` with the device's limits, one row each. */
export function showLimits(table: HTMLTableElement, limits: GPUSupportedLimits): void {
  table.replaceChildren();
  for (const [name, value] of limitEntries(limits)) {
    const row = table.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = String(value);
  }
  table.hidden = false;
}
