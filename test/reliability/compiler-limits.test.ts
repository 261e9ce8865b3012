// Whatever a shader holds, the compiler answers with WGSL that Dawn accepts or with positioned
// errors, quickly: no call-stack overflow on deep or long sources, no kernel the WGSL validator
// refuses (loops without a visible exit, literals beyond f32, nesting past WGSL's limit, arrays too
// big for a GPU variable), and no loop that can run forever on a GPU without a watchdog.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { checkSource } from '../../src/rsl/frontend.ts';
import { MAX_EXPRESSION_DEPTH, MAX_STATEMENT_DEPTH } from '../../src/rsl/parser.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { messages, shadeFlatGrid, surface } from '../rsl/flat-grid.ts';

const gpu = useGpuRuntime();

/** The errors Dawn's WGSL front end reports for `code` (none when it would build a pipeline). */
async function dawnErrors(code: string): Promise<string[]> {
  const device = gpu().device;
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error').map((m) => m.message);
  if (errors.length === 0) {
    try {
      await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  const scoped = await device.popErrorScope();
  if (scoped && errors.length === 0) errors.push(scoped.message);
  return errors;
}

const N = 3000;
/** Sources that used to overflow the call stack, with the 1-based column of the error each must give. */
const DEEP: [string, string, number][] = [
  ['a 3000-term sum', `surface s() { Ci = 0${' + 1'.repeat(N)}; }`, 20 + 4 * (MAX_EXPRESSION_DEPTH - 1)],
  ['3000 nested parentheses', `surface s() { Ci = ${'('.repeat(N)}1${')'.repeat(N)}; }`, 20 + MAX_EXPRESSION_DEPTH - 1],
  ['3000 unary minus signs', `surface s() { Ci = ${'-'.repeat(N)}1; }`, 20 + MAX_EXPRESSION_DEPTH - 1],
  ['3000 chained assignments', `surface s() { float x; Ci = ${'x = '.repeat(N)}1; }`, 0],
  ['3000 nested ternaries', `surface s() { Ci = ${'s > 0 ? 1 : '.repeat(N)}0; }`, 0],
  ['3000 nested ifs', `surface s() { float x = 0; ${'if (x < 1) '.repeat(N)}x = 1; Ci = x; }`, 28 + 11 * MAX_STATEMENT_DEPTH],
  ['3000 nested braced ifs', `surface s() { float x = 0; ${'if (x < 1) { '.repeat(N)}x = 1;${' }'.repeat(N)} Ci = x; }`, 28 + 13 * MAX_STATEMENT_DEPTH],
  ['3000 nested blocks', `surface s() { ${'{ '.repeat(N)}Ci = 1;${' }'.repeat(N)} }`, 15 + 2 * MAX_STATEMENT_DEPTH],
  ['3000 nested whiles', `surface s() { float x = 0; ${'while (x < 1) '.repeat(N)}x += 1; Ci = x; }`, 28 + 14 * MAX_STATEMENT_DEPTH],
];

describe('deep sources give a positioned error, not a stack overflow', () => {
  it.each(DEEP)('%s', (_name, source, column) => {
    const start = performance.now();
    const errors = messages(surface(source), 'error');
    expect(performance.now() - start).toBeLessThan(5000);
    const nested = errors.find(([, , text]) => / nested deeper than \d+ levels/.test(text));
    expect(nested, JSON.stringify(errors)).toBeDefined();
    expect(nested![0]).toBe(1);
    if (column > 0) expect(nested![1]).toBe(column);
    expect(nested![2]).toMatch(new RegExp(`^(statements nested deeper than ${MAX_STATEMENT_DEPTH}|expressions nested deeper than ${MAX_EXPRESSION_DEPTH}) levels`));
  });

  it('refuses a chain of 3000 functions, a function calling itself twice and 3000 nested macros with positioned errors, quickly', () => {
    const chain = Array.from({ length: N }, (_, i) => `float f${i}(float a) { return ${i === 0 ? 'a' : `f${i - 1}(a)`} + 1; }`).join('\n');
    const timed = (source: string): [number, number, string][] => {
      const start = performance.now();
      const errors = messages(surface(source), 'error');
      expect(performance.now() - start).toBeLessThan(10_000);
      return errors;
    };
    expect(timed(`${chain}\nsurface s() { Ci = f${N - 1}(s); }`)).toEqual([
      [N - 63, 31, `function calls nested deeper than 64 ('f${N - 1}' → ... → 'f${N - 65}'); every call is inlined into the kernel`],
    ]);
    expect(timed('float g(float a) { return g(a) + g(a + 1); }\nsurface s() { Ci = g(s); }')).toEqual([
      [1, 27, "'g' calls itself; RSL functions cannot be recursive"],
      [1, 34, "'g' calls itself; RSL functions cannot be recursive"],
    ]);
    const macros = `${Array.from({ length: N }, (_, i) => `#define A${i + 1} (A${i}+1)`).join('\n')}\n#define A0 1\nsurface s() { Ci = A${N}; }`;
    expect(timed(macros)[0]).toEqual([N + 2, 20, `macro 'A${N - 65}' is reached through more than 64 nested macros; left unexpanded`]);
  });

  it('reads a 120,000-token shader without overflowing (the preprocessor spread every token at once)', () => {
    const source = `surface s() { float x = 0; ${'x = x + 1; '.repeat(20_000)}Ci = x; }`;
    const start = performance.now();
    const checked = checkSource(source, 'long.sl');
    expect(checked.diagnostics.list).toEqual([]);
    expect(checked.shaders).toHaveLength(1);
    expect(performance.now() - start).toBeLessThan(10_000);
  });
});

describe('every compiled shader is WGSL that Dawn accepts', () => {
  const D = MAX_STATEMENT_DEPTH - 1;
  const ACCEPTED: [string, string][] = [
    ['a loop with no exit', 'surface s() { float x = s; while (1) { x += 1; } Ci = x; }'],
    ['for (;;) with no exit', 'surface s() { float x = s; for (;;) { x += 1; } Ci = x; }'],
    ['literals beyond the f32 range', 'surface s() { float x = 1e40; float y = -1e39 * 1e39; Ci = color(x, y, s * 1e300); }'],
    [`${D} nested varying ifs`, `surface s() { float x = s; ${'if (x < t) { x += 1; '.repeat(D)}${'}'.repeat(D)} Ci = x; }`],
    [`${D} nested varying whiles`, `surface s() { float x = s; ${'while (x < t) { x += 0.5; '.repeat(D)}${'}'.repeat(D)} Ci = x; }`],
    [`an else-if chain of ${D}`, `surface s() { float x = s; ${Array.from({ length: D }, (_, i) => `if (x < ${i}) x = ${i};`).join(' else ')} Ci = x; }`],
    ['a color array of 256', 'surface s() { color a[256]; a[3] = s; Ci = a[3]; }'],
  ];
  it.each(ACCEPTED)('%s', async (_name, source) => {
    const compiled = compilePipeline(surface(source));
    expect(await dawnErrors(compiled.code)).toEqual([]);
  });

  it('refuses, at the declaration, an array bigger than a GPU variable holds (Dawn: "result type size exceeds maximum allowed (65536)")', () => {
    // Building a pipeline with a 64 KiB array takes lavapipe minutes: the largest is only compiled here.
    expect(messages(surface('surface s() { float a[16384]; a[3] = s; Ci = a[3]; }'), 'error')).toEqual([]);
    expect(messages(surface('surface s() {\n  float a[70000];\n  color c[4097];\n  Ci = 0; }'), 'error')).toEqual([
      [2, 9, "array 'a' of 70000 float elements takes 280000 bytes; a shader variable holds at most 65536 (16384 float elements)"],
      [3, 9, "array 'c' of 4097 color elements takes 65552 bytes; a shader variable holds at most 65536 (4096 color elements)"],
    ]);
  });

  it('refuses, at the innermost construct, nesting that inlining takes past what WGSL allows', () => {
    const ifs = (n: number, v: string): string => `${`if (${v} < t) { ${v} += 1; `.repeat(n)}`;
    const source = `float f(float a) { float x = a; ${ifs(D, 'x')}${'}'.repeat(D)} return x; }\nsurface s() { float y = s; ${ifs(D, 'y')}y = f(y); ${'}'.repeat(D)} Ci = y; }`;
    const errors = messages(surface(source), 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toBe(1);
    expect(errors[0]![2]).toMatch(/^statements nest \d+ blocks deep in the kernel once functions are inlined \(WGSL allows 62\)/);
  });
});

describe('loops stop after the iteration cap', () => {
  it('a loop with no exit leaves after maxLoopIterations, and a finite loop runs to its end', async () => {
    const endless = surface('surface s() { float x = 0; while (1) { x += 1; } Ci = x; }', { maxLoopIterations: 1000 });
    const { out } = await shadeFlatGrid(gpu(), endless);
    expect(out['Ci']).toEqual([[1000, 1000, 1000], [1000, 1000, 1000], [1000, 1000, 1000], [1000, 1000, 1000]]);
    const finite = surface('surface s() { float x = 0; float i; for (i = 0; i < 700; i += 1) x += 2; Ci = x; }', { maxLoopIterations: 1000 });
    expect((await shadeFlatGrid(gpu(), finite)).out['Ci']?.[0]).toEqual([1400, 1400, 1400]);
  });
});
