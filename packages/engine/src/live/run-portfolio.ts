/**
 * The portfolio of a paper or live run: a fill also marks its symbol at its price, as of the fill's
 * time, so that the positions are valued at the last price the run saw (the marks keep the price of
 * the latest moment: the broker's prices the risk module reads, bars' closes, ticks and fills,
 * `run-runtime.ts`). Its bars alone mark a symbol at their close, and a daily run's bar carries the
 * day before's close: a buy filled at 68,400 beside a previous close of 69,700 showed 1,300 KRW a
 * share of unrealized gain, in `ctx.unrealizedPnl`, `ctx.equity`, the status line and the stored
 * session's net profit. A backtest keeps its portfolio: a bar's close is its symbol's last price
 * there, a fill's too.
 *
 * @module
 */
import type { Clock, OrderEvent } from '@hoga/core';
import { inject } from 'inversify';
import { FxRates } from '../portfolio/fx-rates.js';
import { MarkBook } from '../portfolio/mark-book.js';
import { StrategyPortfolio } from '../portfolio/portfolio.js';
import { ClockToken } from '../runtime/tokens.js';

/** {@link StrategyPortfolio} whose fills mark their symbols (see the module documentation). */
export class RunPortfolio extends StrategyPortfolio {
  private readonly fillMarks: MarkBook;

  constructor(
    @inject(ClockToken) clock: Clock,
    @inject(MarkBook) marks: MarkBook,
    @inject(FxRates) fx: FxRates,
  ) {
    super(clock, marks, fx);
    this.fillMarks = marks;
  }

  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') {
      this.fillMarks.setAt(event.fill.symbol, event.fill.price.toNumber(), event.fill.tsEvent);
    }
    super.onOrderEvent(event);
  }
}
