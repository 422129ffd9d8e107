/**
 * The time column of `hoga data export` in the zone `--tz` asks for.
 *
 * @module
 */
import { KST_ZONE, marketOfSymbol, NEW_YORK_ZONE } from '@hoga/core';
import { DateTime } from 'luxon';

/** The zone of a symbol's times in `data export` (`--tz`: `KST`, `exchange` or an IANA zone). */
export function exportZone(symbol: string, tz: string | undefined): string {
  if (tz === undefined || tz === 'KST') return KST_ZONE;
  if (tz === 'exchange') return marketOfSymbol(symbol) === 'US' ? NEW_YORK_ZONE : KST_ZONE;
  return tz;
}

/**
 * A candle's time as `data export` writes it: the ISO date-time of its stamp (the end of a 1m
 * candle) in `zone`; a 1d candle, stamped at its trading date's midnight KST, is that date's
 * midnight in `zone` (the same instant in New York is the day before).
 */
export function exportTime(ts: number, interval: '1m' | '1d', zone: string): string {
  const kst = DateTime.fromMillis(ts, { zone: KST_ZONE });
  if (zone === KST_ZONE) return kst.toISO() ?? String(ts);
  const at =
    interval === '1d'
      ? DateTime.fromObject({ year: kst.year, month: kst.month, day: kst.day }, { zone })
      : DateTime.fromMillis(ts, { zone });
  return at.toISO() ?? String(ts);
}
