import { describe, expect, it } from 'vitest';
import { IdempotencyWindow, normalizedContent } from './idempotency.js';

const text = (fields: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(fields)
      .sort()
      .map((k) => [k, fields[k]]),
  );
const base = { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '1', price: '50000' };

describe('normalizedContent', () => {
  it.each([
    ['timeInForce DAY', { timeInForce: 'DAY' }],
    ['confirmHighValueOrder false', { confirmHighValueOrder: false }],
    ['both defaults', { timeInForce: 'DAY', confirmHighValueOrder: false }],
  ])('equals the bare request when it spells out %s', (_name, extra) => {
    expect(normalizedContent(text({ ...base, ...extra }))).toBe(normalizedContent(text(base)));
  });

  it.each([
    ['timeInForce CLS', { timeInForce: 'CLS' }],
    ['confirmHighValueOrder true', { confirmHighValueOrder: true }],
    ['another quantity', { quantity: '2' }],
  ])('differs from the bare request with %s', (_name, extra) => {
    expect(normalizedContent(text({ ...base, ...extra }))).not.toBe(normalizedContent(text(base)));
  });

  it('compares a text of another shape as it is', () => {
    expect(normalizedContent('not json')).toBe('not json');
    expect(normalizedContent('{"a":1}')).toBe('{"a":1}');
  });
});

describe('IdempotencyWindow', () => {
  describe('.check', () => {
    it('replays an entry persisted before normalization for a request spelling out the defaults', () => {
      const window = new IdempotencyWindow([
        {
          key: '1|id',
          fingerprint: text(base),
          firstSeenMs: 0,
          result: { orderId: 'o1', clientOrderId: 'id' },
        },
      ]);
      const spelled = text({ ...base, timeInForce: 'DAY', confirmHighValueOrder: false });
      expect(window.check(1, 'id', spelled, 1_000)).toEqual({
        kind: 'replay',
        result: { orderId: 'o1', clientOrderId: 'id' },
      });
    });
  });
});
