/**
 * The account a live run's strategies see (`ctx.account`): the broker's cash (its cash buying power
 * per currency, `GET /buying-power`) and holdings (`GET /holdings`), read when the run starts, read
 * again every {@link REFRESH_MS} and soon after each fill of the run, and moved by each fill at once
 * in between (so that `onFill` sees the account with its fill). Before, a live run read the
 * holdings once at its start and no cash at all: `ctx.account.cash('USD')` was 0 and the holdings
 * never moved.
 *
 * Each fill counts once. The broker's answers do not say which fills they hold, so a read is taken
 * only when it is known to hold exactly the fills the run reported before it began: no order event
 * came from its start until an order poll that began after it ended had reported what the broker
 * had (a poll reports every fill the broker made before it began). A read that an event crossed is
 * dropped and read again. Before, each read was taken as it came and the next fill booked on top:
 * a read made after the broker filled an order but before the poll reported it held the fill, and
 * the report booked it again (a buy of 2 showed 4 more shares until the read a second later).
 *
 * The buying power is net of what open buys hold back, so the cash the run's own open buys hold
 * ({@link openOrdersReservedCash}) is added as it was at the read and taken off as it is now: a
 * resting buy read before it filled no longer has its cost taken twice (before: the cash was low
 * by the order's cost until the next read).
 *
 * @module
 */
import { type Holding, Ledger, LedgerError } from '@hoga/broker-model';
import type { BrokerClient } from '@hoga/connector';
import type { Currency, Decimal, OrderEvent } from '@hoga/core';
import type { Observable, Subscription } from 'rxjs';
import { holdingsOf } from '../portfolio/account-view.js';
import type { CashByCurrency } from '../store/reserved-cash.js';
import type { AccountHolding, AccountView } from '../strategy/strategy-context.js';

/** Real ms between two reads of the account. */
const REFRESH_MS = 10_000;
/** Real ms from a fill (or a read an event crossed) to the next read. */
const AFTER_FILL_MS = 1_000;

/** What the account reads of the broker. */
export type AccountSource = Pick<BrokerClient, 'getHoldings' | 'getBuyingPower'>;

/** The order polls that tell when a read holds exactly the fills reported (the order manager's). */
export interface AccountPolls {
  /** How many polls have started. */
  pollsStarted(): number;
  /** The number of each complete poll, once it ended and its events went out. */
  readonly polled$: Observable<number>;
  /** Polls now (or joins the poll under way). */
  pollOnce(): Promise<void>;
}

/** What the account follows besides the broker. */
export interface AccountFollow {
  /** The run's order events (subscribed before the runtime: `onFill` sees its fill). */
  readonly events$: Observable<OrderEvent>;
  /** The order polls; without them a read is taken when no event crossed it. */
  readonly polls?: AccountPolls;
  /** What the run's open buys hold back now; none by default. */
  readonly reserved?: () => CashByCurrency;
}

/** A read waiting for the poll that confirms it. */
interface Candidate {
  readonly ledger: Ledger;
  /** Events counted when the read began. */
  readonly seq: number;
  /** Polls started when the read ended: a later one confirms it. */
  readonly after: number;
}

/** See the module documentation. */
export class BrokerAccount implements AccountView {
  private timer: ReturnType<typeof setInterval> | null = null;
  private soon: ReturnType<typeof setTimeout> | null = null;
  private reading = false;
  private readonly following: Subscription[] = [];
  private follows: AccountFollow | null = null;
  /**
   * Set by {@link BrokerAccount.start}. Before, the fills reported are those the start's
   * reconciliation found (filled while the engine was down): the read the account opened with
   * already holds them, and they are not booked.
   */
  private started = false;
  /** Order events seen (a read that one crossed may or may not hold it). */
  private seq = 0;
  private candidate: Candidate | null = null;
  /** What the run's open buys held back when the account's read began (null: not known). */
  private readReserved: CashByCurrency | null = null;
  /** What they hold back now (null: to be asked again). */
  private nowReserved: CashByCurrency | null = null;
  /** Ends a read under way when the run stops (its failure is then no news: the run is over). */
  private readonly stopped = new AbortController();

  private constructor(
    private readonly source: AccountSource,
    private ledger: Ledger,
    private readonly onError: (error: unknown) => void,
    private readonly refreshMs: number,
  ) {}

  /**
   * Reads the account now (a failure rejects: the run cannot start blind).
   *
   * @param source - the broker
   * @param onError - told of a failed read later on (the account keeps what it had)
   * @param refreshMs - real ms between two reads once started (default {@link REFRESH_MS})
   */
  static async open(
    source: AccountSource,
    onError: (error: unknown) => void = () => undefined,
    refreshMs: number = REFRESH_MS,
  ): Promise<BrokerAccount> {
    return new BrokerAccount(source, await readLedger(source), onError, refreshMs);
  }

