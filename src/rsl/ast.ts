// The RSL syntax tree: plain data with a source position on every node. The type checker fills in
// `type` on expressions; later phases read it.
import type { SourcePos } from './diagnostics.ts';
import type { RslType } from './types.ts';

export type ShaderKind = 'surface' | 'displacement' | 'light' | 'volume' | 'imager';
export type Detail = 'uniform' | 'varying';
export type BaseTypeName = 'float' | 'point' | 'vector' | 'normal' | 'color' | 'matrix' | 'string' | 'void';

export interface TypeSpec {
  base: BaseTypeName;
  detail?: Detail;
  output: boolean;
  extern: boolean;
}

export interface Declarator {
  name: string;
  pos: SourcePos;
  /** Fixed array length; undefined for scalars. */
  arrayLength?: number;
  init?: Expr;
}

export interface VarDecl {
  kind: 'vardecl';
  pos: SourcePos;
  type: TypeSpec;
  declarators: Declarator[];
}

export interface FunctionDef {
  kind: 'function';
  pos: SourcePos;
  name: string;
  returnType: BaseTypeName;
  params: VarDecl[];
  body: Stmt[];
}

export interface ShaderDef {
  kind: 'shader';
  pos: SourcePos;
  shaderKind: ShaderKind;
  name: string;
  params: VarDecl[];
  body: Stmt[];
}

export interface SourceFile {
  file: string;
  functions: FunctionDef[];
  shaders: ShaderDef[];
}

export type Stmt =
  | VarDecl
  | FunctionDef
  | { kind: 'expr'; pos: SourcePos; expr: Expr }
  | { kind: 'block'; pos: SourcePos; body: Stmt[] }
  | { kind: 'if'; pos: SourcePos; cond: Expr; then: Stmt; else?: Stmt }
  | { kind: 'while'; pos: SourcePos; cond: Expr; body: Stmt }
  | { kind: 'for'; pos: SourcePos; init?: Expr; cond?: Expr; step?: Expr; body: Stmt }
  | { kind: 'break' | 'continue'; pos: SourcePos; levels: number }
  | { kind: 'return'; pos: SourcePos; value?: Expr }
  | { kind: 'illuminance'; pos: SourcePos; category?: Expr; position: Expr; axis?: Expr; angle?: Expr; body: Stmt }
  | { kind: 'illuminate'; pos: SourcePos; position: Expr; axis?: Expr; angle?: Expr; body: Stmt }
  | { kind: 'solar'; pos: SourcePos; axis?: Expr; angle?: Expr; body: Stmt }
  /** gather(category, P, dir, angle, samples, "name", var, ...) hit-statement [else miss-statement]: a loop over rays. */
  | { kind: 'gather'; pos: SourcePos; args: Expr[]; body: Stmt; else?: Stmt }
  | { kind: 'empty'; pos: SourcePos };

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=';
export type BinaryOp = '+' | '-' | '*' | '/' | '.' | '^' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '&&' | '||';

interface ExprBase {
  pos: SourcePos;
  /** Set by the type checker. */
  type?: RslType;
  varying?: boolean;
}

export type Expr =
  | (ExprBase & { kind: 'number'; value: number })
  | (ExprBase & { kind: 'string'; value: string })
  | (ExprBase & { kind: 'name'; name: string })
  | (ExprBase & { kind: 'index'; target: Expr; index: Expr })
  | (ExprBase & { kind: 'call'; name: string; args: Expr[] })
  | (ExprBase & { kind: 'unary'; op: '-' | '!'; operand: Expr })
  | (ExprBase & { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr })
  | (ExprBase & { kind: 'ternary'; cond: Expr; then: Expr; else: Expr })
  | (ExprBase & { kind: 'assign'; op: AssignOp; target: Expr; value: Expr })
  | (ExprBase & { kind: 'cast'; to: BaseTypeName; space?: string; operand: Expr })
  | (ExprBase & { kind: 'tuple'; items: Expr[] })
  | (ExprBase & { kind: 'array'; items: Expr[] });

export type ExprOf<K extends Expr['kind']> = Extract<Expr, { kind: K }>;
