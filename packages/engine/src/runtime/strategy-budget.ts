/**
 * A strategy's cash as its budget. In a run of several strategies the run's cash is shared out
 * between them (see `allocateCash`), and each one's cash is its share plus its own fills; the
 * account's buying power bounds all of them together. So that one strategy cannot spend another's
 * share, a buy of a strategy must fit in its own cash less what its open buys still need, in the
 * buy's currency. A buy is valued at its amount, or its quantity at its limit price, or, a market
 * buy, at the price the broker holds one at (the broker model's `reservePrice`: a KR stock's upper
 * price limit of the day it trades in, a US stock's last price + 5 %; the last price is the last
 * bar's close or subscribed price tick; with none known yet it is not judged), and a modify that
 * raises a buy's price at its rest there, each with the commission the broker holds back on top
 * (`buyReservation`, rounded up to the currency). Before, the commission was not counted: a
 * strategy that bought its whole share ended with its cash below zero by the commission, paid out
 * of another strategy's share; and a market buy was valued at the last price, so a fill above it (a
 * daily bar's gap up to the next open, a live book's ask) did the same by the difference.
 *
 * @module
 */
import { buyReservation, type PriceLimits, reservePrice } from '@hoga/broker-model';
import { type Currency, currencyOf, Decimal, marketOfSymbol, type OrderIntent } from '@hoga/core';
import type { OrderCommand } from '../commands/order-commands.js';
import type { Portfolio } from '../portfolio/portfolio.js';
import { intentFields } from '../risk/intent-fields.js';
import { groupDigits } from '../risk/valuation.js';
import type { OrderView } from '../strategy/strategy-context.js';

const ZERO = new Decimal(0);

/** What a buy needs still: its unfilled amount, or its unfilled quantity at `price` (null: no price known). */
function stillNeeded(
  amount: Decimal | null,
  quantity: Decimal | null,
  price: Decimal | null,
  filledQuantity: Decimal,
  averageFillPrice: Decimal | null,
): Decimal | null {
  if (amount !== null) {
    const spent = averageFillPrice === null ? ZERO : filledQuantity.times(averageFillPrice);
    return Decimal.max(ZERO, amount.minus(spent));
  }
  if (quantity === null || price === null) return null;
  return Decimal.max(ZERO, quantity.minus(filledQuantity)).times(price);
}

/**
 * The price a market buy of a symbol is held at (see the module documentation), or null when no
 * price of it is known yet.
 */
export type MarketBuyPrice = (symbol: string) => Decimal | null;

/** What a buy is valued at a share: its limit, or what a market buy is held at. */
function priceOf(limit: Decimal | null, symbol: string, marketBuyPrice: MarketBuyPrice): Decimal | null {
  return limit ?? marketBuyPrice(symbol);
}

/**
 * Why a buy does not fit in its strategy's cash, or null when it fits. A market buy of a symbol no
 * price is known of cannot be valued: refused, as it could spend the other strategies' shares.
 *
 * @param intent - the buy
 * @param cash - the strategy's cash in the buy's currency
 * @param open - the strategy's open orders (the buy itself among them or not)
 * @param marketBuyPrice - what a market buy is held at
 */
export function budgetShortfall(
  intent: OrderIntent,
  cash: Decimal,
  open: readonly OrderView[],
  marketBuyPrice: MarketBuyPrice,
): string | null {
  const { orderAmount, quantity, price } = intentFields(intent);
  const symbol = intent.instrument.symbol;
  const valuedAt = priceOf(price, symbol, marketBuyPrice);
  if (valuedAt === null && orderAmount === null && quantity !== null) {
    // nothing to value it at: let through unjudged, it could spend the other strategies' shares
    return (
      `no price of ${symbol} is known yet to hold this market buy at against the strategy's own cash: ` +
      `buy it once a price of it is known (a bar of the run's symbols, a tick of one subscribed with ` +
      'ctx.subscribePrices), or place a limit buy'
    );
  }
  const needed = stillNeeded(orderAmount, quantity, valuedAt, ZERO, null);
  if (needed === null) return null;
  return shortfall(needed, intent.instrument.currency, intent.clientOrderId, cash, open, marketBuyPrice);
}

/**
 * Why a modify that raises a buy's price does not fit in its strategy's cash (its unfilled rest at
 * the new price, beside the strategy's other open buys), or null when it fits, needs no more than
 * before, or cannot be judged. A modify's quantity is at most the rest: only its price can raise it.
 *
 * @param order - the buy as the strategy sees it
 * @param change - the modify's new price and quantity (the rest), if given
 */
