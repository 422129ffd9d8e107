import { describe, expect, it } from 'vitest';
import { counted } from './counted.js';

describe('counted', () => {
  it('says one in the singular and any other count in the plural', () => {
    expect(counted(1, 'order')).toBe('1 order');
    expect(counted(0, 'order')).toBe('0 orders');
    expect(counted(2, 'order event')).toBe('2 order events');
  });

  it('groups thousands as the CLI prints numbers', () => {
    expect(counted(1250, 'candle')).toBe('1,250 candles');
  });

  it('takes a plural that is not the singular with an s', () => {
    expect(counted(3, 'entry', 'entries')).toBe('3 entries');
    expect(counted(1, 'entry', 'entries')).toBe('1 entry');
  });
});
