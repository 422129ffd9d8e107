import { describe, expect, it } from 'vitest';
import { mergeRanges, subtractRanges, type TimeRange } from './time-ranges.js';

const r = (start: number, end: number): TimeRange => ({ start, end });

describe('mergeRanges', () => {
  it.each([
    ['nothing', [], []],
    ['one range', [r(1, 3)], [r(1, 3)]],
    ['disjoint ranges, sorted', [r(5, 6), r(1, 3)], [r(1, 3), r(5, 6)]],
    ['overlapping ranges', [r(1, 4), r(3, 6)], [r(1, 6)]],
    ['adjacent ranges', [r(1, 3), r(3, 5)], [r(1, 5)]],
    ['a range inside another', [r(1, 10), r(2, 3)], [r(1, 10)]],
    ['a chain', [r(7, 9), r(1, 3), r(2, 7), r(20, 21)], [r(1, 9), r(20, 21)]],
    ['empty ranges', [r(4, 4), r(5, 2)], []],
  ])('merges %s', (_, input, expected) => {
    expect(mergeRanges(input)).toEqual(expected);
  });
});

describe('subtractRanges', () => {
  it.each([
    ['nothing covered', r(0, 10), [], [r(0, 10)]],
    ['fully covered', r(2, 5), [r(0, 10)], []],
    ['covered exactly', r(2, 5), [r(2, 5)], []],
    ['covered at the start', r(0, 10), [r(0, 4)], [r(4, 10)]],
    ['covered at the end', r(0, 10), [r(6, 12)], [r(0, 6)]],
    ['covered in the middle', r(0, 10), [r(3, 5)], [r(0, 3), r(5, 10)]],
    ['holes between pieces', r(0, 10), [r(1, 2), r(4, 6), r(8, 9)], [r(0, 1), r(2, 4), r(6, 8), r(9, 10)]],
    ['covered outside only', r(5, 6), [r(0, 5), r(6, 9)], [r(5, 6)]],
  ])('returns the gaps when %s', (_, wanted, covered, expected) => {
    expect(subtractRanges(wanted, covered)).toEqual(expected);
  });
});
