// Deformation blur: a primitive given in a motion block (several copies with different positions
// and other vertex values) moves between its shapes. Each time sample is converted like the first,
// into records of its own; where they come out as the same pieces (counts and kinds), every piece
// of the first carries its shape at each motion key (motion-keys.ts, KeyShape): the matrix and
// geometry words of the same piece of the samples, interpolated linearly in time between them. The
// grid is diced and shaded once, from the first sample; the kernels move each vertex by the
// difference between the key's surface and the diced one at the vertex's (u, v) (reyes-motion.wgsl).
// Other vertex values (colours, normals, texture coordinates) are shaded from the first sample.
import { RECORD } from '../../layout/primitive-record.ts';
import { KEY_SHAPE } from '../../layout/motion-block.ts';
import type { PrimitiveRecords } from '../primitive-record.ts';
import type { KeyShape } from './motion-keys.ts';

/** One record's kind and shape (matrix and geometry words). */
export interface RecordShape extends KeyShape {
  kind: number;
}

/** The shapes of the records [first, records.count) of `records`. */
export function recordShapes(records: PrimitiveRecords, first = 0): RecordShape[] {
  const floats = records.floats();
  const words = new Uint32Array(floats.buffer, floats.byteOffset, floats.length);
  const shapes: RecordShape[] = [];
  for (let r = first; r < records.count; r++) {
    const base = r * RECORD.floats;
    shapes.push({
      kind: words[base + RECORD.kind]!,
      matrix: floats.slice(base + RECORD.matrix, base + RECORD.matrix + 16),
      geometry: floats.slice(base + RECORD.geometry, base + RECORD.geometry + KEY_SHAPE.geometryFloats),
    });
  }
  return shapes;
}

/** Whether two conversions gave the same pieces: as many, of the same kinds in the same order. */
export function samePieces(a: readonly RecordShape[], b: readonly RecordShape[]): boolean {
  return a.length === b.length && a.every((shape, k) => shape.kind === b[k]!.kind);
}

function lerp(a: ArrayLike<number>, b: ArrayLike<number>, f: number): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! + f * (b[i]! - a[i]!);
  return out;
}

/** Piece `piece`'s shape at `time`, from its shape in each time sample (`samples[k]` at
 * `times[k]`, ascending): linear between samples, held before the first and after the last. */
export function shapeAt(samples: readonly (readonly RecordShape[])[], times: readonly number[], piece: number, time: number): KeyShape {
  const of = (k: number): RecordShape => samples[k]![piece]!;
  if (time <= times[0]!) return of(0);
  for (let k = 1; k < times.length; k++) {
    if (time <= times[k]!) {
      const span = times[k]! - times[k - 1]!;
      const f = span > 0 ? (time - times[k - 1]!) / span : 1;
      return { matrix: lerp(of(k - 1).matrix, of(k).matrix, f), geometry: lerp(of(k - 1).geometry, of(k).geometry, f) };
    }
  }
  return of(times.length - 1);
}

/** Whether any sample's shapes differ from the first's. */
export function deforms(samples: readonly (readonly RecordShape[])[]): boolean {
  const first = samples[0]!;
  return samples.some((shapes) => shapes.some((shape, k) => {
    const base = first[k]!;
    for (let i = 0; i < 16; i++) if (shape.matrix[i] !== base.matrix[i]) return true;
    for (let i = 0; i < shape.geometry.length; i++) if (shape.geometry[i] !== base.geometry[i]) return true;
    return false;
  }));
}
