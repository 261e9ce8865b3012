// Matrix functions and operators (RI 3.2 sections 15.4 and 11.1): matrices by rows, points are row
// vectors (p' = p M), so a translation sits in the last row.
import type { OracleCase } from '../oracle-case.ts';
import { mx, oc, pt, vc } from '../oracle-case.ts';
import { determinant, matInverse, matMul, rotation, scaling, transformPoint, translation } from '../reference.ts';

const A = [2, 0.5, 0, 0, -1, 3, 0.25, 0, 0.5, 0, 1.5, 0, 1, -2, 0.5, 1];
const B = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 2, 0, 3, 0.5, -1, 1];
const GENERAL = [4, 3, 2, 1, 0, 1, -1, 2, 3, 0, 1, 1, -2, 1, 0, 3];

export const MATRIX_CASES: OracleCase[] = [
  oc('float', 'comp(m, 3, 0)', { m: mx(A) }, 1),
  oc('float', 'comp(m, 0, 1)', { m: mx(A) }, 0.5),
  oc('float', 'comp(m, i, j)', { m: mx(A), i: 2, j: 2 }, 1.5),
  { ...oc('matrix', 'w', { m: mx(A), x: 9 }, A.map((v, k) => (k === 6 ? 9 : v))), setup: 'matrix w = m; setcomp(w, 1, 2, x);' },
  oc('float', 'determinant(m)', { m: mx(A) }, determinant(A)),
  oc('float', 'determinant(m)', { m: mx(GENERAL) }, determinant(GENERAL)),
  oc('float', 'determinant(m)', { m: mx(B) }, determinant(B)),
  oc('matrix', 'm * n', { m: mx(A), n: mx(B) }, matMul(A, B)),
  oc('matrix', 'n * m', { m: mx(A), n: mx(B) }, matMul(B, A)),
  oc('matrix', 'm / n', { m: mx(A), n: mx(B) }, matMul(A, matInverse(B)), 1e-3),
  oc('matrix', '1 / m', { m: mx(GENERAL) }, matInverse(GENERAL), 1e-3),
  oc('matrix', 'm * a', { m: mx(A), a: 2 }, A.map((x) => 2 * x)),
  oc('matrix', 'a * m', { m: mx(A), a: -1 }, A.map((x) => -x)),
  oc('matrix', 'matrix(a)', { a: 3 }, [3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3]),
  oc('matrix', 'matrix(a, 0, 0, 0, 0, b, 0, 0, 0, 0, 1, 0, c, 0, 0, 1)', { a: 2, b: 3, c: 4 }, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 4, 0, 0, 1]),
  oc('float', '(m == n) ? 1 : 0', { m: mx(A), n: mx(A) }, 1),
  oc('float', '(m == n) ? 1 : 0', { m: mx(A), n: mx(B) }, 0),
  oc('float', '(m != n) ? 1 : 0', { m: mx(A), n: mx(B) }, 1),
  // translate/rotate/scale(m, ...) concatenate onto m as RiTranslate/RiRotate/RiScale do onto the
  // current transformation: the new transform applies first, p (T m).
  oc('matrix', 'translate(m, v)', { m: mx(A), v: vc(1, 2, 3) }, matMul(translation([1, 2, 3]), A)),
  oc('matrix', 'scale(m, p)', { m: mx(A), p: pt(2, 3, 0.5) }, matMul(scaling([2, 3, 0.5]), A)),
  oc('matrix', 'rotate(m, a, v)', { m: mx(A), a: 0.8, v: vc(1, 1, 0) }, matMul(rotation(0.8, [1, 1, 0]), A)),
  oc('point', 'transform(translate(m, v), p)', { m: mx(B), v: vc(1, 0, 0), p: pt(1, 1, 1) }, transformPoint(B, [2, 1, 1])),
  oc('point', 'transform(rotate(matrix(1), a, v), p)', { a: Math.PI / 2, v: vc(0, 0, 1), p: pt(1, 0, 0) }, [0, 1, 0]),
];
