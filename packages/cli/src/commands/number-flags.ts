/**
 * Parsers of the CLI's numeric flags. A value is plain decimal digits (`1000`, `2.5`; blanks around
 * it are ignored): JavaScript's `Number()` also reads `1e3`, `0x1f4`, `+500` and `Infinity`, which
 * no user of a trading engine means as a poll interval or a timeout, and a typo such as `0x10`
 * would silently become 16. Out of range or malformed, a value is refused with commander's
 * `InvalidArgumentError`, which names the flag and exits 2.
 *
 * @module
 */
import { InvalidArgumentError } from 'commander';

const WHOLE = /^\s*\d+\s*$/;
const DECIMAL = /^\s*\d+(\.\d+)?\s*$/;

/** How a flag's value is described in its error: what it counts, and any note after the range. */
export interface NumberFlagText {
  /** What the value counts, e.g. `whole milliseconds` or `seconds`. */
  readonly what: string;
  /** A sentence part after the range and the value found, e.g. why the floor is where it is. */
  readonly note?: string;
}

function parser(syntax: RegExp, min: number, max: number, text: NumberFlagText): (value: string) => number {
  const range = max === Number.POSITIVE_INFINITY ? `${min} or more` : `from ${min} to ${max}`;
  return (value) => {
    const n = Number(value);
    if (!syntax.test(value) || n < min || n > max) {
      const note = text.note === undefined ? '' : ` ${text.note}`;
      throw new InvalidArgumentError(`expected ${text.what} ${range}, found "${value}"${note}`);
    }
    return n;
  };
}

/**
 * A flag taking a whole number from `min` to `max` (inclusive).
 *
 * @example
 * ```ts
 * command.option('--poll-ms <ms>', 'real ms between order polls', wholeFlag(50, 60_000, { what: 'whole milliseconds' }), 1000);
 * ```
 */
export function wholeFlag(min: number, max: number, text: NumberFlagText): (value: string) => number {
  return parser(WHOLE, min, max, text);
}

/** A flag taking a decimal number (`2`, `2.5`) from `min` to `max` (inclusive; `max` may be +∞). */
export function decimalFlag(min: number, max: number, text: NumberFlagText): (value: string) => number {
  return parser(DECIMAL, min, max, text);
}
