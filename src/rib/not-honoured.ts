// Requests the front end reads and records but the renderer does not act on yet. Each kind is
// reported once per scene, at its first use, saying what renders instead, so that nothing a scene
// asks for is dropped without a word. Remove a kind here when the renderer starts honouring it.

import type { DiagnosticSink, SourcePosition } from './diagnostics.ts';

const ONCE = '(reported once per scene)';

export const NOT_HONOURED = {
  Interior: 'Interior volume shaders are parsed but not honoured yet: they act on traced rays, which this renderer does not trace; surfaces render without them',
  Exterior: 'Exterior volume shaders are parsed but not honoured yet: they act on traced rays, which this renderer does not trace; surfaces render without them',
  Deformation: 'Deformation shaders are parsed but not honoured yet: primitives render undeformed',
} as const;

export type NotHonouredKind = keyof typeof NOT_HONOURED;

export class NotHonouredReporter {
  private readonly reported = new Set<NotHonouredKind>();

  constructor(private readonly diagnostics: DiagnosticSink) {}

  note(kind: NotHonouredKind, pos: SourcePosition): void {
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.diagnostics.warning(pos, kind, `${NOT_HONOURED[kind]} ${ONCE}`);
  }
}
