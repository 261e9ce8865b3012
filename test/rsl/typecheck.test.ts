import { describe, expect, it } from 'vitest';
import type { Expr } from '../../src/rsl/ast.ts';
import { checkSource } from '../../src/rsl/frontend.ts';
import type { CheckedShader } from '../../src/rsl/typecheck.ts';
import { typeToString } from '../../src/rsl/types.ts';

function check(body: string, params = ''): CheckedShader {
  const result = checkSource(`surface s(${params}) {\n${body}\n}`, 't.sl');
  expect(result.diagnostics.errors.map((d) => d.message)).toEqual([]);
  return result.shaders[0]!;
}

/** Type of the value assigned by the last expression statement. */
function lastExpr(checked: CheckedShader): Expr {
  const stmt = checked.shader.body[checked.shader.body.length - 1]!;
  if (stmt.kind !== 'expr' || stmt.expr.kind !== 'assign') throw new Error('expected an assignment');
  return stmt.expr.value;
}

describe('type checking', () => {
  it('applies RSL arithmetic rules: point - point is a vector, float promotes, dot and cross', () => {
    const types = ['P - P', 'P + vector(1,0,0)', '2 * Cs', 'N . N', 'N ^ dPdu', 'Cs * Os'].map((e) => {
      const probe = checkSource(`surface s() { ${e.includes('Cs') && !e.includes('.') ? 'color' : e.includes('.') ? 'float' : 'vector'} r; r = ${e}; }`, 't.sl');
      const stmt = probe.shaders[0]!.shader.body[1]!;
      return stmt.kind === 'expr' && stmt.expr.kind === 'assign' ? typeToString(stmt.expr.value.type!) : '?';
    });
    expect(types).toEqual(['vector', 'point', 'color', 'float', 'vector', 'color']);
  });
  it('resolves overloads by argument types and by the type the context asks for', () => {
    expect(typeToString(lastExpr(check('float f; f = noise(P);')).type!)).toBe('float');
    expect(typeToString(lastExpr(check('color c; c = noise(P);')).type!)).toBe('color');
    expect(typeToString(lastExpr(check('point p; p = noise(s, t);')).type!)).toBe('point');
    const cast = lastExpr(check('color c; c = color noise(P);'));
    expect(cast.kind === 'cast' && typeToString(cast.operand.type!)).toBe('color');
    const checked = check('float x; x = mod(s, 2);');
    const call = lastExpr(checked);
    const target = checked.calls.get(call);
    expect(target?.kind === 'builtin' && target.signature.params.map((p) => p.type.name)).toEqual(['float', 'float']);
  });
  it('infers uniform and varying locals, and keeps uniform parameters uniform', () => {
    const checked = check('float a = Kd * 2; float b = s; float c = 1; if (t > 0.5) c = 2; float d = 1; if (Kd > 0) d = 3;', 'float Kd = 1');
    const names = ['Kd', 'a', 'b', 'c', 'd'];
    const detail = Object.fromEntries([...checked.declarations.values()].filter((sym) => names.includes(sym.name)).map((sym) => [sym.name, sym.varying ? 'varying' : 'uniform']));
    expect(detail).toEqual({ Kd: 'uniform', a: 'uniform', b: 'varying', c: 'varying', d: 'uniform' });
  });
  it('knows the whole standard library: message passing and information functions', () => {
    check(`float f = 0; color c = 0; string sname = "";
      f = attribute("identifier:name", sname) + option("Format", f) + rendererinfo("renderer", sname);
      f += textureinfo("t.tx", "resolution", f);
      f += displacement("Km", f) + atmosphere("x", c) + surface("Kd", f);
      f += lightsource("__category", sname) * 0 + incident("x", f) + opposite("x", f);
      c = ctransform("hsv", Cs) + ctransform("hsv", "rgb", Cs);
      f = determinant(matrix 1) + comp(matrix 1, 0, 0) + xcomp(P) + area(P) + depth(P) + ptlined(P, P, P);
      normal n = calculatenormal(P); vector r = refract(I, N, 1.3); fresnel(I, N, 1.3, f, f);
      f = filterstep(0.5, s) + smoothstep(0, 1, s) + spline(s, 0, 1, 2, 3) + cellnoise(P) + pnoise(P, point(4, 4, 4));
      c = spline("catmull-rom", s, Cs, Cs, Cs, Cs) + mix(Cs, Os, 0.5) + specularbrdf(normalize(L0), N, -I, 0.1) + phong(N, -I, 10);
      sname = concat("a", "b") + ""; sname = format("%f", f); printf("%f", f); f = match("a", "abc");
      f = float texture("map"[1], s, t) + float shadow("sm", P) + comp(color environment("env", I), 0);`.replace('+ ""', '').replace('normalize(L0)', 'normalize(I)'));
  });
});
