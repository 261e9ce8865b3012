// The seeded fuzzing campaign of CI (scripts/fuzz-campaign.ts; `npm run fuzz -- --minutes N` runs
// longer ones): 5,000 RIB mutants of the scenes under scenes/ must parse to a report with
// positioned diagnostics, without throwing, within 2 s each; 2,000 RSL mutants of the standard
// and corpus shaders must compile or fail with positioned diagnostics, and Dawn must accept the
// WGSL of every one that compiles.
import { describe, expect, it } from 'vitest';
import { runCampaign, type Failure } from '../../scripts/fuzz-campaign.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';

const SEED = 20261123;
const gpu = useGpuRuntime();

function describeFailures(failures: Failure[]): string {
  return failures.slice(0, 5).map((f) => `${f.mutant.kind} #${f.mutant.index} (${f.mutant.origin}, seed ${SEED}): ${f.trace}`).join('\n\n');
}

describe('fuzzing campaign', () => {
  it('5,000 RIB mutants each parse to a report with positions, quickly, without throwing', async () => {
    const report = await runCampaign({ seed: SEED, rib: 5000, rsl: 0 });
    expect(report.rib).toBe(5000);
    expect(report.failures, describeFailures(report.failures)).toEqual([]);
  });

  it('2,000 RSL mutants compile to WGSL Dawn accepts, or fail with positioned diagnostics', async () => {
    const report = await runCampaign({ seed: SEED, rib: 0, rsl: 2000, device: gpu().device });
    expect(report.rsl).toBe(2000);
    expect(report.failures, describeFailures(report.failures)).toEqual([]);
    // Enough mutants reach the back end and Dawn for the check to mean something.
    expect(report.compiled).toBeGreaterThan(200);
  });
});
