// Search paths as PRMan and Aqsis read them: Option "searchpath" "shader" ["a:&:@"] lists folders
// separated by ':', where "&" stands for the path set before and "@" for the default path. The
// scene builder replaces "&" as each Option arrives (only it knows the previous value); "@", and
// an "&" with nothing before it, are left for the consumer, which knows its default path.

import type { Parameter } from './scene.ts';

/** The entries of a search path value. */
export function searchPathEntries(text: string): string[] {
  return text.split(':').filter((entry) => entry !== '');
}

/** One searchpath parameter with "&" replaced by the same-named entry of the previous Option. */
export function expandPrevious(param: Parameter, previous: readonly Parameter[] | undefined): Parameter {
  const before = previous?.find((p) => p.name === param.name)?.values[0];
  const text = param.values[0];
  if (typeof text !== 'string' || typeof before !== 'string') return param;
  const entries = searchPathEntries(text).flatMap((entry) => (entry === '&' ? searchPathEntries(before) : [entry]));
  return { ...param, values: [entries.join(':')] };
}

/** The folders of a search path value: "&" and "@" become `defaults`, the rest go through `place`. */
export function expandDefaults(text: string, defaults: readonly string[], place: (entry: string) => string): string[] {
  const out: string[] = [];
  for (const entry of searchPathEntries(text)) {
    for (const dir of entry === '&' || entry === '@' ? defaults : [place(entry)]) if (!out.includes(dir)) out.push(dir);
  }
  return out;
}
