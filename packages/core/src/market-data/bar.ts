/**
 * Bars: candles as plain numbers, for the backtest's hot path and for indicators. Prices and
 * volumes are `number` here on purpose; an order or a fill made from a bar converts to `Decimal`
 * exactly where it is made.
 *
 * @module
 */

/** The candle intervals the broker serves. */
export const BarInterval = { MINUTE: '1m', DAY: '1d' } as const;

/** One of the {@link BarInterval} values. */
export type BarInterval = (typeof BarInterval)[keyof typeof BarInterval];

/** True when `value` is a {@link BarInterval}. */
export function isBarInterval(value: unknown): value is BarInterval {
  return value === BarInterval.MINUTE || value === BarInterval.DAY;
}

/** One completed (or, when marked, still forming) candle of one symbol. */
export interface Bar {
  /** The instrument's symbol. */
  readonly symbol: string;
  /** `1m` or `1d`. */
  readonly interval: BarInterval;
  /**
   * The broker's candle timestamp, epoch ms: the END of the minute for `1m` (the candle stamped
   * 09:01 covers 09:00:00.000–09:00:59.999), KST midnight of the trading day for `1d`.
   */
  readonly ts: number;
  /**
   * When the bar is complete and may be delivered, epoch ms: `ts` for `1m`; the regular
   * session's close of the trading day for `1d`.
   */
  readonly closeTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}
