// Parameter declarations: the storage class and type of each named parameter. RIB knows a
// parameter's type from the standard declarations, from a Declare request, or from an inline
// declaration written in the parameter's own name ("uniform float Kd", "float[2] st").

export type StorageClass = 'constant' | 'uniform' | 'varying' | 'vertex' | 'facevarying' | 'facevertex';
export type ValueType = 'float' | 'integer' | 'string' | 'point' | 'vector' | 'normal' | 'color' | 'hpoint' | 'matrix';

export interface Declaration {
  storage: StorageClass;
  type: ValueType;
  /** Array length for "float[2]"-style declarations; null for a scalar. */
  arrayLength: number | null;
}

const STORAGE_CLASSES: ReadonlySet<string> = new Set(['constant', 'uniform', 'varying', 'vertex', 'facevarying', 'facevertex']);
const TYPE_NAMES: Record<string, ValueType> = {
  float: 'float', integer: 'integer', int: 'integer', string: 'string', point: 'point',
  vector: 'vector', normal: 'normal', color: 'color', hpoint: 'hpoint', matrix: 'matrix',
};

/** Numbers per element of each type; colours have as many as ColorSamples says (3 by default). */
export function componentsPerElement(type: ValueType, colorSamples = 3): number {
  switch (type) {
    case 'float': case 'integer': case 'string': return 1;
    case 'point': case 'vector': case 'normal': return 3;
    case 'color': return colorSamples;
    case 'hpoint': return 4;
    case 'matrix': return 16;
  }
}

/** Values per element, counting array length: "float[2]" → 2, "color" → 3. */
export function valuesPerElement(decl: Declaration, colorSamples = 3): number {
  return componentsPerElement(decl.type, colorSamples) * (decl.arrayLength ?? 1);
}

const DECLARATION_PATTERN = /^\s*(?:(\w+)\s+)?(\w+)\s*(?:\[\s*(\d+)\s*\])?\s*$/;

/**
 * Parses the declaration part of Declare ("uniform float", "varying color", "float[2]").
 * Returns a message when the text is not a declaration.
 */
export function parseDeclaration(text: string): Declaration | string {
  const m = DECLARATION_PATTERN.exec(text);
  if (!m) return `'${text}' is not a type declaration`;
  const [, storageWord, typeWord = '', length] = m;
  if (storageWord !== undefined && !STORAGE_CLASSES.has(storageWord)) return `unknown storage class '${storageWord}' in '${text}'`;
  const type = TYPE_NAMES[typeWord];
  if (!type) return `unknown type '${typeWord}' in '${text}'`;
  const arrayLength = length === undefined ? null : Number(length);
  if (arrayLength === 0) return `array length 0 in '${text}'`;
  return { storage: (storageWord as StorageClass | undefined) ?? 'uniform', type, arrayLength };
}

/**
 * Splits an inline declaration "uniform float Kd" into its declaration and name. Returns null when
 * the text is a plain name (one word), a message when it looks like a declaration but is not one.
 */
export function parseInlineDeclaration(text: string): { name: string; decl: Declaration } | string | null {
  const trimmed = text.trim();
  const lastSpace = trimmed.search(/\s\S+$/);
  if (lastSpace < 0) return null;
  const name = trimmed.slice(lastSpace + 1);
  const decl = parseDeclaration(trimmed.slice(0, lastSpace));
  return typeof decl === 'string' ? `bad inline declaration '${text}': ${decl}` : { name, decl };
}

function d(storage: StorageClass, type: ValueType, arrayLength: number | null = null): Declaration {
  return { storage, type, arrayLength };
}

/** The declarations every RIB starts with (RI 3.2 standard variables and shader parameters). */
export const STANDARD_DECLARATIONS: ReadonlyMap<string, Declaration> = new Map([
  // Primitive variables.
  ['P', d('vertex', 'point')], ['Pw', d('vertex', 'hpoint')], ['Pz', d('vertex', 'float')],
  ['N', d('varying', 'normal')], ['Np', d('uniform', 'normal')],
  ['Cs', d('varying', 'color')], ['Os', d('varying', 'color')],
  ['s', d('varying', 'float')], ['t', d('varying', 'float')], ['st', d('varying', 'float', 2)],
  ['width', d('varying', 'float')], ['constantwidth', d('constant', 'float')],
  // Standard shader parameters.
  ['Ka', d('uniform', 'float')], ['Kd', d('uniform', 'float')], ['Ks', d('uniform', 'float')],
  ['Kr', d('uniform', 'float')], ['Km', d('uniform', 'float')], ['roughness', d('uniform', 'float')],
  ['specularcolor', d('uniform', 'color')], ['texturename', d('uniform', 'string')],
  ['intensity', d('uniform', 'float')], ['lightcolor', d('uniform', 'color')],
  ['from', d('uniform', 'point')], ['to', d('uniform', 'point')],
  ['coneangle', d('uniform', 'float')], ['conedeltaangle', d('uniform', 'float')],
  ['beamdistribution', d('uniform', 'float')], ['amplitude', d('uniform', 'float')],
  ['background', d('uniform', 'color')], ['distance', d('uniform', 'float')],
  ['mindistance', d('uniform', 'float')], ['maxdistance', d('uniform', 'float')],
  // Projection, display, options and attributes in common use.
  ['fov', d('uniform', 'float')], ['origin', d('uniform', 'integer', 2)],
  ['name', d('uniform', 'string')], ['shadinggroup', d('uniform', 'string')],
  ['sphere', d('uniform', 'float')], ['coordinatesystem', d('uniform', 'string')],
  ['archive', d('uniform', 'string')], ['shader', d('uniform', 'string')],
  ['texture', d('uniform', 'string')], ['procedural', d('uniform', 'string')],
  ['bucketsize', d('uniform', 'integer', 2)], ['gridsize', d('uniform', 'integer')],
  ['jitter', d('uniform', 'integer')], ['depthfilter', d('uniform', 'string')],
]);
