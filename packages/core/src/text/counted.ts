/**
 * Counts in messages for people: `1 order`, `2 orders`, `1,250 candles`.
 *
 * @module
 */

/**
 * `n` and its noun, plural unless `n` is 1, the number grouped as the CLI prints numbers.
 *
 * @param n - how many
 * @param noun - the singular (`order event`)
 * @param plural - the plural, when it is not the singular with an `s` (`entries`)
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}
