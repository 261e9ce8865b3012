// `reyes compile-shader file.sl [-o out.wgsl] [--dump ir]`: compiles one shader (surface,
// displacement, light, volume or imager) alone into its WGSL kernel, or prints its errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkSource, compilePipeline, formatDiagnostic, RslCompileError, type PipelineDescription } from '../rsl/index.ts';
import type { ShaderKind } from '../rsl/ast.ts';
import { fileIncludeResolver } from '../rsl/node-resolver.ts';

export interface CompileShaderOptions {
  output?: string;
  dump?: string;
  shaderPath?: string[];
}

export async function compileShaderCommand(file: string, options: CompileShaderOptions): Promise<number> {
  if (options.dump !== undefined && options.dump !== 'ir') {
    console.error(`reyes: --dump takes "ir", not "${options.dump}"`);
    return 1;
  }
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`reyes: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 1;
  }
  const resolveInclude = fileIncludeResolver([dirname(file), ...(options.shaderPath ?? [])]);
  const front = checkSource(source, file, { resolveInclude });
  const shader = front.ast.shaders[0];
  if (front.diagnostics.hasErrors || !shader) {
    for (const diagnostic of front.diagnostics.list) console.error(formatDiagnostic(diagnostic));
    return 1;
  }
  const ref = { source, file, name: shader.name };
  const roles: Record<ShaderKind, PipelineDescription> = {
    surface: { surface: ref },
    displacement: { displacement: ref },
    light: { lights: [ref] },
    volume: { atmosphere: ref },
    imager: { imager: ref },
  };
  const description = roles[shader.shaderKind];
  const start = performance.now();
  let compiled;
  try {
    compiled = compilePipeline({ ...description, resolveInclude });
  } catch (error) {
    if (!(error instanceof RslCompileError)) throw error;
    for (const diagnostic of error.diagnostics) console.error(formatDiagnostic(diagnostic));
    return 1;
  }
  const milliseconds = performance.now() - start;
  for (const diagnostic of compiled.diagnostics) console.error(formatDiagnostic(diagnostic));
  if (options.dump === 'ir') {
    console.log(JSON.stringify(compiled.ir, null, 1));
  } else if (options.output) {
    writeFileSync(options.output, compiled.code);
  } else {
    console.log(compiled.code);
  }
  const parameters = compiled.params.entries.map((entry) => `${entry.name}:${entry.type}`).join(' ');
  console.error(
    `${shader.shaderKind} ${shader.name}: ${compiled.code.split('\n').length} lines of WGSL in ${milliseconds.toFixed(0)} ms; ` +
      `parameters ${parameters || '(none)'}; ${compiled.scratchBytesPerVertex} scratch bytes per vertex`,
  );
  return 0;
}