  /**
   * Follows the run's order events (subscribe before the runtime does: a strategy's `onFill` then
   * sees the account with its fill) and order polls.
   */
  follow(follow: AccountFollow | Observable<OrderEvent>): void {
    for (const s of this.following.splice(0)) s.unsubscribe();
    const f: AccountFollow = 'events$' in follow ? follow : { events$: follow };
    this.follows = f;
    this.readReserved = null;
    this.nowReserved = null;
    this.following.push(f.events$.subscribe((event) => this.onEvent(event)));
    if (f.polls !== undefined) this.following.push(f.polls.polled$.subscribe((n) => this.onPolled(n)));
  }

  /**
   * Reads the account again once the start's reconciliation is done and, with order polls, waits
   * for the poll that confirms the read; from then on the run's fills are booked as they come, and
   * the account is read every {@link REFRESH_MS} (unless `open` was given another interval).
   */
  async start(): Promise<void> {
    const polls = this.follows?.polls;
    if (polls !== undefined) {
      for (let tries = 0; tries < 3 && !this.stopped.signal.aborted; tries++) {
        await this.refresh();
        const candidate = this.candidate;
        if (candidate === null) continue;
        while (polls.pollsStarted() <= candidate.after && !this.stopped.signal.aborted)
          await polls.pollOnce().catch(() => undefined);
        await polls.pollOnce().catch(() => undefined);
        if (this.candidate === null && this.seq === candidate.seq) break;
      }
    }
    this.started = true;
    if (this.timer === null && !this.stopped.signal.aborted)
      this.timer = setInterval(() => void this.refresh(), this.refreshMs);
  }

  /** Stops the reads. */
  dispose(): void {
    this.stopped.abort();
    for (const s of this.following.splice(0)) s.unsubscribe();
    if (this.timer !== null) clearInterval(this.timer);
    if (this.soon !== null) clearTimeout(this.soon);
    this.timer = null;
    this.soon = null;
    this.candidate = null;
  }

  /** Books a fill of the run at once, and asks the broker again soon after. */
  private onEvent(event: OrderEvent): void {
    this.seq++;
    this.nowReserved = null;
    if (!this.started) return;
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
      // A sell of more than the account holds: shares sold elsewhere since the last read (or, with
      // no order polls to confirm the reads, a read that already held this fill). Not booked: the
      // next read says what the account holds. Before, the error was thrown from the order events'
      // subscriber and ended the process.
      if (!(error instanceof LedgerError)) throw error;
    }
    this.readSoon();
  }

  /** Reads again {@link AFTER_FILL_MS} from now (once the periodic reads run). */
  private readSoon(): void {
    if (this.timer !== null && this.soon === null) {
      this.soon = setTimeout(() => {
        this.soon = null;
        void this.refresh();
      }, AFTER_FILL_MS);
    }
  }

  /** A complete poll ended: the read waiting for it is taken, or dropped if an event crossed it. */
  private onPolled(poll: number): void {
    // a poll may adopt orders placed elsewhere (no order event): what they hold back is asked again
    this.nowReserved = null;
    const candidate = this.candidate;
    if (candidate === null || poll <= candidate.after) return;
    this.candidate = null;
    if (this.seq === candidate.seq) this.take(candidate.ledger);
    else this.readSoon();
  }

  /**
   * Takes a read that holds exactly the fills reported, with what the open buys held back then: as
   * the store has them now (no order event since the read began; the confirming poll adopted the
   * orders placed elsewhere that the read saw resting).
   */
  private take(ledger: Ledger): void {
    this.ledger = ledger;
    this.readReserved = this.follows?.reserved?.() ?? null;
    this.nowReserved = null;
  }

  /**
   * Reads the account again (one read at a time; a failure keeps what the account had). The read
   * is taken once it is known to hold exactly the fills reported (see the module documentation).
   */
  async refresh(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const signal = this.stopped.signal;
    const seq = this.seq;
    try {
      const ledger = await readLedger(this.source, signal);
      if (signal.aborted) return;
      if (this.seq !== seq) {
        // an order event came while the broker answered: the read may or may not hold it
        this.readSoon();
        return;
      }
      const polls = this.follows?.polls;
      if (polls === undefined) this.take(ledger);
      else this.candidate = { ledger, seq, after: polls.pollsStarted() };
    } catch (error) {
      // a read the stop cut short (the connector closes after the run) says nothing
      if (!signal.aborted) this.onError(error);
    } finally {
      this.reading = false;
    }
  }

  /** @inheritdoc */
  cash(currency: Currency): Decimal {
    const cash = this.ledger.cash(currency);
    const reserved = this.follows?.reserved;
    // before the start, the store's orders may not yet be what the first read saw
    if (reserved === undefined || !this.started) return cash;
    this.readReserved ??= reserved();
    this.nowReserved ??= reserved();
    return cash.plus(this.readReserved[currency]).minus(this.nowReserved[currency]);
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
