// Source text to checked shaders: preprocess, parse, type check. Never throws on bad input; the
// diagnostics list says what went wrong.
import type { ShaderDef, SourceFile } from './ast.ts';
import { Diagnostics } from './diagnostics.ts';
import { parse } from './parser.ts';
import { preprocess } from './preprocessor.ts';
import type { PreprocessOptions } from './preprocessor.ts';
import { typecheck } from './typecheck.ts';
import type { CheckedShader } from './typecheck.ts';

export interface FrontEndResult {
  ast: SourceFile;
  shaders: CheckedShader[];
  diagnostics: Diagnostics;
}

export function parseSource(source: string, file: string, options: PreprocessOptions = {}, diagnostics = new Diagnostics()): { ast: SourceFile; diagnostics: Diagnostics } {
  const tokens = preprocess(source, file, diagnostics, options);
  const ast = parse(tokens, file, diagnostics);
  return { ast, diagnostics };
}

export function checkSource(source: string, file: string, options: PreprocessOptions = {}): FrontEndResult {
  const { ast, diagnostics } = parseSource(source, file, options);
  const shaders: CheckedShader[] = [];
  if (ast.shaders.length === 0 && !diagnostics.hasErrors) diagnostics.error({ file, line: 1, column: 1 }, 'expected a shader definition (surface, displacement, light, volume or imager), found none');
  for (const shader of ast.shaders) shaders.push(typecheck(ast, shader, diagnostics));
  return { ast, shaders, diagnostics };
}

export function findShader(result: FrontEndResult, name?: string): ShaderDef | undefined {
  return name ? result.ast.shaders.find((s) => s.name === name) : result.ast.shaders[0];
}
