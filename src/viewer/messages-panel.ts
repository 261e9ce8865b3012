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

/** `editor`: messages about its file (the shader being edited) link to their line there. */
export function showMessages(list: HTMLElement, messages: readonly Message[], editor?: { file: string; show(message: Message): void }): void {
  list.replaceChildren(...messages.map((m) => {
    const where = m.line !== undefined ? `${m.file}:${m.line}:${m.column ?? 1}` : m.file;
    const position = h('code', { class: 'where' }, where);
    const item = h('li', { 'data-severity': m.severity, 'data-source': m.source }, position, ` ${m.severity}: ${m.text}`);
    if (editor && m.file === editor.file && m.line !== undefined) {
      position.setAttribute('role', 'link');
      position.tabIndex = 0;
      position.title = 'Show this line in the shader editor';
      position.addEventListener('click', () => editor.show(m));
    }
    return item;
  }));
  list.dataset.count = String(messages.length);
  list.closest('details')?.toggleAttribute('open', messages.some((m) => m.severity === 'error') || list.closest('details')!.hasAttribute('open'));
}
