// String functions (RI 3.2 section 15.7) and string comparison, read back through relations.
import type { OracleCase } from '../oracle-case.ts';
import { oc, str, truth } from '../oracle-case.ts';

export const STRING_CASES: OracleCase[] = [
  truth('a == "rough"', { a: str('rough') }, true),
  truth('a == "rough"', { a: str('smooth') }, false),
  truth('a != b', { a: str('x'), b: str('y') }, true),
  truth('a == b', { a: str('same'), b: str('same') }, true),
  truth('concat("ab", "cd") == "abcd"', {}, true),
  truth('concat("a", "b", "c") == "abc"', {}, true),
  truth('concat("ab", "cd") == "abdc"', {}, false),
  truth('format("%d-%s", 3, "x") == "3-x"', {}, true),
  truth('format("%.2f", 0.5) == "0.50"', {}, true),
  truth('format("%s/%s.tex", "maps", "wood") == "maps/wood.tex"', {}, true),
  truth('format("v%03d", 7) == "v007"', {}, true),
  truth('format("%.1p", point(1, 2, 3)) == "1.0 2.0 3.0"', {}, true),
  truth('format("100%%") == "100%"', {}, true),
  oc('float', 'match("ab.d", "xxabcdyy")', {}, 1),
  oc('float', 'match("^ab", "xab")', {}, 0),
  oc('float', 'match("[0-9]+$", "layer12")', {}, 1),
  oc('float', 'match("rust", "trusty")', {}, 1),
  oc('float', 'match("zz", "trusty")', {}, 0),
];
