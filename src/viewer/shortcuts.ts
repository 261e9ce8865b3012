// The page's keyboard shortcuts, and the help overlay (?) that lists them. Keys typed into a field
// belong to the field, except Esc.
import { h } from './dom.ts';

export interface ShortcutActions {
  save(): void;
  copy(): void;
  resetCamera(): void;
  frameSelected(): void;
  frameAll(): void;
  undo(): void;
  redo(): void;
  stop(): void;
  help(): void;
}

export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: 'Esc', does: 'Stop the render in flight' },
  { keys: 'F', does: 'Frame the selected object (everything in the picture when none is selected)' },
  { keys: 'A', does: 'Frame everything the picture shows' },
  { keys: 'Home', does: 'Reset the camera to the scene\'s' },
  { keys: 'Ctrl+S', does: 'Save the picture in the chosen format' },
  { keys: 'Ctrl+C', does: 'Copy the picture to the clipboard as PNG' },
  { keys: 'Ctrl+Z', does: 'Undo the last light or material edit' },
  { keys: 'Ctrl+Shift+Z / Ctrl+Y', does: 'Redo' },
  { keys: '?', does: 'Show or hide this list' },
  { keys: 'Drag · Shift-drag or right-drag · Wheel', does: 'Orbit · pan · zoom' },
  { keys: 'Alt+wheel', does: 'Picture size (fit, 1:1, 2:1, 4:1), toward the cursor' },
];

function typingInField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export function attachShortcuts(actions: ShortcutActions): void {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented) return;
    const key = event.key.toLowerCase();
    const ctrl = event.ctrlKey || event.metaKey;
    if (key === 'escape') return actions.stop();
    if (typingInField(event.target)) return;
    const run = (action: () => void): void => {
      event.preventDefault();
      action();
    };
    if (ctrl && key === 's') run(actions.save);
    // Ctrl+C copies the picture unless the user has selected text to copy.
    else if (ctrl && key === 'c' && !document.getSelection()?.toString()) run(actions.copy);
    else if (ctrl && key === 'z') run(event.shiftKey ? actions.redo : actions.undo);
    else if (ctrl && key === 'y') run(actions.redo);
    else if (!ctrl && event.key === 'Home') run(actions.resetCamera);
    else if (!ctrl && !event.altKey && key === 'f') run(actions.frameSelected);
    else if (!ctrl && !event.altKey && key === 'a') run(actions.frameAll);
    else if (!ctrl && event.key === '?') run(actions.help);
  });
}

/** The help overlay's list of shortcuts. */
export function fillHelp(dialog: HTMLDialogElement): void {
  dialog.replaceChildren(
    h('h2', {}, 'Keyboard shortcuts'),
    h('table', {}, ...SHORTCUTS.map((s) => h('tr', {}, h('th', {}, h('kbd', {}, s.keys)), h('td', {}, s.does)))),
    h('form', { method: 'dialog' }, h('button', { type: 'submit' }, 'Close')),
  );
}
