// Live RSL editing: a shader's source in a CodeMirror 6 editor. Each change is checked by the
// compiler's front end after a short pause: errors and warnings are underlined at their positions
// (and listed in Messages); a source that checks clean is handed to the page, which recompiles only
// the kernels that use it and re-renders.
import { StreamLanguage } from '@codemirror/language';
import { clike } from '@codemirror/legacy-modes/mode/clike';
import { linter, lintGutter, type Diagnostic as EditorDiagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { checkSource, type ShaderDiagnostic as RslDiagnostic } from '../index.ts';
import { h } from './dom.ts';

const words = (text: string): Record<string, true> => Object.fromEntries(text.split(' ').map((w) => [w, true]));

/** RSL as a C-like language for highlighting (RI 3.2 §11-15). */
const RSL = StreamLanguage.define(clike({
  name: 'rsl',
  keywords: words('if else for while return break continue illuminance illuminate solar gather extern output uniform varying'),
  types: words('float color point vector normal matrix string void surface displacement light volume imager'),
  blockKeywords: words('if else for while illuminance illuminate solar gather'),
  builtin: words('Ci Oi Cs Os P N Ng I L Cl Ol E s t u v du dv dPdu dPdv ncomps time dtime alpha'),
  atoms: words('PI'),
}));

/** What the editor reports: the shader it holds, the diagnostics of each check, and each source that checks clean. */
export interface ShaderEditorEvents {
  checked(file: string, diagnostics: RslDiagnostic[]): void;
  clean(name: string, file: string, source: string): void;
}

/** Milliseconds of quiet typing before a check. */
const CHECK_DELAY_MS = 250;

export class ShaderEditor {
  private view: EditorView | undefined;
  private shader: { name: string; file: string } | undefined;

  constructor(private readonly container: HTMLElement, private readonly events: ShaderEditorEvents) {
    this.close();
  }

  /** Closes the shader being edited (another scene opened). */
  close(): void {
    this.view?.destroy();
    this.view = undefined;
    this.shader = undefined;
    this.container.replaceChildren(h('p', { class: 'note' }, 'Click an object, then "Edit shader source" in its material.'));
  }

  /** The file of the shader being edited, if any. */
  get file(): string | undefined {
    return this.shader?.file;
  }

  /** Opens `source` (the shader `name`, from `file`) for editing. */
  open(name: string, file: string, source: string): void {
    this.view?.destroy();
    this.shader = { name, file };
    const host = h('div', { class: 'shader-source', 'data-shader': name });
    this.container.replaceChildren(h('p', {}, 'Editing ', h('code', {}, name), ' from ', h('code', {}, file), '; the picture follows each change that compiles.'), host);
    this.view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: source,
        extensions: [basicSetup, RSL, lintGutter(), linter((view) => this.check(view), { delay: CHECK_DELAY_MS })],
      }),
    });
  }

  /** Puts the cursor at line:column of the shader being edited and scrolls there. */
  goTo(line: number, column: number): void {
    const view = this.view;
    if (!view) return;
    const at = Math.min(view.state.doc.line(Math.min(Math.max(1, line), view.state.doc.lines)).from + Math.max(0, column - 1), view.state.doc.length);
    view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    view.focus();
  }

  private check(view: EditorView): EditorDiagnostic[] {
    const shader = this.shader;
    if (!shader) return [];
    const source = view.state.doc.toString();
    const result = checkSource(source, shader.file);
    const mine = result.diagnostics.list.filter((d) => d.file === shader.file);
    this.events.checked(shader.file, result.diagnostics.list);
    if (!result.diagnostics.hasErrors && result.shaders.some((s) => s.shader.name === shader.name)) {
      this.events.clean(shader.name, shader.file, source);
    }
    if (!result.diagnostics.hasErrors && !result.shaders.some((s) => s.shader.name === shader.name)) {
      mine.push({ file: shader.file, line: 1, column: 1, severity: 'warning', message: `the file no longer declares a shader "${shader.name}", the name the scene uses; the picture keeps the last version that did` });
    }
    return mine.map((d) => {
      const line = view.state.doc.line(Math.min(Math.max(1, d.line), view.state.doc.lines));
      const from = Math.min(line.from + Math.max(0, d.column - 1), line.to);
      const word = view.state.wordAt(from);
      return { from, to: word && word.from === from ? word.to : Math.min(from + 1, line.to), severity: d.severity, message: d.message };
    });
  }
}
