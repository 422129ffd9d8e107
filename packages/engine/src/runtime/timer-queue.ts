/**
 * Strategy timers, ordered by due time (ties in the order they were set). The mode's driver fires
 * them: the backtest loop before each bar at or after their time, a live scheduler by the clock.
 *
 * @module
 */

/** One pending timer. */
export interface PendingTimer {
  readonly owner: string;
  readonly name: string;
  due: number;
  readonly every: number | undefined;
  readonly seq: number;
}

/** A small priority list of timers (strategies set few; a sorted array is enough). */
export class TimerQueue {
  private readonly timers: PendingTimer[] = [];
  private seq = 0;
  /** Due time of the earliest timer, or +Infinity (read on the hot path). */
  nextDue = Number.POSITIVE_INFINITY;

  /** Sets (or replaces) `owner`'s timer `name`. */
  set(owner: string, name: string, due: number, every: number | undefined): void {
    this.cancel(owner, name);
    this.insert({ owner, name, due, every, seq: this.seq++ });
  }

  /** Cancels a timer; returns whether it existed. */
  cancel(owner: string, name: string): boolean {
    const at = this.timers.findIndex((t) => t.owner === owner && t.name === name);
    if (at < 0) return false;
    this.timers.splice(at, 1);
    this.nextDue = this.timers[0]?.due ?? Number.POSITIVE_INFINITY;
    return true;
  }

  /** Removes every timer of `owner`. */
  cancelAll(owner: string): void {
    for (let i = this.timers.length - 1; i >= 0; i--)
      if (this.timers[i]?.owner === owner) this.timers.splice(i, 1);
    this.nextDue = this.timers[0]?.due ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Takes the earliest timer due at or before `time` (re-arming a repeating one), or undefined.
   *
   * @param time - the time now
   * @param skipMissed - a repeating timer more than a period behind `time` (paper and live, after
   *   the process could not run) is taken once, due at the latest of its missed firings, and re-armed
   *   after `time`. Before, each missed firing came, back to back (a backtest's timers between two
   *   bars are not missed: each fires with the clock at its time).
   */
  takeDue(time: number, skipMissed = false): PendingTimer | undefined {
    const first = this.timers[0];
    if (first === undefined || first.due > time) return undefined;
    this.timers.shift();
    if (first.every !== undefined && first.every > 0) {
      if (skipMissed && first.due + first.every <= time)
        first.due += Math.floor((time - first.due) / first.every) * first.every;
      this.insert({ ...first, due: first.due + first.every, seq: this.seq++ });
    }
    this.nextDue = this.timers[0]?.due ?? Number.POSITIVE_INFINITY;
    return first;
  }

  private insert(timer: PendingTimer): void {
    let at = this.timers.length;
    while (at > 0 && (this.timers[at - 1]?.due ?? 0) > timer.due) at--;
    this.timers.splice(at, 0, timer);
    this.nextDue = this.timers[0]?.due ?? Number.POSITIVE_INFINITY;
  }
}
