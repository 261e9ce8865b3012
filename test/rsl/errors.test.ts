// Broken shaders: each gives the expected message at the expected position, several per run.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../src/rsl/compile.ts';
import { RslCompileError } from '../../src/rsl/diagnostics.ts';
import { checkSource } from '../../src/rsl/frontend.ts';

function errors(source: string): [number, number, string][] {
  return checkSource(source, 'bad.sl').diagnostics.errors.map((d) => [d.line, d.column, d.message]);
}

describe('error messages', () => {
  it('syntax: what was found and what was expected, and the parser carries on', () => {
    expect(errors('surface s() {\n  float x = ;\n  Ci = (1 + ;\n  Oi = 1\n}')).toEqual([
      [2, 13, "expected an expression, found ';'"],
      [3, 13, "expected an expression, found ';'"],
      [5, 1, "expected ';', found '}'"],
    ]);
  });
  it('undefined names and functions, wrong argument counts, bad conversions', () => {
    expect(errors('surface s() {\n  Ci = foo(1);\n  Oi = sin(1, 2);\n  color c = P;\n  float y = z;\n}')).toEqual([
      [2, 8, "undefined function 'foo'"],
      [3, 8, "'sin' expects 1 arguments, found 2"],
      [4, 13, "cannot convert point to color for 'c'"],
      [5, 13, "undefined variable 'z'"],
    ]);
  });
  it('uniform/varying, read-only globals, break outside loops, return outside functions', () => {
    expect(errors('surface s() {\n  uniform float a = u;\n  Ng = 0;\n  break;\n  return;\n}')).toEqual([
      [2, 21, "cannot assign a varying value to uniform variable 'a'"],
      [3, 3, "'Ng' is read-only"],
      [4, 3, 'break 1 is not inside 1 loop'],
      [5, 3, 'return outside a function'],
    ]);
  });
  it('user function calls: argument count and output arguments', () => {
    expect(errors('float f(float a; output float b) { b = a; return a; }\nsurface s() {\n  float x = f(1);\n  x = f(1, 2);\n}')).toEqual([
      [3, 13, "'f' expects 2 arguments, found 1"],
      [4, 12, "expected a variable for output parameter 'b' of 'f'"],
    ]);
  });
  it('gather and trace with the wrong arguments are named at their position', () => {
    expect(errors('surface s() {\n  gather("illuminance", P) { }\n  Ci = trace(P);\n}')).toEqual([
      [2, 3, 'gather expects (category, position, direction, angle, samples, ...), found 2 arguments'],
      [3, 8, "'trace' expects 2+ arguments, found 1"],
    ]);
  });
  it('bad characters and unterminated strings do not crash', () => {
    expect(errors('surface s() {\n  Ci = @;\n  string x = "abc\n}')).toEqual([
      [2, 8, "unexpected character '@'; expected an expression"],
      [3, 14, 'unterminated string; expected an expression'],
    ]);
  });
  it('compilePipeline throws an RslCompileError naming file, line and column', () => {
    let thrown: unknown;
    try {
      compilePipeline({ surface: { source: 'surface s() {\n  Ci = q;\n}', file: 'mine.sl' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RslCompileError);
    expect((thrown as Error).message).toBe("mine.sl:2:8: error: undefined variable 'q'");
  });
  it('a derivative that cannot be relocated is reported at the derivative call', () => {
    // x is assigned in a varying branch that also leaves the loop: it cannot run masked.
    const source = 'surface s() {\n  float x = 0, i;\n  for (i = 0; i < 3; i += 1) if (s > 0.5) {\n    x += s * i;\n    Ci = Du(x);\n    break;\n  }\n}';
    expect(() => compilePipeline({ surface: { source, file: 'deriv.sl' } })).toThrow(/^deriv\.sl:5:10: error: this derivative cannot be computed: its operand is assigned under the if at line 3, whose condition varies/);
    const light = 'light l() {\n  illuminate(point(0)) {\n    Cl = Dv(s);\n  }\n}';
    expect(() => compilePipeline({ surface: 'matte', lights: [{ source: light, file: 'l.sl' }] })).toThrow(/^l\.sl:3:10: error: derivatives in light shaders/);
  });
  it('never crashes on garbage', () => {
    const junk = ['', '}}}', 'surface', 'surface s(', 'surface s() { if ( }', 'light l() { illuminate( }', '#define F(x\nF(', 'surface s() { float a[0]; }'];
    for (const text of junk) expect(() => checkSource(text, 'junk.sl')).not.toThrow();
  });
});
