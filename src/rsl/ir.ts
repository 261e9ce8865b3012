// The intermediate representation: plain data, as in naga. A function body is a list of
// instructions; structured control flow (if, loop, illuminance) nests lists. Every value-producing
// instruction defines a fresh numbered value exactly once (SSA for values); named RSL variables are
// explicit load/store slots, which keeps lowering simple and maps one-to-one onto WGSL `var`s.

import type { SourcePos } from './diagnostics.ts';

export type IrType = 'f32' | 'vec3' | 'mat4' | 'bool' | 'u32';

export type VarKind = 'local' | 'global' | 'param';

export interface IrVar {
  id: number;
  name: string;
  type: IrType;
  arrayLength?: number;
  kind: VarKind;
}

export type BinaryOperator = '+' | '-' | '*' | '/' | 'dot' | 'cross' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '&&' | '||' | 'matmul' | 'matdiv';

export type Inst =
  | { op: 'const'; id: number; type: IrType; value: number[] }
  | { op: 'load'; id: number; type: IrType; variable: number; index?: number }
  | { op: 'store'; variable: number; value: number; index?: number }
  | { op: 'unary'; id: number; type: IrType; operator: '-' | '!'; a: number }
  | { op: 'binary'; id: number; type: IrType; operator: BinaryOperator; a: number; b: number }
  /** float to triple (splat), float to matrix (scaled identity), bool to float, triple component. */
  | { op: 'convert'; id: number; type: IrType; a: number }
  | { op: 'select'; id: number; type: IrType; cond: number; a: number; b: number }
  /** A pure WGSL expression: template with $0.. for args; helpers are rsl_* functions of the prelude. */
  | { op: 'call'; id: number; type: IrType; template: string; args: number[]; varying?: boolean }
  /** The u or v derivative of a value over the grid: needs neighbouring vertices, so a barrier. */
  | { op: 'deriv'; id: number; type: IrType; axis: 'u' | 'v'; a: number; pos?: SourcePos }
  /** Derivatives computed together behind one barrier (placed by derivative relocation). */
  | { op: 'derivgroup'; derivs: { id: number; type: IrType; axis: 'u' | 'v'; a: number }[] }
  /** `pos` and `origin` ("for loop", "function 'f' (early return)") name the construct in messages. */
  | { op: 'if'; cond: number; then: Inst[]; else: Inst[]; pos?: SourcePos }
  | { op: 'loop'; loop: number; body: Inst[]; continuing: Inst[]; pos?: SourcePos; origin?: string }
  | { op: 'break' | 'continue'; loop: number }
  /** Runs `body` once per light that reaches `position` within the cone; L and Cl are set first. */
  | { op: 'illuminance'; loop: number; pos?: SourcePos; position: number; axis?: number; angle?: number; category?: string; body: Inst[]; lVar: number; clVar: number; olVar: number }
  /** In a light shader: illuminate (position given) or solar. */
  | { op: 'illuminate'; position?: number; axis?: number; angle?: number; body: Inst[] }
  /** Sum of Cl of the ambient lights (lights without illuminate or solar). */
  | { op: 'ambient'; id: number; type: 'vec3' }
  /** printf and other effects the GPU drops; kept so DCE has something to test against. */
  | { op: 'nop' };

export type ValueInst = Extract<Inst, { id: number }>;

export interface LightFunction {
  /** Index of the light in the pipeline's light list. */
  index: number;
  name: string;
  body: Inst[];
  /** True for lights without illuminate/solar: they only feed ambient(). */
  ambient: boolean;
  categories: string[];
  psVar: number;
  lVar: number;
  clVar: number;
  olVar: number;
}

/**
 * A light parameter the surface or atmosphere reads with lightsource("name", var) inside an
 * illuminance loop. Every illuminance sets valueVar and hasVar (1 or 0) from the current light:
 * `sources[light index]` is that light's variable of the parameter (read after the light ran, so
 * output parameters carry what the light assigned), undefined when the light has no such parameter.
 */
export interface LightMessage {
  name: string;
  type: IrType;
  valueVar: number;
  hasVar: number;
  sources: (number | undefined)[];
}

