// `reyes compile-shader file.sl [-o out.wgsl] [--dump ir] [--partition rds|rds_h|mrds|dp|auto]
// [--limits tiny|default|FILE]`: compiles one shader (surface, displacement, light, volume or imager)
// alone into its WGSL kernel, or prints its errors. With --partition or --limits it reports the
// passes the kernel splits into under the resource model (src/rsl/partition): what each computes,
// recomputes, saves and restores, and the predicted cost; -o then writes one file per pass.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkSource, compilePipeline, formatShaderDiagnostic as formatDiagnostic, type MultipassKernel, parseResourceModel, PARTITION_ALGORITHMS, type PartitionAlgorithm, type PipelineDescription, RESOURCE_PROFILES, type ResourceModel, RslCompileError, type ShaderKind } from '../index.ts';
import { fileIncludeResolver } from '../node.ts';

export interface CompileShaderOptions {
  output?: string;
  dump?: string;
  shaderPath?: string[];
  partition?: string;
  limits?: string;
}

/** The resource model --limits names: a profile, or a JSON file of limits over the default profile. */
function readLimits(limits: string): ResourceModel {
  if (limits === 'tiny' || limits === 'default') return RESOURCE_PROFILES[limits];
  return parseResourceModel(readFileSync(limits, 'utf8'), limits);
}

export async function compileShaderCommand(file: string, options: CompileShaderOptions): Promise<number> {
  if (options.dump !== undefined && options.dump !== 'ir') {
    console.error(`reyes: --dump takes "ir", not "${options.dump}"`);
    return 1;
  }
  if (options.partition !== undefined && !PARTITION_ALGORITHMS.includes(options.partition as PartitionAlgorithm)) {
    console.error(`reyes: --partition takes ${PARTITION_ALGORITHMS.join(', ')}, not "${options.partition}"`);
    return 1;
  }
  let resources: ResourceModel | undefined;
  try {
    if (options.limits !== undefined) resources = readLimits(options.limits);
  } catch (error) {
    console.error(`reyes: --limits: ${(error as NodeJS.ErrnoException).code ? `cannot read ${options.limits}: ${(error as NodeJS.ErrnoException).code}` : (error as Error).message}`);
    return 1;
  }
  const partitioning = options.partition !== undefined || resources !== undefined;
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
    compiled = compilePipeline({
      ...description, resolveInclude,
      ...(partitioning ? { partition: { algorithm: (options.partition ?? 'auto') as PartitionAlgorithm, ...(resources ? { resources } : {}) } } : {}),
    });
  } catch (error) {
    if (!(error instanceof RslCompileError)) throw error;
    for (const diagnostic of error.diagnostics) console.error(formatDiagnostic(diagnostic));
    return 1;
  }
  const milliseconds = performance.now() - start;
  for (const diagnostic of compiled.diagnostics) console.error(formatDiagnostic(diagnostic));
  if (options.dump === 'ir') {
    console.log(JSON.stringify(compiled.ir, null, 1));
  } else if (partitioning) {
    if (compiled.multipass && options.output) compiled.multipass.passes.forEach((pass, p) => writeFileSync(options.output!.replace(/(\.wgsl)?$/, `.pass${p + 1}.wgsl`), pass.code));
    else if (options.output) writeFileSync(options.output, compiled.code);
    console.log(compiled.multipass ? passReport(compiled.multipass) : 'the kernel fits one pass of the resource model');
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

function passReport(multipass: MultipassKernel): string {
  const lines = [`${multipass.passes.length} passes (${multipass.algorithm}, ${multipass.milliseconds.toFixed(0)} ms), predicted cost ${multipass.cost.toFixed(0)} per vertex, ${multipass.intermediateFloats} intermediate floats per vertex`];
  multipass.passes.forEach((pass, p) => {
    lines.push(`pass ${p + 1}: ${pass.instructions} instructions (${pass.recomputed} recomputed), ${pass.operations} operations, ${pass.liveValues} live values, ${pass.code.split('\n').length} lines of WGSL`);
    if (pass.restores.length > 0) lines.push(`  restores ${pass.restoredFloats} floats: ${pass.restores.join(', ')}`);
    if (pass.saves.length > 0) lines.push(`  saves ${pass.savedFloats} floats: ${pass.saves.join(', ')}`);
  });
  return lines.join('\n');
}
