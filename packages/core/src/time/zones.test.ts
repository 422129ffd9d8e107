import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { formatKst, KST_ZONE, parseDate, parseDateTime, toKst } from './zones.js';

describe('parseDateTime', () => {
  it.each([
    ['2026-11-23T09:01:00.000+09:00', 540, 1795392060000],
    ['2026-11-23T09:01:00+09:00', 540, 1795392060000],
    ['2026-11-23T00:01:00Z', 0, 1795392060000],
    ['2026-11-22T19:01:00.5-05:00', -300, 1795392060500],
  ])('parses %s keeping its offset', (input, offset, ms) => {
    const dt = parseDateTime(input, 'timestamp');
    expect(dt.offset).toBe(offset);
    expect(dt.toMillis()).toBe(ms);
  });

  it.each([
    ['no offset', '2026-11-23T09:01:00'],
    ['date only', '2026-11-23'],
    ['month 13', '2026-13-01T00:00:00+09:00'],
    ['space separator', '2026-11-23 09:01:00+09:00'],
    ['empty', ''],
    ['number', 1795392060000],
    ['null', null],
  ])('throws a ValidationError naming the field when given %s', (_label, input) => {
    let caught: unknown;
    try {
      parseDateTime(input, 'orderedAt');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).field).toBe('orderedAt');
    expect((caught as ValidationError).code).toBe('invalid-date-time');
  });
});

describe('parseDate', () => {
  it('returns a valid date unchanged', () => {
    expect(parseDate('2026-11-23', 'date')).toBe('2026-11-23');
  });

  it.each([['2026-02-30'], ['20261123'], ['2026-11-23T00:00:00+09:00'], [''], [null], [20261123]])(
    'throws a ValidationError when given %j',
    (input) => {
      expect(() => parseDate(input, 'listDate')).toThrow(/listDate/);
    },
  );
});

describe('formatKst', () => {
  it('writes millisecond precision with +09:00 when the input is in UTC', () => {
    expect(formatKst(DateTime.fromISO('2026-11-23T00:01:00Z', { setZone: true }))).toBe(
      '2026-11-23T09:01:00.000+09:00',
    );
  });
});

describe('toKst', () => {
  it('keeps the instant and switches the zone', () => {
    const ny = DateTime.fromISO('2026-11-23T20:00:00-05:00', { setZone: true });
    const kst = toKst(ny);
    expect(kst.zoneName).toBe(KST_ZONE);
    expect(kst.toMillis()).toBe(ny.toMillis());
    expect(kst.hour).toBe(10);
  });
});
