/**
 * Half-open time ranges `[start, end)` in epoch ms: merging and subtraction.
 *
 * @module
 */

/** The instants `start <= t < end` (epoch ms). */
export interface TimeRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Merges overlapping and adjacent ranges (`[1,3)` and `[3,5)` become `[1,5)`); empty ranges are
 * dropped.
 *
 * @returns disjoint, non-adjacent ranges sorted by start
 */
export function mergeRanges(ranges: readonly TimeRange[]): TimeRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: TimeRange[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && r.start <= last.end) {
      merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, r.end) };
    } else {
      merged.push({ start: r.start, end: r.end });
    }
  }
  return merged;
}

/**
 * The parts of `wanted` not inside any of `covered`.
 *
 * @returns disjoint ranges sorted by start (empty when `wanted` is fully covered)
 */
export function subtractRanges(wanted: TimeRange, covered: readonly TimeRange[]): TimeRange[] {
  const gaps: TimeRange[] = [];
  let cursor = wanted.start;
  for (const c of mergeRanges(covered)) {
    if (c.end <= cursor) continue;
    if (c.start >= wanted.end) break;
    if (c.start > cursor) gaps.push({ start: cursor, end: c.start });
    cursor = Math.max(cursor, c.end);
    if (cursor >= wanted.end) break;
  }
  if (cursor < wanted.end) gaps.push({ start: cursor, end: wanted.end });
  return gaps;
}
