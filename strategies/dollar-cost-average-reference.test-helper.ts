/**
 * An independent computation of the dollar-cost averaging's trades, for tests: straight from the
 * definition (trading dates read off the bars' stamps, days counted per symbol), the broker's
 * windows written out (on minute bars a US amount order 09:30–15:00 New York, a KR market order
 * 09:00–15:30 KST; on daily bars always, for the next open) and the bar fill model's rule for
 * market orders (the open of the symbol's next bar in the regular session; an amount order buys
 * `usd / price` shares truncated to 6 decimals). For test days of the usual hours only (no
 * holiday, early close or late opening).
 */
import { type Bar, marketOfSymbol } from '@hoga/core';
import type { ExpectedTrade } from './sma-crossover-reference.test-helper.js';

const MINUTE = 60_000;

/** A formatter per time zone: made once (one made per call was most of the minute test's time). */
const FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The clock of an instant in `zone`: its date and its minutes after midnight. */
function local(ms: number, zone: string): { readonly date: string; readonly minute: number } {
  let format = FORMATS.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    FORMATS.set(zone, format);
  }
  const parts = format.formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value as string;
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    minute: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

const zoneOf = (symbol: string): string =>
  marketOfSymbol(symbol) === 'KR' ? 'Asia/Seoul' : 'America/New_York';

/** A bar's trading date: a daily bar's stamp is KST midnight of its date; a minute bar's is its market's date. */
function dateOf(bar: Bar): string {
  return bar.interval === '1d'
    ? local(bar.ts, 'Asia/Seoul').date
    : local(bar.closeTime, zoneOf(bar.symbol)).date;
}

/** Whether the broker takes the buy placed at `bar`'s close. */
function buyTaken(bar: Bar): boolean {
  if (bar.interval === '1d') return true;
  const { minute } = local(bar.closeTime, zoneOf(bar.symbol));
  return marketOfSymbol(bar.symbol) === 'KR'
    ? minute >= 9 * 60 && minute < 15 * 60 + 30
    : minute >= 9 * 60 + 30 && minute < 15 * 60;
}

/** Whether a market order fills on `bar`: daily bars always, minute bars of the regular session only. */
function fillsOn(bar: Bar): boolean {
  if (bar.interval === '1d') return true;
  const { minute } = local(bar.closeTime - MINUTE, zoneOf(bar.symbol));
  return marketOfSymbol(bar.symbol) === 'KR'
    ? minute >= 9 * 60 && minute < 15 * 60 + 30
    : minute >= 9 * 60 + 30 && minute < 16 * 60;
}

/** `x` truncated to 6 decimals, as text-free as it can be (the quantities are small). */
function truncate6(x: number): number {
  return Math.floor(Math.round(x * 1e9) / 1e3) / 1e6;
}

/**
 * The trades the dollar-cost averaging makes on `bars` (any symbols; each symbol's bars in time
 * order), sorted by time then symbol.
 */
export function expectedDcaTrades(
  bars: readonly Bar[],
  config: { readonly usd: number; readonly krw: number; readonly everyDays: number },
): ExpectedTrade[] {
  const bySymbol = new Map<string, Bar[]>();
  for (const b of bars) bySymbol.set(b.symbol, [...(bySymbol.get(b.symbol) ?? []), b]);
  const trades: ExpectedTrade[] = [];
  for (const [symbol, list] of bySymbol) {
    const us = marketOfSymbol(symbol) === 'US';
    let lastBuy: string | null = null;
    let seen = '';
    let days = 0;
    for (let i = 0; i < list.length; i++) {
      const bar = list[i] as Bar;
      const date = dateOf(bar);
      if (date !== seen) {
        seen = date;
        days++;
      }
      const due = lastBuy === null || (lastBuy !== date && days >= config.everyDays);
      if (!due || !buyTaken(bar)) continue;
      const shares = us ? 0 : Math.floor(config.krw / bar.close);
      if (!us && shares < 1) continue;
      lastBuy = date;
      days = 0;
      const fill = list.slice(i + 1).find(fillsOn);
      if (fill === undefined) continue;
      trades.push({
        time: fill.closeTime,
        symbol,
        side: 'BUY',
        quantity: us ? truncate6(config.usd / fill.open) : shares,
        price: fill.open,
      });
    }
  }
  return trades.sort((a, b) => a.time - b.time || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}