export interface IrModule {
  vars: Map<number, IrVar>;
  main: Inst[];
  lights: LightFunction[];
  nextValue: number;
  /** lightsource() messages (empty when no shader calls lightsource() for a parameter a light has). */
  messages: LightMessage[];
}

/** True for instructions without side effects whose result may be dropped or moved. */
export function isPure(inst: Inst): inst is ValueInst {
  switch (inst.op) {
    case 'const':
    case 'load':
    case 'unary':
    case 'binary':
    case 'convert':
    case 'select':
    case 'call':
      return true;
    default:
      return false;
  }
}

/** The values an instruction reads directly (not those of nested blocks). */
export function operands(inst: Inst): number[] {
  switch (inst.op) {
    case 'load':
      return inst.index !== undefined ? [inst.index] : [];
    case 'store':
      return inst.index !== undefined ? [inst.value, inst.index] : [inst.value];
    case 'unary':
    case 'convert':
    case 'deriv':
      return [inst.a];
    case 'binary':
      return [inst.a, inst.b];
    case 'select':
      return [inst.cond, inst.a, inst.b];
    case 'call':
      return inst.args;
    case 'derivgroup':
      return inst.derivs.map((d) => d.a);
    case 'if':
      return [inst.cond];
    case 'illuminance':
      return [inst.position, ...(inst.axis !== undefined ? [inst.axis] : []), ...(inst.angle !== undefined ? [inst.angle] : [])];
    case 'illuminate':
      return [inst.position, inst.axis, inst.angle].filter((v): v is number => v !== undefined);
    default:
      return [];
  }
}

/** Rewrites the operands of an instruction in place. */
export function mapOperands(inst: Inst, f: (v: number) => number): void {
  switch (inst.op) {
    case 'load':
      if (inst.index !== undefined) inst.index = f(inst.index);
      return;
    case 'store':
      inst.value = f(inst.value);
      if (inst.index !== undefined) inst.index = f(inst.index);
      return;
    case 'unary':
    case 'convert':
    case 'deriv':
      inst.a = f(inst.a);
      return;
    case 'binary':
      inst.a = f(inst.a);
      inst.b = f(inst.b);
      return;
    case 'select':
      inst.cond = f(inst.cond);
      inst.a = f(inst.a);
      inst.b = f(inst.b);
      return;
    case 'call':
      inst.args = inst.args.map(f);
      return;
    case 'derivgroup':
      for (const d of inst.derivs) d.a = f(d.a);
      return;
    case 'if':
      inst.cond = f(inst.cond);
      return;
    case 'illuminance':
    case 'illuminate':
      if (inst.position !== undefined) inst.position = f(inst.position);
      if (inst.axis !== undefined) inst.axis = f(inst.axis);
      if (inst.angle !== undefined) inst.angle = f(inst.angle);
      return;
  }
}

/** Nested instruction lists of a structured instruction. */
export function children(inst: Inst): Inst[][] {
  switch (inst.op) {
    case 'if':
      return [inst.then, inst.else];
    case 'loop':
      return [inst.body, inst.continuing];
    case 'illuminance':
    case 'illuminate':
      return [inst.body];
    default:
      return [];
  }
}

/** Visits every instruction, depth first, in program order. */
export function walk(block: Inst[], visit: (inst: Inst, block: Inst[]) => void): void {
  for (const inst of block) {
    visit(inst, block);
    for (const child of children(inst)) walk(child, visit);
  }
}

/** Variables stored anywhere inside these instructions (including nested blocks). */
export function storedVars(block: Inst[]): Set<number> {
  const out = new Set<number>();
  walk(block, (inst) => {
    if (inst.op === 'store') out.add(inst.variable);
  });
  return out;
}

export function loadedVars(block: Inst[]): Set<number> {
  const out = new Set<number>();
  walk(block, (inst) => {
    if (inst.op === 'load') out.add(inst.variable);
  });
  return out;
}

export function allBodies(module: IrModule): Inst[][] {
  return [module.main, ...module.lights.map((l) => l.body)];
}
