/**
 * Emits each completed candle once from successive polls of the newest candles, and the candle
 * still in progress marked as such.
 *
 * @module
 */
import { dailyCandleStamp, type Market } from '@hoga/core';
import type { DateTime } from 'luxon';
import type { Candle, CandleInterval } from '../schemas/market-data.js';
import type { CandleGap } from './candle-page.js';

/** One candle of a stream. */
export interface CandleUpdate {
  readonly symbol: string;
  readonly interval: CandleInterval;
  readonly candle: Candle;
  /** False for the candle still in progress (it may change; it is emitted again when complete). */
  readonly complete: boolean;
  /**
   * On the first completed candle a poll hands over after candles it could not read (a process
   * asleep for longer than a catch-up reads back, a page the broker refused): which ones.
   */
  readonly gap?: CandleGap;
}

/**
 * Whether a candle is still in progress at `now`: a 1m candle until its end stamp, a 1d candle
 * while it is the current trading day's.
 *
 * @param candle - the candle
 * @param interval - its interval
 * @param market - its market
 * @param now - current time
 */
export function isCandleInProgress(
  candle: Candle,
  interval: CandleInterval,
  market: Market,
  now: DateTime,
): boolean {
  if (interval === '1m') return candle.timestamp.toMillis() > now.toMillis();
  return candle.timestamp.toMillis() >= dailyCandleStamp(market, now).toMillis();
}

/** Keeps the newest completed stamp and the last in-progress candle of one symbol. */
export class CandleTracker {
  private watermark: number | null;
  private live: Candle | null = null;

  /**
   * @param symbol - the symbol
   * @param interval - 1m or 1d
   * @param market - the symbol's market
   * @param handedThroughMs - the end stamp (ms) of the newest candle the caller already has (a
   *   warm-up's last bar): the first poll hands over every completed candle after it, as a later
   *   poll does; without it, the newest completed one alone
   */
  constructor(
    private readonly symbol: string,
    private readonly interval: CandleInterval,
    private readonly market: Market,
    handedThroughMs: number | null = null,
  ) {
    this.watermark = handedThroughMs;
  }

  /**
   * The end stamp (ms) of the newest completed candle seen so far (before the first poll, the one
   * the tracker was told the caller has), or null before the first poll.
   */
  get newestCompletedMs(): number | null {
    return this.watermark;
  }

  /**
   * The updates a poll brings: completed candles newer than the last one emitted (oldest first;
   * on the first poll only the newest completed one, unless the tracker was given the newest
   * candle handed over already), then the in-progress candle if it changed.
   *
   * @param candles - the poll, newest first
   * @param now - current time
   * @param gap - the candles the poll could not read, between the newest one emitted and its
   *   oldest: told on the first completed candle emitted
   */
  update(candles: readonly Candle[], now: DateTime, gap: CandleGap | null = null): CandleUpdate[] {
    const out: CandleUpdate[] = [];
    const completed = candles.filter((c) => !isCandleInProgress(c, this.interval, this.market, now));
    const fresh = completed.filter((c) => this.watermark === null || c.timestamp.toMillis() > this.watermark);
    const emit = this.watermark === null ? fresh.slice(0, 1) : fresh;
    for (const candle of [...emit].reverse()) out.push(this.wrap(candle, true));
    const first = out[0];
    if (gap !== null && first !== undefined) out[0] = { ...first, gap };
    const newest = completed[0];
    if (newest !== undefined) this.watermark = Math.max(this.watermark ?? 0, newest.timestamp.toMillis());
    const live = candles.find((c) => isCandleInProgress(c, this.interval, this.market, now)) ?? null;
    if (live !== null && !sameCandle(live, this.live)) out.push(this.wrap(live, false));
    this.live = live;
    return out;
  }

  private wrap(candle: Candle, complete: boolean): CandleUpdate {
    return { symbol: this.symbol, interval: this.interval, candle, complete };
  }
}

function sameCandle(a: Candle, b: Candle | null): boolean {
  return (
    b !== null &&
    a.timestamp.toMillis() === b.timestamp.toMillis() &&
    a.closePrice.eq(b.closePrice) &&
    a.highPrice.eq(b.highPrice) &&
    a.lowPrice.eq(b.lowPrice) &&
    a.volume.eq(b.volume)
  );
}
