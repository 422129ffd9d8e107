/**
 * `--from`/`--to` of candle commands: an ISO date-time with offset, or a date. A date means the
 * whole day of the symbol's market: KST midnight for KR; for US, daily candles are stamped with the
 * KST midnight of their New York trading date and minute candles of trading date D start at 20:00
 * New York on D-1. `--to` with a date includes that day.
 *
 * @module
 */
import { DateTime } from 'luxon';
import { usageError } from '../../runtime/exit-codes.js';

const KST = 'Asia/Seoul';
const NEW_YORK = 'America/New_York';

/** Whether a symbol trades in Korea (six characters starting with a digit, e.g. 005930). */
export function isKrSymbol(symbol: string): boolean {
  return /^\d[0-9A-Z]{5}$/.test(symbol);
}

function dayStart(date: string, symbol: string, interval: '1m' | '1d'): DateTime {
  if (isKrSymbol(symbol) || interval === '1d') return DateTime.fromISO(date, { zone: KST });
  return DateTime.fromISO(date, { zone: NEW_YORK }).minus({ days: 1 }).set({ hour: 20 });
}

/**
 * Parses one bound.
 *
 * @param value - what the user typed
 * @param flag - `--from` or `--to`
 * @param symbol - the symbol (its market decides what a date means)
 * @param interval - `1m` or `1d`
 * @param command - for the usage hint
 */
export function parseBound(
  value: string,
  flag: '--from' | '--to',
  symbol: string,
  interval: '1m' | '1d',
  command: string,
): DateTime {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = DateTime.fromISO(value, { zone: KST });
    if (!start.isValid) throw usageError(`${flag}: "${value}" is not a calendar date`, command);
    const day = dayStart(value, symbol, interval);
    return flag === '--from' ? day : day.plus({ days: 1 });
  }
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    throw usageError(
      `${flag}: expected a date (2026-11-01) or a date-time with offset (2026-11-01T09:00:00+09:00), found "${value}"`,
      command,
    );
  }
  const parsed = DateTime.fromISO(value, { setZone: true });
  if (!parsed.isValid) throw usageError(`${flag}: "${value}" is not a valid date-time`, command);
  return parsed;
}

/**
 * Parses `--from` and `--to`; `--from` must come before `--to`.
 *
 * @returns the bounds given
 */
export function parseRange(
  flags: { from?: string; to?: string },
  symbol: string,
  interval: '1m' | '1d',
  command: string,
): { from?: DateTime; to?: DateTime } {
  const from =
    flags.from === undefined ? undefined : parseBound(flags.from, '--from', symbol, interval, command);
  const to = flags.to === undefined ? undefined : parseBound(flags.to, '--to', symbol, interval, command);
  if (from !== undefined && to !== undefined && from >= to) {
    throw usageError(`--from ${flags.from} is not before --to ${flags.to}`, command);
  }
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}