export function modifyShortfall(
  order: OrderView,
  change: { readonly price?: Decimal | undefined; readonly quantity?: Decimal | undefined },
  cash: Decimal,
  open: readonly OrderView[],
  marketBuyPrice: MarketBuyPrice,
): string | null {
  if (order.side !== 'BUY' || order.amount !== null || order.quantity === null) return null;
  const rest = Decimal.max(ZERO, order.quantity.minus(order.filledQuantity));
  const before = stillNeeded(null, rest, priceOf(order.price, order.symbol, marketBuyPrice), ZERO, null);
  const after = stillNeeded(
    null,
    change.quantity ?? rest,
    priceOf(change.price ?? order.price, order.symbol, marketBuyPrice),
    ZERO,
    null,
  );
  if (after === null || (before !== null && after.lte(before))) return null;
  return shortfall(
    after,
    currencyOf(marketOfSymbol(order.symbol)),
    order.clientOrderId,
    cash,
    open,
    marketBuyPrice,
  );
}

/**
 * Why a buy worth `gross` does not fit in `cash` less what the other open buys (not `orderId`)
 * still need, each with the commission the broker holds back on it.
 */
function shortfall(
  gross: Decimal,
  currency: Currency,
  orderId: string,
  cash: Decimal,
  open: readonly OrderView[],
  marketBuyPrice: MarketBuyPrice,
): string | null {
  let held = ZERO;
  for (const o of open) {
    if (o.side !== 'BUY' || o.clientOrderId === orderId) continue;
    if (currencyOf(marketOfSymbol(o.symbol)) !== currency) continue;
    const value = stillNeeded(
      o.amount,
      o.quantity,
      priceOf(o.price, o.symbol, marketBuyPrice),
      o.filledQuantity,
      o.averageFillPrice,
    );
    if (value !== null) held = held.plus(buyReservation(currency, value));
  }
  const needed = buyReservation(currency, gross);
  const available = cash.minus(held);
  if (needed.lte(available)) return null;
  return (
    `the buy needs ${groupDigits(needed.toFixed())} ${currency} with its commission, more than the strategy's own cash of ` +
    `${groupDigits(cash.toFixed())} ${currency} less ${groupDigits(held.toFixed())} ${currency} held by its open buys`
  );
}

/**
 * The KR daily price limits of a symbol for the day an order placed now trades in, as the run knows
 * them (null: none, or not known).
 */
export type PriceLimitsLookup = (symbol: string) => PriceLimits | null;

/** A symbol's last price as the broker was last read (undefined: not read). */
export type LastPriceLookup = (symbol: string) => Decimal | undefined;

/**
 * The budgets of a run's strategies: their cash from the portfolio, market buys at the price the
 * broker holds them at, from the portfolio's last prices and the run's price limits.
 */
export class StrategyBudgets {
  private readonly marketBuyPrice: MarketBuyPrice = (symbol) => {
    const marked = this.portfolio.lastPrice(symbol);
    const last = marked === undefined ? this.brokerLast?.(symbol) : new Decimal(marked);
    if (last === undefined) return null;
    return reservePrice(
      { market: marketOfSymbol(symbol) },
      { side: 'BUY', price: null, orderAmount: null },
      { lastPrice: last, priceLimits: this.limits?.(symbol) ?? null },
    );
  };

  /**
   * @param limits - the KR price limits (unknown: a KR market buy is held at its last price, the
   *   broker's own fallback without limits)
   * @param brokerLast - a symbol's last price read from the broker, for one the portfolio has no
   *   price of yet (paper and live mark the run's symbols from the start: another symbol the risk
   *   module read)
   */
  constructor(
    private readonly portfolio: Portfolio,
    private readonly limits?: PriceLimitsLookup,
    private readonly brokerLast?: LastPriceLookup,
  ) {}

  /**
   * Why a strategy's command does not fit in its cash: a buy, or a modify raising a buy (`order`,
   * the order it modifies); null when it fits, or is neither.
   *
   * @param open - the strategy's open orders
   */
  shortfall(command: OrderCommand, open: readonly OrderView[], order?: OrderView): string | null {
    if (command.type === 'SubmitOrder') {
      const intent = command.intent;
      if (intent.side !== 'BUY') return null;
      const cash = this.portfolio.book(command.strategyId).cash(intent.instrument.currency);
      return budgetShortfall(intent, cash, open, this.marketBuyPrice);
    }
    if (command.type !== 'ModifyOrder' || order === undefined || order.side !== 'BUY') return null;
    const cash = this.portfolio.book(command.strategyId).cash(currencyOf(marketOfSymbol(order.symbol)));
    return modifyShortfall(order, command, cash, open, this.marketBuyPrice);
  }
}
