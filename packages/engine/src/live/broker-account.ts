/**
 * The account a live run's strategies see (`ctx.account`): the broker's cash (its cash buying power
 * per currency, `GET /buying-power`) and holdings (`GET /holdings`), read when the run starts, read
 * again every {@link REFRESH_MS} and soon after each fill of the run, and moved by each fill at once
 * in between (so that `onFill` sees the account with its fill; a fill the last read already holds,
 * a sell of more than it holds, is left to the next read). Before, a live run read the
 * holdings once at its start and no cash at all: `ctx.account.cash('USD')` was 0 and the holdings
 * never moved.
 *
 * @module
 */
import { type Holding, Ledger, LedgerError } from '@hoga/broker-model';
import type { BrokerClient } from '@hoga/connector';
import type { Currency, Decimal, OrderEvent } from '@hoga/core';
import type { Observable, Subscription } from 'rxjs';
import { holdingsOf } from '../portfolio/account-view.js';
import type { AccountHolding, AccountView } from '../strategy/strategy-context.js';

/** Real ms between two reads of the account. */
const REFRESH_MS = 10_000;
/** Real ms from a fill to the read that confirms it. */
const AFTER_FILL_MS = 1_000;

/** What the account reads of the broker. */
export type AccountSource = Pick<BrokerClient, 'getHoldings' | 'getBuyingPower'>;

/** See the module documentation. */
export class BrokerAccount implements AccountView {
  private timer: ReturnType<typeof setInterval> | null = null;
  private soon: ReturnType<typeof setTimeout> | null = null;
  private reading = false;
  private following: Subscription | null = null;
  /** Ends a read under way when the run stops (its failure is then no news: the run is over). */
  private readonly stopped = new AbortController();

  private constructor(
    private readonly source: AccountSource,
    private ledger: Ledger,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Reads the account now (a failure rejects: the run cannot start blind).
   *
   * @param source - the broker
   * @param onError - told of a failed read later on (the account keeps what it had)
   */
  static async open(
    source: AccountSource,
    onError: (error: unknown) => void = () => undefined,
  ): Promise<BrokerAccount> {
    return new BrokerAccount(source, await readLedger(source), onError);
  }

  /**
   * Follows the run's order events (subscribe before the runtime does: a strategy's `onFill` then
   * sees the account with its fill).
   */
  follow(events$: Observable<OrderEvent>): void {
    this.following?.unsubscribe();
    this.following = events$.subscribe((event) => this.onEvent(event));
  }

  /** Starts the reads every {@link REFRESH_MS}. */
  start(): void {
    if (this.timer === null) this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
  }

  /** Stops the reads. */
  dispose(): void {
    this.stopped.abort();
    this.following?.unsubscribe();
    this.following = null;
    if (this.timer !== null) clearInterval(this.timer);
    if (this.soon !== null) clearTimeout(this.soon);
    this.timer = null;
    this.soon = null;
  }

  /** Books a fill of the run at once, and asks the broker again soon after. */
  private onEvent(event: OrderEvent): void {
    if (event.type !== 'OrderFilled' && event.type !== 'OrderPartiallyFilled') return;
    const f = event.fill;
    try {
      this.ledger.applyFill({
        symbol: f.symbol,
        currency: f.commission.currency,
        side: f.side,
        quantity: f.quantity,
        price: f.price,
        commission: f.commission.amount,
        ...(f.tax === undefined ? {} : { tax: f.tax.amount }),
      });
    } catch (error) {
      // The last read already holds this fill (a sell that filled while the engine was down,
      // reported by the first poll of the start; one a read saw before the poll did): a sell of
      // more than the ledger holds. Not booked: the read below says what the account holds.
      // Before, the error was thrown from the order events' subscriber and ended the process.
      if (!(error instanceof LedgerError)) throw error;
    }
    if (this.timer !== null && this.soon === null) {
      this.soon = setTimeout(() => {
        this.soon = null;
        void this.refresh();
      }, AFTER_FILL_MS);
    }
  }

  /** Reads the account again (one read at a time; a failure keeps what the account had). */
  async refresh(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const signal = this.stopped.signal;
    try {
      const ledger = await readLedger(this.source, signal);
      if (!signal.aborted) this.ledger = ledger;
    } catch (error) {
      // a read the stop cut short (the connector closes after the run) says nothing
      if (!signal.aborted) this.onError(error);
    } finally {
      this.reading = false;
    }
  }

  /** @inheritdoc */
  cash(currency: Currency): Decimal {
    return this.ledger.cash(currency);
  }

  /** @inheritdoc */
  holdings(): readonly AccountHolding[] {
    return holdingsOf(this.ledger);
  }
}

async function readLedger(source: AccountSource, signal?: AbortSignal): Promise<Ledger> {
  const [holdings, krw, usd] = await Promise.all([
    source.getHoldings({}, { signal }),
    source.getBuyingPower('KRW', { signal }),
    source.getBuyingPower('USD', { signal }),
  ]);
  const held = new Map<string, Holding>(
    holdings.items.map((i) => [i.symbol, { quantity: i.quantity, averagePrice: i.averagePurchasePrice }]),
  );
  return new Ledger({ KRW: krw.cashBuyingPower, USD: usd.cashBuyingPower }, held);
}
