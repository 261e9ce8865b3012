// Diagnostics: every problem found in a RIB stream is recorded here with its position and the
// request it belongs to, so a bad scene yields a list of messages rather than an exception.

export type Severity = 'error' | 'warning';

/** Where something is in a RIB file: 1-based line and column (columns count bytes). */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

export interface Diagnostic extends SourcePosition {
  severity: Severity;
  /** The request the message is about, when there is one (e.g. "Sphere"). */
  request: string | null;
  message: string;
}

/** "scene.rib:12:5: error: Sphere: expected 4 numbers" */
export function formatDiagnostic(d: Diagnostic): string {
  const where = `${d.file}:${d.line}:${d.column}`;
  const what = d.request ? `${d.request}: ${d.message}` : d.message;
  return `${where}: ${d.severity}: ${what}`;
}

/**
 * Collects diagnostics. A cap keeps a hostile or badly broken file (millions of bad tokens)
 * from growing the list without bound; the count of dropped messages is kept.
 */
export class DiagnosticSink {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  dropped = 0;

  constructor(private readonly limit = 1000) {}

  error(pos: SourcePosition, request: string | null, message: string): void {
    this.add('error', pos, request, message);
  }

  warning(pos: SourcePosition, request: string | null, message: string): void {
    this.add('warning', pos, request, message);
  }

  private add(severity: Severity, pos: SourcePosition, request: string | null, message: string): void {
    const list = severity === 'error' ? this.errors : this.warnings;
    if (list.length >= this.limit) {
      this.dropped++;
      return;
    }
    list.push({ severity, file: pos.file, line: pos.line, column: pos.column, request, message });
  }
}
