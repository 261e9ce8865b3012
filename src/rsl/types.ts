// RSL types and the language's implicit conversions.
import type { BaseTypeName } from './ast.ts';

/** 'bool' is the type of relations and conditions; RSL has no boolean variables. */
export type TypeName = BaseTypeName | 'bool';

export interface RslType {
  name: TypeName;
  /** Fixed array length; undefined for scalars. */
  arrayLength?: number;
}

export const T = {
  float: { name: 'float' },
  point: { name: 'point' },
  vector: { name: 'vector' },
  normal: { name: 'normal' },
  color: { name: 'color' },
  matrix: { name: 'matrix' },
  string: { name: 'string' },
  void: { name: 'void' },
  bool: { name: 'bool' },
} as const satisfies Record<TypeName, RslType>;

export function isPointLike(name: TypeName): boolean {
  return name === 'point' || name === 'vector' || name === 'normal';
}

export function isTriple(name: TypeName): boolean {
  return isPointLike(name) || name === 'color';
}

/** Number of f32 components of one element. */
export function componentCount(name: TypeName): number {
  return name === 'matrix' ? 16 : isTriple(name) ? 3 : 1;
}

export function typeToString(type: RslType): string {
  return type.arrayLength !== undefined ? `${type.name}[${type.arrayLength}]` : type.name;
}

export function sameType(a: RslType, b: RslType): boolean {
  return a.name === b.name && a.arrayLength === b.arrayLength;
}

/**
 * The cost of converting `from` to `to` implicitly, or undefined when RSL does not allow it:
 * a float widens to any triple or a matrix, and points, vectors and normals convert among
 * themselves. Overload resolution prefers the cheapest candidate.
 */
export function conversionCost(from: RslType, to: RslType): number | undefined {
  if (from.arrayLength !== to.arrayLength) return undefined;
  if (from.name === to.name) return 0;
  if (from.name === 'float' && (isTriple(to.name) || to.name === 'matrix')) return 2;
  if (isPointLike(from.name) && isPointLike(to.name)) return 1;
  if (from.name === 'bool' && to.name === 'float') return 3;
  return undefined;
}
