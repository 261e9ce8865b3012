// format()'s text from arguments known at compile time (RI 3.2 section 15.7): printf conversions for
// numbers and strings, with RSL's %c, %p, %v and %n printing a triple as three numbers and %m a
// matrix as sixteen, each number with the conversion's flags as %f.
import { sprintf } from 'sprintf-js';

const CONVERSION = /%([-+ 0#]*\d*(?:\.\d+)?)([a-zA-Z%])/g;

export function formatConstant(format: string, args: readonly (readonly number[] | string)[]): string {
  let next = 0;
  return format.replace(CONVERSION, (whole, flags: string, kind: string) => {
    if (kind === '%') return '%';
    const arg = args[next++];
    if (arg === undefined) return whole;
    if (typeof arg === 'string') return sprintf(`%${flags}s`, arg);
    if (kind === 's') return arg.map((x) => String(x)).join(' ');
    if (kind === 'd' || kind === 'i') return sprintf(`%${flags}d`, Math.trunc(arg[0]!));
    const conversion = 'feEgG'.includes(kind) ? kind : 'f';
    return arg.map((x) => sprintf(`%${flags}${conversion}`, x)).join(' ');
  });
}
