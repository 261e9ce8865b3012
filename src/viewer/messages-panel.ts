// The list of errors and warnings: RIB diagnostics and RSL compiler diagnostics with file, line and
// column; renderer warnings and failures with the scene's name.
import { h } from './dom.ts';

export interface Message {
  severity: 'error' | 'warning';
  file: string;
  line?: number;
  column?: number;
  text: string;
  /** 'rib', 'rsl', 'render' or 'gpu'. */
  source: string;
}

export function showMessages(list: HTMLElement, messages: readonly Message[]): void {
  list.replaceChildren(...messages.map((m) => {
    const where = m.line !== undefined ? `${m.file}:${m.line}:${m.column ?? 1}` : m.file;
    return h('li', { 'data-severity': m.severity, 'data-source': m.source },
      h('code', { class: 'where' }, where), ` ${m.severity}: ${m.text}`);
  }));
  list.dataset.count = String(messages.length);
  list.closest('details')?.toggleAttribute('open', messages.some((m) => m.severity === 'error') || list.closest('details')!.hasAttribute('open'));
}
