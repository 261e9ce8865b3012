// A uniform struct defined once: the WGSL declaration and the TypeScript packing come from the same
// field list, with WGSL's alignment rules (u32/i32/f32: 4 bytes; vec4f, mat4x4f and array<vec4f, N>: 16).

export type StructFieldType = 'u32' | 'i32' | 'f32' | 'vec4f' | 'mat4x4f' | { vec4fArray: number };

export interface StructField {
  name: string;
  type: StructFieldType;
  /** Shown after the field in the WGSL declaration. */
  comment?: string;
}

export interface UniformStruct {
  name: string;
  /** Each field with its offset in 4-byte words. */
  fields: readonly (StructField & { offset: number; words: number })[];
  /** Words of the whole struct (a multiple of 4: 16-byte aligned). */
  words: number;
  /** The WGSL declaration. */
  wgsl: string;
}

function wgslType(type: StructFieldType): string {
  return typeof type === 'string' ? type : `array<vec4f, ${type.vec4fArray}>`;
}

/** [alignment, size] in words. */
function shape(type: StructFieldType): [number, number] {
  if (typeof type !== 'string') return [4, 4 * type.vec4fArray];
  return type === 'mat4x4f' ? [4, 16] : type === 'vec4f' ? [4, 4] : [1, 1];
}

export function uniformStruct(name: string, fields: readonly StructField[]): UniformStruct {
  let at = 0;
  const placed = fields.map((field) => {
    const [align, words] = shape(field.type);
    at = Math.ceil(at / align) * align;
    const offset = at;
    at += words;
    return { ...field, offset, words };
  });
  const lines = placed.map((f) => `  ${f.name}: ${wgslType(f.type)},${f.comment ? `  // ${f.comment}` : ''}`);
  return { name, fields: placed, words: Math.ceil(at / 4) * 4, wgsl: `struct ${name} {\n${lines.join('\n')}\n}` };
}

/** The struct's words with the given field values (numbers for scalars, arrays for the rest; missing
 * fields are zero). */
export function packUniform(struct: UniformStruct, values: Readonly<Record<string, number | ArrayLike<number>>>): Uint32Array {
  const words = new Uint32Array(struct.words);
  const floats = new Float32Array(words.buffer);
  const ints = new Int32Array(words.buffer);
  for (const [name, value] of Object.entries(values)) {
    const field = struct.fields.find((f) => f.name === name);
    if (!field) throw new Error(`${struct.name} has no field ${name}`);
    if (typeof value === 'number') {
      if (field.type === 'u32') words[field.offset] = value;
      else if (field.type === 'i32') ints[field.offset] = value;
      else if (field.type === 'f32') floats[field.offset] = value;
      else throw new Error(`${struct.name}.${name} takes ${field.words} floats, not one number`);
    } else {
      if (value.length > field.words || (typeof field.type === 'string' && field.type !== 'mat4x4f' && field.type !== 'vec4f')) {
        throw new Error(`${struct.name}.${name} takes ${field.words} floats, not ${value.length}`);
      }
      floats.set(Array.from(value), field.offset);
    }
  }
  return words;
}
