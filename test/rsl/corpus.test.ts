// The snippet corpus: every snippet is compiled to WGSL, run on Dawn on a small grid, and compared
// with the reference interpreter (src/rsl/interpreter) run on the same IR and inputs.
//
// Tolerance: |gpu - reference| <= 1e-3 * max(1, |reference|) per component. The interpreter computes
// in doubles and rounds each IR value to f32, the GPU in f32 throughout, and WGSL only bounds the
// error of sin/cos to 2^-11 absolute and of exp/log/pow to a few ULP plus an argument-dependent term;
// finite-difference derivatives divide such differences by du (1/3). 1e-3 is well above those
// errors on the corpus' value ranges and well below what a semantic error (wrong operand, order,
// space, sign, component or branch) produces, which moves results by 1e-2 or more.
// Snippets with `expect` are also checked against a hand-computed value (same tolerance), which
// checks the interpreter (and so the compiler) against the language, not only against each other.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import type { CompiledPipeline } from '../../src/rsl/compile.ts';
import { interpret } from '../../src/rsl/interpreter/interpreter.ts';
import type { InterpreterInput, InterpreterResult } from '../../src/rsl/interpreter/interpreter.ts';
import { packParameters } from '../../src/rsl/params.ts';
import { BUILTINS } from '../../src/rsl/stdlib.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { CORPUS, STUBBED } from './corpus/index.ts';
import { runOnGpu } from './corpus/gpu-runner.ts';
import { GRIDS, SPACE_OVERRIDES, TO_CURRENT } from './corpus/inputs.ts';
import type { Batch } from './corpus/snippet.ts';
import { batches, OUTPUTS, shaderSource } from './corpus/snippet.ts';

const gpu = useGpuRuntime();
const MAX_VERTICES = 16;
const TOLERANCE = 1e-3;
const BATCHES = batches(CORPUS, MAX_VERTICES);

function close(actual: number, reference: number): boolean {
  return Math.abs(actual - reference) <= TOLERANCE * Math.max(1, Math.abs(reference));
}

function inputFor(batch: Batch, compiled: CompiledPipeline): InterpreterInput {
  const g = GRIDS[batch.grid];
  return { nu: g.nu, nv: g.nv, grid: g.grid, params: packParameters(compiled, { ...SPACE_OVERRIDES, ...batch.overrides }), toCurrent: TO_CURRENT, time: 0.25 };
}

/** Compiles a batch; when it fails, names the snippet that does not compile alone. */
function compileBatch(batch: Batch): CompiledPipeline {
  try {
    return compilePipeline(batch.description);
  } catch (error) {
    for (const s of batch.snippets) {
      try {
        compilePipeline({ ...batch.description, surface: { source: shaderSource([s]), file: `${s.name}.sl` } });
      } catch (inner) {
        throw new Error(`snippet '${s.name}' does not compile:\n${String(inner)}`);
      }
    }
    throw error;
  }
}

describe('the corpus', () => {
  it('has at least 150 snippets with distinct names', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CORPUS.map((s) => s.name)).size).toBe(CORPUS.length);
  });

  it('calls every function of the standard-library table', () => {
    const text = CORPUS.map((s) => `${'params' in s ? s.params ?? '' : ''} ${'functions' in s ? s.functions ?? '' : ''} ${s.body}`).join('\n');
    const missing = [...BUILTINS.keys()].filter((name) => !new RegExp(`\\b${name}\\s*\\(`).test(text));
    // Map lookups read texture files, which the CPU interpreter does not have: test/texture
    // checks their values on Dawn against the texels (texture-lookup, shadow-map tests).
    expect(missing).toEqual(['texture', 'shadow', 'textureinfo']);
  });

  it('uses every construct of the language', () => {
    const text = CORPUS.map((s) => `${s.params ?? ''} ${s.functions ?? ''} ${s.body}`).join('\n');
    const constructs: Record<string, RegExp> = {
      dot: /\) \. \(|\w \. \w/, cross: /\^/, ternary: /\?[^:]+:/, compound: /[-+*/]=/, 'break n': /break 2/, 'continue n': /continue 2/,
      while: /\bwhile\s*\(/, for: /\bfor\s*\(/, 'if/else': /\belse\b/, 'space cast': /point "world"/, 'vector cast': /vector "object"/,
      'normal cast': /normal "shader"/, 'colour space': /color "hsv"/, matrix: /matrix "world"/, array: /\[\d\]/, output: /\boutput\b/,
      uniform: /\buniform\b/, varying: /\bvarying\b/, illuminance: /illuminance\s*\(/, 'illuminance cone': /illuminance\s*\([^;]*,[^;]*,/,
      category: /illuminance\s*\(\s*"/, return: /\breturn\b/,
    };
    expect(Object.keys(constructs).filter((k) => !constructs[k]!.test(text))).toEqual([]);
    // Light shaders with illuminate (with and without a cone) and solar are in the light sets; the
    // texture channel form, name[n], is checked with real maps in test/texture.
  });

  it('lists the stubbed functions it asserts', () => {
    for (const name of STUBBED) expect(CORPUS.some((s) => s.stub && s.body.includes(`${name}(`)), name).toBe(true);
  });

  it('hand-checked snippets agree with the interpreter', () => {
    const problems: string[] = [];
    for (const batch of BATCHES) {
      let reference: InterpreterResult;
      try {
        const compiled = compileBatch(batch);
        reference = interpret(compiled, inputFor(batch, compiled));
      } catch (error) {
        problems.push(`${batch.key}: ${String(error)}`);
        continue;
      }
      batch.snippets.forEach((s, k) => {
        if (!s.expect) return;
        reference.grid[OUTPUTS[k]!]!.forEach((value, vertex) => {
          if (!value.every((x, c) => close(x, s.expect![c]!))) problems.push(`${s.name} at vertex ${vertex}: ${JSON.stringify(value)}, expected ${JSON.stringify(s.expect)}`);
        });
      });
    }
    expect(problems).toEqual([]);
  });
});

describe('corpus on Dawn against the reference interpreter', () => {
  it.each(BATCHES.map((b) => [b.snippets.map((s) => s.name).join(' + '), b] as const))('%s', async (_, batch) => {
    const compiled = compileBatch(batch);
    const input = inputFor(batch, compiled);
    const reference = interpret(compiled, input);
    const actual = await runOnGpu(gpu(), compiled, input);
    const problems: string[] = [];
    batch.snippets.forEach((s, k) => {
      const out = OUTPUTS[k]!;
      actual.grid[out]!.forEach((value, vertex) => {
        const ref = reference.grid[out]![vertex]!;
        if (!value.every((x, c) => close(x, ref[c]!))) problems.push(`${s.name} at vertex ${vertex}: GPU ${JSON.stringify(value)}, interpreter ${JSON.stringify(ref)}`);
      });
    });
    expect(problems).toEqual([]);
  });
});
