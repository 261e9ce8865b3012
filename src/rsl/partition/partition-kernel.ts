// The compiler's use of the partitioners: the kernel's IR as a graph (from-ir.ts); when it does not
// fit one pass of the resource model, the partition the chosen algorithm finds, emitted as one WGSL
// kernel per pass (emit-passes.ts), with a report of what each pass computes, saves and restores.
import type { Diagnostics } from '../diagnostics.ts';
import type { IrModule } from '../ir.ts';
import type { GridLayout } from '../../layout/grid-layout.ts';
import type { WgslOptions } from '../wgsl.ts';
import { usesTextures } from '../../texture/texture-wgsl.ts';
import { emitPasses, INTERMEDIATE_BINDING } from './emit-passes.ts';
import { irToGraph } from './from-ir.ts';
import { PartitionError } from './graph.ts';
import { partitionGraph } from './index.ts';
import type { PartitionAlgorithm } from './index.ts';
import type { CostModel, ResourceModel } from './model.ts';
import { DEFAULT_COSTS, DEFAULT_RESOURCES } from './model.ts';

export interface PartitionOptions {
  algorithm?: PartitionAlgorithm;
  resources?: ResourceModel;
  costs?: CostModel;
}

export interface KernelPass {
  code: string;
  entryPoint: string;
  /** Top-level instructions of the pipeline it runs, those also run by another pass among them. */
  instructions: number;
  recomputed: number;
  operations: number;
  liveValues: number;
  /** Floats per vertex it writes to and reads from the intermediate buffer. */
  savedFloats: number;
  restoredFloats: number;
  /** What it saves and restores, as the graph's node labels. */
  saves: string[];
  restores: string[];
  /** It declares the loop flags (binding LOOP_FLAG_BINDING): a pass without flagged loops binds none. */
  loopFlags: boolean;
  /** It declares the texture atlas and feedback (bindings 5 and 6): a pass without lookups binds neither. */
  textures: boolean;
}

export interface MultipassKernel {
  passes: KernelPass[];
  /** Floats per vertex of the intermediate buffer (binding `intermediateBinding`). */
  intermediateFloats: number;
  intermediateBinding: number;
  algorithm: PartitionAlgorithm;
  /** The cost model's figure for the partition. */
  cost: number;
  /** Milliseconds the partitioner took. */
  milliseconds: number;
}

export function partitionKernel(
  ir: IrModule, layout: GridLayout, options: PartitionOptions, diagnostics: Diagnostics, emit: { noUniformHoisting?: boolean; maxLoopIterations?: number; loopFlags?: WgslOptions['loopFlags'] },
): MultipassKernel | undefined {
  const resources = options.resources ?? DEFAULT_RESOURCES;
  const costs = options.costs ?? DEFAULT_COSTS;
  const graph = irToGraph(ir, layout);
  let result;
  try {
    result = partitionGraph(graph.graph, options.algorithm ?? 'auto', costs, resources);
  } catch (error) {
    if (!(error instanceof PartitionError)) throw error;
    // Live values and operations are budgets of speed, not of what a device can run: a node over one
    // alone (a big local array, a huge loop body) runs in a single pass as it would unpartitioned.
    if (error.limit === 'liveValues' || error.limit === 'operations') {
      diagnostics.warning({ file: 'pipeline', line: 1, column: 1 }, `the kernel runs as one pass: ${error.message}, so no partition fits the ${error.limit} budget`);
      return undefined;
    }
    diagnostics.error({ file: 'pipeline', line: 1, column: 1 }, `the kernel cannot be split into passes that fit the resource model: ${error.message}`);
    return undefined;
  }
  if (result.algorithm === 'single') return undefined;
  const emitted = emitPasses(ir, graph, result, layout, { workgroupBytes: resources.workgroupBytes, ...emit });
  const label = (c: number): string => result.contracted.graph.nodes[c]!.label ?? String(c);
  return {
    passes: result.partition.passes.map((pass, p) => ({
      code: emitted.kernels[p]!.wgsl.code, entryPoint: emitted.kernels[p]!.wgsl.entryPoint,
      instructions: emitted.kernels[p]!.instructions, recomputed: pass.recomputed.length,
      operations: result.partition.use[p]!.operations, liveValues: result.partition.use[p]!.liveValues,
      savedFloats: emitted.kernels[p]!.savedFloats, restoredFloats: emitted.kernels[p]!.restoredFloats,
      saves: pass.saves.map(label), restores: pass.restores.map(label),
      loopFlags: emitted.kernels[p]!.wgsl.loopFlags, textures: usesTextures(emitted.kernels[p]!.wgsl.code),
    })),
    intermediateFloats: emitted.intermediateFloats, intermediateBinding: INTERMEDIATE_BINDING,
    algorithm: result.algorithm, cost: result.partition.cost, milliseconds: result.milliseconds,
  };
}
