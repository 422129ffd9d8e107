/**
 * The warnings of `hoga run`, each kind said once and its repeats counted: a broker outage fails
 * every poll, and a line per failed poll (several a second) buried the run's own lines.
 *
 * @module
 */

/** How long the repeats of a warning are only counted (real time: the pace of a reader). */
const QUIET_MS = 60_000;

interface Seen {
  /** When it was last printed (real ms). */
  printedAt: number;
  /** The place and the message of the last one (printed or counted). */
  where: string;
  message: string;
  /** Repeats since the last print, not printed. */
  repeats: number;
}

/**
 * Prints a warning the first time it comes, then counts its repeats (the same kind of stream and
 * message, its symbols, numbers and request ids aside) for a minute; the next one after that says
 * how many came meanwhile, and {@link flush} tells what is still counted (at the run's stop), with
 * the last one counted.
 */
export class RepeatedWarnings {
  private readonly seen = new Map<string, Seen>();

  /**
   * @param print - writes one line
   * @param now - real time, ms (tests give their own)
   */
  constructor(
    private readonly print: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A warning at `at` (the run's clock, as text) from `where`.
   *
   * @param where - what failed (a stream, the account, ...)
   * @param message - what it said
   */
  warn(at: string, where: string, message: string): void {
    const key = kindOf(where, message);
    const now = this.now();
    const seen = this.seen.get(key);
    if (seen !== undefined && now - seen.printedAt < QUIET_MS) {
      seen.repeats += 1;
      seen.where = where;
      seen.message = message;
      return;
    }
    const more =
      seen !== undefined && seen.repeats > 0 ? ` (${moreLikeIt(seen.repeats)} in the last minute)` : '';
    this.seen.set(key, { printedAt: now, where, message, repeats: 0 });
    this.print(`${at} warning: ${where}: ${message}${more}`);
  }

  /** Tells each warning's repeats not yet printed, with the last of them as it came. */
  flush(at: string): void {
    for (const seen of this.seen.values()) {
      if (seen.repeats === 0) continue;
      this.print(`${at} warning: ${seen.where}: ${moreLikeIt(seen.repeats)}, the last: ${seen.message}`);
      seen.repeats = 0;
    }
  }
}

/**
 * A warning's kind: the stream it came from without its symbol and interval (`candles:005930:1m`
 * is `candles`: an outage fails every symbol's), and its message without request ids and numbers.
 */
function kindOf(where: string, message: string): string {
  const text = message.replace(/\(request [^)]*\)/g, '').replace(/\d+(\.\d+)?/g, '#');
  return `${where.split(':')[0]}\u0000${text}`;
}

function moreLikeIt(n: number): string {
  return `${n} more like it`;
}
