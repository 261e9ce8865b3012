// What the built-ins of this area say about arguments they cannot honour: positioned errors for what
// cannot run, positioned warnings for what is ignored.
import { describe, expect, it } from 'vitest';
import { compilePipeline } from '../../../src/rsl/compile.ts';

function messages(body: string): { severity: string; message: string; line: number }[] {
  try {
    const compiled = compilePipeline({ surface: { source: `surface d() {\n${body}\n}`, file: 'd.sl' } });
    return compiled.diagnostics.map((d) => ({ severity: d.severity, message: d.message, line: d.line }));
  } catch (error) {
    return [{ severity: 'error', message: String(error), line: -1 }];
  }
}

describe('built-in diagnostics', () => {
  it('spline: an unknown basis is an error naming the bases', () => {
    const [m] = messages('float x = spline("cubic", s, 0, 1, 2, 3);');
    expect(m?.severity).toBe('error');
    expect(m?.message).toMatch(/d\.sl:2:\d+.*unknown spline basis "cubic".*bezier/);
  });

  it('spline: knots beyond 4 + step n are ignored with a warning', () => {
    const list = messages('float x = spline("bezier", s, 0, 1, 2, 3, 4, 5);');
    expect(list).toEqual([{ severity: 'warning', line: 2, message: expect.stringContaining('the last 2 of 6 are ignored') }]);
    expect(messages('float x = spline("bezier", s, 0, 1, 2, 3, 4, 5, 6);')).toEqual([]);
    expect(messages('float x = spline("hermite", s, 0, 1, 2, 3, 4, 5);')).toEqual([]);
  });

  it('spline: an array of fewer than 4 knots is an error', () => {
    const [m] = messages('float k[3] = { 0, 1, 2 }; float x = spline(s, k);');
    expect(m?.message).toMatch(/spline needs at least 4 knots, found 3/);
  });

  it('filterstep: unknown parameters and filters are warned about', () => {
    const list = messages('float x = filterstep(0.5, s, "blur", 2) + filterstep(0.5, s, t, "filter", "triangle");');
    expect(list.map((d) => [d.severity, d.line])).toEqual([['warning', 2], ['warning', 2]]);
    expect(list.map((d) => d.message).join('\n')).toMatch(/parameter "blur" is not known[\s\S]*filter "triangle" is not supported/);
  });

  it('format: arguments not known at compile time are an error', () => {
    const [m] = messages('string a = format("%f", s);');
    expect(m?.message).toMatch(/format\(\) needs arguments known at compile time/);
  });
});
