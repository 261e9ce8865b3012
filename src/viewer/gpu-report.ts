// What the page says about WebGPU: the adapter and its limits, or why there is none.
import type { GpuContext } from '../gpu/device.ts';

export function adapterName(context: GpuContext): string {
  const { adapter } = context;
  return [adapter.vendor, adapter.architecture, adapter.description].filter(Boolean).join(' / ') || 'unnamed adapter';
}

/** Fills `table` with the device's limits, one row each. */
export function showLimits(table: HTMLTableElement, limits: GPUSupportedLimits): void {
  table.replaceChildren();
  const values = limits as unknown as Record<string, number>;
  const names: string[] = [];
  for (const name in values) if (typeof values[name] === 'number') names.push(name);
  for (const name of names.sort()) {
    const row = table.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = String(values[name]);
  }
  table.hidden = false;
}
