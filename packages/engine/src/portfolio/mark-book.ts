/**
 * The last price of each symbol as a number, written by the market-data path (once per bar in a
 * backtest) and read when the portfolio values positions. Paper and live write it with the time of
 * each price ({@link MarkBook.setAt}), so that a price of an earlier moment never replaces a newer
 * one: a candle that closed before the broker's last price was read, a fill told after a restart.
 *
 * @module
 */

/** Last prices by symbol, kept in a flat array indexed by a per-symbol slot. */
export class MarkBook {
  private readonly slots = new Map<string, number>();
  /** Last prices by slot (NaN: none yet). Writers use {@link MarkBook.slot} once, then the array. */
  values = new Float64Array(16).fill(Number.NaN);
  /** When each slot's price was the last, epoch ms (-Infinity: not said, by `set` or a direct write). */
  private times = new Float64Array(16).fill(Number.NEGATIVE_INFINITY);

  /** The slot of `symbol` (allocated on first use). */
  slot(symbol: string): number {
    let slot = this.slots.get(symbol);
    if (slot === undefined) {
      slot = this.slots.size;
      this.slots.set(symbol, slot);
      if (slot >= this.values.length) {
        const grown = new Float64Array(this.values.length * 2).fill(Number.NaN);
        grown.set(this.values);
        this.values = grown;
        const times = new Float64Array(grown.length).fill(Number.NEGATIVE_INFINITY);
        times.set(this.times);
        this.times = times;
      }
    }
    return slot;
  }

  /** Sets the last price of `symbol`. */
  set(symbol: string, price: number): void {
    this.values[this.slot(symbol)] = price;
  }

  /**
   * Sets the last price of `symbol` as of `atMs` (epoch ms), unless the price it has is of a later
   * moment; true when it was set.
   */
  setAt(symbol: string, price: number, atMs: number): boolean {
    const slot = this.slot(symbol);
    if (atMs < (this.times[slot] as number)) return false;
    this.values[slot] = price;
    this.times[slot] = atMs;
    return true;
  }

  /** The last price of `symbol`, or undefined. */
  get(symbol: string): number | undefined {
    const slot = this.slots.get(symbol);
    if (slot === undefined) return undefined;
    const v = this.values[slot];
    return v === undefined || Number.isNaN(v) ? undefined : v;
  }
}
