// A corpus snippet and how snippets are batched into pipelines. Only Ci and Oi are writable by a
// surface shader, so a batch is one surface shader holding two snippets, each in its own block,
// each computing `color r` that the batch then writes to Ci or Oi. Batches group snippets with the
// same grid and light set; every pipeline creation costs 0.1–1 s on the software driver.
import type { PipelineDescription } from '../../../src/rsl/compile.ts';
import type { GridName } from './inputs.ts';
import { CORPUS_OPTIONS, LIGHT_SETS } from './inputs.ts';

export interface Snippet {
  name: string;
  /** Statements that set `color r` (declared and 0 before they run). */
  body: string;
  /** Shader parameter declarations ("float kd = 2; uniform point p0 = point \"world\" (1, 0, 0)"); names unique in the corpus. */
  params?: string;
  /** Function definitions placed at the top of the shader body; names unique in the corpus. */
  functions?: string;
  grid?: GridName;
  lights?: keyof typeof LIGHT_SETS;
  /** Parameter values for the run (packParameters overrides, by "surface.name"). */
  overrides?: Record<string, number[] | string>;
  /** A hand-checked result at every vertex, besides agreeing with the interpreter. */
  expect?: number[];
  /** For functions the compiler stubs: the documented behaviour this snippet asserts. */
  stub?: string;
}

export interface Batch {
  key: string;
  grid: GridName;
  lights: keyof typeof LIGHT_SETS;
  snippets: Snippet[];
  description: PipelineDescription;
  overrides: Record<string, number[] | string>;
}

export const OUTPUTS = ['Ci', 'Oi'] as const;

export function shaderSource(snippets: Snippet[], name = 'corpus'): string {
  const params = snippets.map((s) => s.params).filter((p): p is string => !!p).join(';\n  ');
  const functions = snippets.map((s) => s.functions ?? '').join('\n');
  const blocks = snippets.map((s, k) => `  /* ${s.name} */\n  {\n    color r = 0;\n    ${s.body}\n    ${OUTPUTS[k]} = r;\n  }`);
  return `surface ${name}(${params}) {\n${functions}\n${blocks.join('\n')}\n}\n`;
}

export function batches(snippets: Snippet[], maxVertices: number): Batch[] {
  const groups = new Map<string, Snippet[]>();
  for (const s of snippets) {
    const key = `${s.grid ?? 'curved'}/${s.lights ?? 'none'}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const out: Batch[] = [];
  for (const [key, list] of groups) {
    for (let k = 0; k < list.length; k += OUTPUTS.length) {
      const chunk = list.slice(k, k + OUTPUTS.length);
      const [grid, lights] = key.split('/') as [GridName, keyof typeof LIGHT_SETS];
      const set = LIGHT_SETS[lights]!;
      out.push({
        key: `${key}#${k / OUTPUTS.length}`, grid, lights, snippets: chunk,
        description: { surface: { source: shaderSource(chunk), file: `${chunk.map((s) => s.name).join('+')}.sl` }, lights: set.lights, maxVertices, options: CORPUS_OPTIONS },
        overrides: Object.assign({}, set.overrides, ...chunk.map((s) => s.overrides ?? {})),
      });
    }
  }
  return out;
}
