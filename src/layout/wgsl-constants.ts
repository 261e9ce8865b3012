// WGSL declarations generated from the layouts of this folder: a kernel never spells an offset or a
// flag by hand, it asks for the layout (`// @layout NAME`, kernel-sources.ts) and gets these lines.

/** Named u32 values that become WGSL constants `PREFIX` + the key in upper snake case. */
export interface ConstantGroup {
  prefix: string;
  values: Readonly<Record<string, number>>;
}

/** `paramBase` → `PARAM_BASE`, `Cs` → `CS`, `u0` → `U0`. */
export function upperSnake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The WGSL name of `key` in `group`. */
export function constantName(group: ConstantGroup, key: string): string {
  return `${group.prefix}${upperSnake(key)}`;
}

/** `const NAME: u32 = Vu;` for every value of the groups, one per line. */
export function wgslConstants(groups: readonly ConstantGroup[]): string {
  const lines: string[] = [];
  for (const group of groups) {
    for (const [key, value] of Object.entries(group.values)) {
      if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new Error(`layout constant ${constantName(group, key)} = ${value} is not a u32`);
      lines.push(`const ${constantName(group, key)}: u32 = ${value}u;`);
    }
  }
  return lines.join('\n');
}
