/**
 * The last price of each symbol as a number, written by the market-data path (once per bar in a
 * backtest) and read when the portfolio values positions.
 *
 * @module
 */

/** Last prices by symbol, kept in a flat array indexed by a per-symbol slot. */
export class MarkBook {
  private readonly slots = new Map<string, number>();
  /** Last prices by slot (NaN: none yet). Writers use {@link MarkBook.slot} once, then the array. */
  values = new Float64Array(16).fill(Number.NaN);

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
      }
    }
    return slot;
  }

  /** Sets the last price of `symbol`. */
  set(symbol: string, price: number): void {
    this.values[this.slot(symbol)] = price;
  }

  /** The last price of `symbol`, or undefined. */
  get(symbol: string): number | undefined {
    const slot = this.slots.get(symbol);
    if (slot === undefined) return undefined;
    const v = this.values[slot];
    return v === undefined || Number.isNaN(v) ? undefined : v;
  }
}
