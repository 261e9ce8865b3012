// The pass order. Merging runs first (it needs the loops as written), then the cleanups, then
// derivative relocation, which must see the final instruction positions.
import type { Diagnostics } from '../diagnostics.ts';
import type { IrModule } from '../ir.ts';
import { foldConstants } from './constant-fold.ts';
import { eliminateDeadCode } from './dead-code.ts';
import { forwardStores } from './forward-stores.ts';
import { mergeIlluminance } from './merge-illuminance.ts';
import { relocateDerivatives } from './relocate-derivatives.ts';

export interface PassReport {
  illuminanceMerged: number;
  forwarded: number;
  folded: number;
  removed: number;
  barrierPositions: number;
  derivatives: number;
}

export function runPasses(module: IrModule, diagnostics: Diagnostics, options: { mergeIlluminance: boolean }): PassReport {
  let forwarded = forwardStores(module);
  let folded = foldConstants(module);
  const illuminanceMerged = options.mergeIlluminance ? mergeIlluminance(module) : 0;
  // Fusing loops brings stores and loads together again.
  forwarded += forwardStores(module);
  folded += foldConstants(module);
  const removed = eliminateDeadCode(module);
  const relocation = relocateDerivatives(module, diagnostics);
  return { illuminanceMerged, forwarded, folded, removed, barrierPositions: relocation.barrierPositions, derivatives: relocation.derivatives };
}
