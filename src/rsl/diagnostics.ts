// Source positions and compiler diagnostics. Every phase reports into a Diagnostics list instead of
// throwing, so one run shows several errors and bad input never crashes the compiler.

export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export interface Diagnostic extends SourcePos {
  severity: 'error' | 'warning';
  message: string;
}

export class Diagnostics {
  readonly list: Diagnostic[] = [];

  error(pos: SourcePos, message: string): void {
    this.list.push({ file: pos.file, line: pos.line, column: pos.column, severity: 'error', message });
  }

  warning(pos: SourcePos, message: string): void {
    this.list.push({ file: pos.file, line: pos.line, column: pos.column, severity: 'warning', message });
  }

  get errors(): Diagnostic[] {
    return this.list.filter((d) => d.severity === 'error');
  }

  get hasErrors(): boolean {
    return this.list.some((d) => d.severity === 'error');
  }
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

/** Thrown by the public entry points when a shader does not compile; carries every diagnostic. */
export class RslCompileError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('\n'));
    this.name = 'RslCompileError';
  }
}
