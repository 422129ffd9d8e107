/**
 * Synthesized trades of one minute: the opening and closing auction trades at their first
 * millisecond, a few continuous trades (sometimes none) at keyed instants with prices between
 * the minute's path endpoints, single-price after-hours trades, and control-API price jumps.
 *
 * @module
 */
import { Decimal } from '@hoga/core';
import { MinuteKind } from './day-schedule.js';
import type { PriceProcess, TradeTick } from './price-process.js';
import { normal, Stream, uniform } from './rng.js';

const MINUTE_MS = 60_000;
/** Continuous trades per minute: up to 6 in the regular session, up to 2 in extended ones. */
const MAX_TRADES = { regular: 6, extended: 2 } as const;
/** Chance that a minute has no trade: 6% regular, 30% extended. */
const EMPTY_CHANCE = { regular: 0.06, extended: 0.3 } as const;

/** The trades of minute `i` of trading day `dn` of `process`, oldest first. */
export function synthesizeTrades(process: PriceProcess, dn: number, i: number): readonly TradeTick[] {
  const day = process.day(dn);
  const s = day.schedule;
  const startMs = s.startMs + i * MINUTE_MS;
  const out: TradeTick[] = [];
  const avg = process.spec.avgDailyVolume / day.factor;
  const key = process.key;
  if (!day.frozen) {
    if (i === s.openIdx || i === s.closeIdx) {
      const which = i === s.openIdx ? 'open' : 'close';
      const v = avg * 0.012 * Math.exp(0.4 * normal(key, Stream.TRADE_VOLUME, dn, i, -1));
      out.push({ ms: startMs, price: process.auctionPrice(dn, which), volume: shares(v) });
    }
    const kind = s.kinds[i] ?? MinuteKind.NONE;
    if (kind === MinuteKind.SINGLE_PRICE) {
      const v = avg * 0.0005 * Math.exp(0.5 * normal(key, Stream.TRADE_VOLUME, dn, i, -2));
      out.push({ ms: startMs, price: process.toTick(process.priceAt(dn, i), 'down'), volume: shares(v) });
    } else if (kind === MinuteKind.REGULAR || kind === MinuteKind.EXTENDED) {
      continuousTrades(process, dn, i, kind === MinuteKind.REGULAR, startMs, avg, out);
    }
  }
  out.push(...process.jumpsIn(startMs, startMs + MINUTE_MS));
  out.sort((a, b) => a.ms - b.ms);
  return out;
}

function shares(v: number): Decimal {
  return new Decimal(Math.max(1, Math.round(v)));
}

function continuousTrades(
  process: PriceProcess,
  dn: number,
  i: number,
  regular: boolean,
  startMs: number,
  avg: number,
  out: TradeTick[],
): void {
  const key = process.key;
  const session = regular ? 'regular' : 'extended';
  if (uniform(key, Stream.TRADE_COUNT, dn, i) < EMPTY_CHANCE[session]) return;
  const n = 1 + Math.floor(uniform(key, Stream.TRADE_COUNT, dn, i, 1) * MAX_TRADES[session]);
  const offsets: number[] = [];
  for (let j = 0; j < n; j++)
    offsets.push(1 + Math.floor(uniform(key, Stream.TRADE_TIME, dn, i, j) * 59_998));
  offsets.sort((x, y) => x - y);
  const a = process.priceAt(dn, i);
  const b = process.priceAt(dn, i + 1);
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const perTrade = (avg / (390 * 3.5)) * (regular ? 1 : 0.15);
  for (let j = 0; j < n; j++) {
    const t = offsets[j] ?? 0;
    const f = t / MINUTE_MS + 0.6 * (uniform(key, Stream.TRADE_PRICE, dn, i, j) - 0.5);
    const x = lo === hi ? lo : Math.min(hi, Math.max(lo, a + (b - a) * f));
    const up = uniform(key, Stream.TRADE_PRICE, dn, i, j + 100) < 0.5;
    const v = perTrade * Math.exp(0.9 * normal(key, Stream.TRADE_VOLUME, dn, i, j) - 0.4);
    out.push({ ms: startMs + t, price: process.toTick(x, up ? 'up' : 'down'), volume: shares(v) });
  }
}
