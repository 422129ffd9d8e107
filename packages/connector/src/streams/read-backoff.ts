/**
 * Back-off of an order's detail reads while they fail: read on the next poll, then after skipping
 * 1, 3, 7, … polls (at most {@link MAX_FAILED_READ_SKIP_POLLS}), so a read that keeps failing (a
 * permanent 5xx) does not cost, and report, one failure a poll. A report resets it.
 *
 * @module
 */

/** Most polls skipped between two detail reads of an order whose reads keep failing. */
export const MAX_FAILED_READ_SKIP_POLLS = 31;

/** The read state of one order. */
export interface ReadBackoff {
  /** Detail reads that failed in a row (reset by a report). */
  failedReads: number;
  /** Polls still to skip before its detail is read again. */
  skipPolls: number;
}

/**
 * Whether the detail is to be read on this poll (counts a skipped poll down); once a poll.
 *
 * @param state - the order's read state
 */
export function readDue(state: ReadBackoff): boolean {
  if (state.skipPolls === 0) return true;
  state.skipPolls--;
  return false;
}

/**
 * Takes in a failed read: the next reads back off.
 *
 * @param state - the order's read state
 */
export function readFailed(state: ReadBackoff): void {
  state.failedReads++;
  state.skipPolls = Math.min(2 ** (state.failedReads - 1) - 1, MAX_FAILED_READ_SKIP_POLLS);
}
