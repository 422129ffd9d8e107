import { describe, expect, it } from 'vitest';
import { MarkBook } from './mark-book.js';

describe('MarkBook', () => {
  it('keeps the newer of two timed prices, a price of the same moment replacing the one it has', () => {
    const marks = new MarkBook();
    expect(marks.setAt('005930', 57_000, 2_000)).toBe(true);
    // a candle that closed before the price was read
    expect(marks.setAt('005930', 55_100, 1_000)).toBe(false);
    expect(marks.get('005930')).toBe(57_000);
    expect(marks.setAt('005930', 57_100, 2_000)).toBe(true);
    expect(marks.setAt('005930', 57_200, 3_000)).toBe(true);
    expect(marks.get('005930')).toBe(57_200);
  });

  it('takes any timed price over one set without a time, and `set` over anything', () => {
    const marks = new MarkBook();
    marks.set('AAPL', 230);
    expect(marks.setAt('AAPL', 229, 0)).toBe(true);
    marks.set('AAPL', 231);
    expect(marks.get('AAPL')).toBe(231);
    expect(marks.setAt('AAPL', 228, -1)).toBe(false);
  });

  it('keeps each symbol’s time as the book grows past its first slots', () => {
    const marks = new MarkBook();
    for (let i = 0; i < 40; i++) marks.setAt(`S${i}`, i, 1_000 + i);
    for (let i = 0; i < 40; i++) {
      expect(marks.setAt(`S${i}`, -1, 999 + i)).toBe(false);
      expect(marks.get(`S${i}`)).toBe(i);
    }
    expect(marks.values[marks.slot('S39')]).toBe(39);
  });
});
