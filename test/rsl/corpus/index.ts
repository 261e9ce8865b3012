// The corpus: every snippet, and the functions it knows the compiler stubs.
import { GEOMETRY } from './geometry.ts';
import { LANGUAGE } from './language.ts';
import { MATH } from './math.ts';
import { DERIVATIVES, LIGHTING, MESSAGES, STUBS } from './shading.ts';
import type { Snippet } from './snippet.ts';

export const CORPUS: Snippet[] = [...MATH, ...GEOMETRY, ...LANGUAGE, ...DERIVATIVES, ...LIGHTING, ...MESSAGES, ...STUBS];

/** Built-ins the compiler knowingly stubs; each has a snippet asserting its documented result.
 * (texture(), environment(), shadow() and textureinfo() read real maps: test/texture/.) */
export const STUBBED = [
  'incident', 'opposite', 'trace', 'transmission', 'occlusion', 'indirectdiffuse', 'visibility', 'rayinfo', 'gather',
];
