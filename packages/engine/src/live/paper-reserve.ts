/**
 * The price a working paper order with no limit holds cash (an amount sell: shares) at, once the
 * paper venue took it: the broker's last price of its symbol as the risk module last read it (it
 * reads it for each order, and before the day's first trade it is the previous close), else the
 * run's own last price (its bars' closes, its fills). Before, only the run's own one: none before
 * the symbol's first bar, so a market buy placed at the start held 0 KRW, and two or more of them
 * together promised more cash than the account held (the venue took them all, and cancelled at its
 * fill each one the cash no longer covered).
 *
 * Why the last price and not the broker's reserve price (a KR market buy at the day's upper price
 * limit, a US one 5 % above the last price; the broker model's `reservePrice`): that one judges the
 * new order's own funds, in paper as live (the risk module's broker rules). Once taken, a market
 * buy in the session is filled by the broker at once, and the next buy is judged on the cash the
 * fill leaves, about its quantity at the last price; paper fills it at the next order book it
 * polls, and holding it at the upper limit meanwhile would refuse a second buy that live takes.
 * The last price is how the risk module of paper and live counts a market buy it let through, and
 * how a backtest holds one.
 *
 * With no price at all (the risk module disabled and the symbol not among the run's, before any
 * bar or fill of it) a paper market buy by quantity is denied ({@link PaperReserve.refusal}): a
 * limit order holds its own price and needs none.
 *
 * An order with no limit that a restart works again is held at the broker's last price read for
 * it then ({@link PaperReserve.readMissing}) when the new run has none of its own yet. Before, it
 * was held at 0 (a market buy of a symbol not among the run's, with no fill yet): the cash it had
 * promised went to the next buy, and the account had more buys working than its cash covered.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import { type OrderIntent, OrderSide, OrderType } from '@hoga/core';
import type { MarkBook } from '../portfolio/mark-book.js';
import type { BrokerMarketView } from '../risk/broker-market-view.js';
import { MAX_SYMBOLS_PER_PRICES_CALL } from '../risk/market-info-source.js';
import type { RiskVerdict } from '../risk/risk-gate.js';

/** The denial code of a paper market buy with no price to hold it at (the risk module's for missing market data). */
export const NO_RESERVE_PRICE = 'risk-market-data-missing';

/** See the module documentation. */
export class PaperReserve {
  /** The risk module's view of the broker's market data, once the run has one. */
  private market: Pick<BrokerMarketView, 'lastPrice'> | undefined;

  /** The broker's last prices read for restored orders ({@link PaperReserve.readMissing}). */
  private readonly read = new Map<string, number>();

  /** @param marks - the run's last prices (its bars' closes, its fills' prices) */
  constructor(private readonly marks: MarkBook) {}

  /**
   * Reads the broker's last price of each of `symbols` that has no price here yet, so that the
   * orders with no limit a restart works again hold cash (a sell by amount, shares) at it. A failed
   * read rejects (the run's start fails, as for its other reads of the broker).
   */
  async readMissing(symbols: Iterable<string>, client: Pick<BrokerClient, 'getPrices'>): Promise<void> {
    const missing = [...new Set(symbols)].filter((symbol) => this.price(symbol) === undefined);
    for (let i = 0; i < missing.length; i += MAX_SYMBOLS_PER_PRICES_CALL) {
      const prices = await client.getPrices(missing.slice(i, i + MAX_SYMBOLS_PER_PRICES_CALL));
      for (const p of prices) this.read.set(p.symbol, p.lastPrice.toNumber());
    }
  }

  /** From now on the broker's last prices come from `market` (the risk module's view). */
  useMarket(market: Pick<BrokerMarketView, 'lastPrice'> | undefined): void {
    this.market = market;
  }

  /** The price an order of `symbol` with no limit holds cash at (see the module), or undefined when none is known. */
  price(symbol: string): number | undefined {
    const broker = this.market?.lastPrice(symbol);
    if (broker !== undefined) return broker.toNumber();
    return this.marks.get(symbol) ?? this.read.get(symbol);
  }

  /** The denial of a paper market buy by quantity with no price to hold it at, else null. */
  refusal(intent: OrderIntent): RiskVerdict | null {
    if (
      intent.side !== OrderSide.BUY ||
      intent.sizing !== 'QUANTITY' ||
      intent.orderType !== OrderType.MARKET
    ) {
      return null;
    }
    const symbol = intent.instrument.symbol;
    if (this.price(symbol) !== undefined) return null;
    return {
      accepted: false,
      code: NO_RESERVE_PRICE,
      reason:
        `hoga has no price of ${symbol} yet to hold this paper market buy's cash at: place a limit ` +
        `order, or run with ${symbol} among the run's symbols (or the risk module on), whose prices ` +
        'are read from the broker',
    };
  }
}
