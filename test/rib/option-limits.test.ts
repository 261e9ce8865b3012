// Option "limits" values the renderer reads are checked where the RIB gives them: a gpumemory that
// is not a positive number of MiB, or an eyesplits that is not a whole number of at least 0, is one
// warning at the Option and is dropped (the renderer then uses its default), never a silent misuse.
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';

const world = 'WorldBegin\nSphere 1 -1 1 360\nWorldEnd\n';

describe('Option "limits"', () => {
  it('warns at the Option about a gpumemory or eyesplits out of range, and keeps the valid ones', () => {
    const scene = parseRibSync(`Option "limits" "gpumemory" [0]\nOption "limits" "eyesplits" [2.5] "gpumemory" [64]\n${world}`, { fileName: 'l.rib' });
    expect(scene.errors).toEqual([]);
    expect(scene.warnings.map((w) => `${w.file}:${w.line}:${w.column} ${w.request}: ${w.message}`)).toEqual([
      'l.rib:1:1 Option: Option "limits" "gpumemory" must be a positive number of MiB, not [0]; ignored',
      'l.rib:2:1 Option: Option "limits" "eyesplits" must be a whole number of splits, at least 0, not [2.5]; ignored',
    ]);
    const limits = scene.frames[0]!.options.user['limits']!;
    expect(limits.map((p) => [p.name, p.values])).toEqual([['gpumemory', [64]]]);
  });

  it('takes eyesplits 0 (cull at once) and a fractional gpumemory', () => {
    const scene = parseRibSync(`Option "limits" "eyesplits" [0] "gpumemory" [0.5]\n${world}`, { fileName: 'l.rib' });
    expect(scene.warnings).toEqual([]);
    expect(scene.frames[0]!.options.user['limits']!.map((p) => [p.name, p.values])).toEqual([['eyesplits', [0]], ['gpumemory', [0.5]]]);
  });
});
