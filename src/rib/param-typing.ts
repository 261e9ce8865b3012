// Turns raw parameter lists into typed Parameters: finds each name's declaration (inline,
// Declare'd, standard), checks the value kind, and checks the value count.

import { parseInlineDeclaration, valuesPerElement } from './declarations.ts';
import type { Declaration } from './declarations.ts';
import type { RawParam } from './parser.ts';
import type { Parameter, StorageCounts } from './scene.ts';

export interface TypingContext {
  /** Declare'd names over the standard ones. */
  declarations: ReadonlyMap<string, Declaration>;
  colorSamples: number;
}

/** Where a parameter list appears, which decides how unknown names and counts are treated. */
export type ParamUse =
  /** Shader, option, attribute, display...: unknown names get a type guessed from the values. */
  | { kind: 'shader-or-option' }
  /** Primitive variables: every name must be declared; counts follow the primitive's storage counts. */
  | { kind: 'primitive'; counts: StorageCounts; primitive: string };

function inferDeclaration(values: number[] | string[]): Declaration {
  const isString = typeof values[0] === 'string';
  return { storage: 'uniform', type: isString ? 'string' : 'float', arrayLength: values.length > 1 ? values.length : null };
}

function describe(decl: Declaration): string {
  return `${decl.storage} ${decl.type}${decl.arrayLength === null ? '' : `[${decl.arrayLength}]`}`;
}

/** A typed parameter, or a message saying why the raw one is wrong. */
export function typeParameter(raw: RawParam, ctx: TypingContext, use: ParamUse): Parameter | string {
  const inline = parseInlineDeclaration(raw.name);
  if (typeof inline === 'string') return inline;
  let name: string;
  let decl: Declaration | undefined;
  let inferred = false;
  if (inline) {
    name = inline.name;
    decl = inline.decl;
  } else {
    name = raw.name;
    decl = ctx.declarations.get(name);
  }
  if (!decl) {
    if (use.kind === 'primitive') return `parameter "${name}" is not declared (use Declare or an inline declaration such as "varying float ${name}")`;
    decl = inferDeclaration(raw.values);
    inferred = true;
  }
  const values = raw.values;
  const isString = values.length > 0 && typeof values[0] === 'string';
  if (values.length > 0 && isString !== (decl.type === 'string')) {
    return `parameter "${name}" is declared ${describe(decl)} but has ${isString ? 'strings' : 'numbers'}`;
  }
  if (decl.type === 'integer' && !(values as number[]).every(Number.isInteger)) {
    return `parameter "${name}" is declared ${describe(decl)} but has non-integer values`;
  }
  const perElement = valuesPerElement(decl, ctx.colorSamples);
  const elements = use.kind === 'primitive' ? use.counts[decl.storage] : 1;
  const expected = perElement * elements;
  if (values.length !== expected) {
    const where = use.kind === 'primitive' ? ` on this ${use.primitive} (${elements} × ${perElement})` : '';
    return `parameter "${name}" (${describe(decl)}) needs ${expected} value${expected === 1 ? '' : 's'}${where}, found ${values.length}`;
  }
  return { name, storage: decl.storage, type: decl.type, arrayLength: decl.arrayLength, values, inferred };
}

export function findParameter(params: readonly Parameter[], name: string): Parameter | undefined {
  return params.find((p) => p.name === name);
}
