// Specialisation of a kernel's text to its pipeline's constants, before the WGSL compiler sees it.
// Overrides leave a frame's unused paths (blur, trims, clipping planes) in the kernel, only folded
// away late by the driver's compiler: creating a pipeline costs nearly as much for code under a
// branch that an override makes dead as for live code (lavapipe, warm shader cache: 300 lines behind
// `if (F)` with F false took 40 ms, without them 1.4 ms). So a kernel marks such code
//   // @if NAME || NAME2
//   ...
//   // @endif
// and the block is dropped when every name is known false: a pipeline constant given as 0, or a
// `const NAME = false;` of the kernel. A term `NAME bit K` is bit K of constant NAME, K a
// `const K: u32 = Nu;` of the kernel (`SHAPE_KINDS bit KIND_SPHERE`: the frame has spheres), and a
// term may be negated with !. A name neither knows keeps the block, and the code inside still tests
// its conditions at run time, so dropping a block only removes what could not run.
// Dropped lines are left empty, so the compiler's messages keep their line numbers.

const IF = /^[ \t]*\/\/ @if[ \t]+(.+?)[ \t]*$/;
const ENDIF = /^[ \t]*\/\/ @endif[ \t]*$/;
const TERM = /^(!?)([A-Z_][A-Z0-9_]*)(?:[ \t]+bit[ \t]+([A-Z_][A-Z0-9_]*))?$/;
const CONST_BOOL = /^const[ \t]+([A-Z_][A-Z0-9_]*)[ \t]*=[ \t]*(true|false)[ \t]*;/gm;
const CONST_U32 = /^const[ \t]+([A-Z_][A-Z0-9_]*)[ \t]*:[ \t]*u32[ \t]*=[ \t]*(\d+)u[ \t]*;/gm;

/** `code` with the `// @if` blocks that cannot run under `constants` emptied (see above). */
export function specialiseKernel(code: string, constants: Readonly<Record<string, number>> = {}): string {
  if (!code.includes('// @if')) return code;
  const known: Known = { flags: new Map(), numbers: new Map(Object.entries(constants)), bits: new Map() };
  for (const [, name, value] of code.matchAll(CONST_BOOL)) known.flags.set(name!, value === 'true');
  for (const [, name, value] of code.matchAll(CONST_U32)) known.bits.set(name!, Number(value));
  for (const [name, value] of Object.entries(constants)) known.flags.set(name, value !== 0);
  const lines = code.split('\n');
  // Per open block: whether it is dropped, and its line (for an unclosed block's message).
  const open: { drop: boolean; line: number }[] = [];
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    const condition = IF.exec(line);
    const dropping = open.some((block) => block.drop);
    if (condition) {
      open.push({ drop: dropping || isFalse(condition[1]!, known, k + 1), line: k + 1 });
      lines[k] = '';
    } else if (ENDIF.test(line)) {
      if (!open.pop()) throw new Error(`kernel line ${k + 1}: // @endif without // @if`);
      lines[k] = '';
    } else if (dropping) {
      lines[k] = '';
    }
  }
  if (open.length > 0) throw new Error(`kernel line ${open[open.length - 1]!.line}: // @if without // @endif`);
  return lines.join('\n');
}

interface Known {
  /** Truth of names: constants given, and the kernel's boolean consts. */
  flags: Map<string, boolean>;
  /** Values of the constants given. */
  numbers: Map<string, number>;
  /** The kernel's u32 consts, for `bit` terms. */
  bits: Map<string, number>;
}

/** Whether every term of `condition` (see above, joined by ||) is known false. */
function isFalse(condition: string, known: Known, line: number): boolean {
  return condition.split('||').every((text) => {
    const term = TERM.exec(text.trim());
    if (!term) throw new Error(`kernel line ${line}: // @if takes NAME, !NAME or NAME bit K terms joined by ||, not "${condition}"`);
    const [, negated, name, bit] = term;
    let value: boolean | undefined;
    if (bit === undefined) {
      value = known.flags.get(name!);
    } else {
      const word = known.numbers.get(name!);
      const k = known.bits.get(bit);
      if (word !== undefined && k !== undefined) value = ((word >>> k) & 1) === 1;
    }
    return value !== undefined && value === (negated === '!');
  });
}
