/**
 * A paper run's account: the broker model's simulated venue over the book matcher (the simulator's,
 * each book's liquidity taken once) with the paper ledger, kept in the store across runs. It
 * - opens the ledger saved by the last paper run (or the configured cash, or a copy of the real
 *   account's cash and holdings: {@link openPaperLedger}) and stores it with the open orders (which hold its reservations)
 *   and each order event's rows in the store's `orders` and `fills` tables, in one transaction per
 *   event ({@link PaperStore}: a fill is stored with the ledger and the open order it changed, or
 *   not at all; a refused write is told and tried again);
 * - hands the runtime ({@link PaperAccount.venue}) each event of the simulated venue once the store
 *   holds it, in order (persist, then publish): while the store refuses a write, the events wait,
 *   a crash then leaves neither the store nor the strategy with the fill the store refused, and no
 *   new order or modify reaches the venue ({@link PaperAccount.guard}: `store-unavailable`);
 * - works again the last run's open orders of the current session, as they stood, and denies the
 *   creates the last run gave and ended before it judged ({@link PaperPendingCreates});
 * - polls the order books of the symbols with working orders only, each from its first working
 *   order to its last ({@link PaperBookPolls});
 * - holds a working order with no limit at the broker's last price, which the risk module reads for
 *   it, before the run's own first price of the symbol, and one worked again at a restart at the
 *   broker's last price read then ({@link PaperReserve});
 * - trades a US limit order at the close (`CLS`) as the broker does: not against the book, but at
 *   the regular close, at the day's closing price when that satisfies the limit, the rest canceled
 *   ({@link PaperCloseAuction}).
 *
 * @module
 */
import { BookMatcher, dayOrderExpiry, type Ledger } from '@hoga/broker-model';
import type { BrokerStreams } from '@hoga/connector';
import { marketOfSymbol, type OrderEvent, OrderType, type StrategyId, TimeInForce } from '@hoga/core';
import type { MarkBook } from '../portfolio/mark-book.js';
import type { RiskBook } from '../risk/risk-book.js';
import type { RiskGate } from '../risk/risk-gate.js';
import type { RiskModule } from '../risk/risk-module.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import { trackedOrderOf } from '../runtime/order-views.js';
import { EventHub } from '../venue/event-hub.js';
import type { ExecutionVenue } from '../venue/execution-venue.js';
import type { SimulatedOrder } from '../venue/simulated-order.js';
import { SimulatedVenue } from '../venue/simulated-venue.js';
import { OrderChangeTimes, type PaperBook } from './paper-book-age.js';
import { PaperBookPolls } from './paper-book-polls.js';
import { PaperBrokerRules } from './paper-broker-rules.js';
import { PaperCloseAuction } from './paper-close-auction.js';
import { openPaperLedger } from './paper-ledger-open.js';
import { PaperOrders, paperSession, restorablePaperOrders } from './paper-orders.js';
import { PaperPendingCreates } from './paper-pending-creates.js';
import { PaperReserve } from './paper-reserve.js';
import { paperOrderMayTrade } from './paper-session-rules.js';
import { PAPER_STATE_ID, PaperStore } from './paper-store.js';
import { PaperStoreGate } from './paper-store-gate.js';
import type { LiveRunOptions } from './run-live.js';
import { OPEN_ORDER_STATES, storedView, trackStoredOrder } from './stored-orders.js';

export { PAPER_STATE_ID } from './paper-store.js';

/** What the paper account needs of the run's options. */
type PaperOptions = Pick<
  LiveRunOptions,
  'db' | 'client' | 'clock' | 'logger' | 'settings' | 'paperFromAccount' | 'onBook' | 'onError'
>;

/** See the module documentation. */
export class PaperAccount {
  /**
   * The venue the runtime (and the risk module) sends commands to: the simulated venue's, whose
   * events it hands on once the store holds them ({@link PaperStore}).
   */
  readonly venue: ExecutionVenue;
  /** The broker model's venue over the book matcher and the paper ledger. */
  private readonly sim: SimulatedVenue<PaperBook>;
  /** The events the store holds, in order: {@link PaperAccount.venue}'s. */
  private readonly stored = new EventHub<OrderEvent>();
  private readonly orders = new PaperOrders();
  /** When each working order was placed or modified: no book made before is matched against it. */
  private readonly changes = new OrderChangeTimes();
  private readonly store: PaperStore;
  /** The books polled: those of the symbols with working orders. */
  private readonly bookPolls: PaperBookPolls;
  /** The closing auctions of the working CLS orders. */
  private readonly atClose: PaperCloseAuction;
  /** The price a working order with no limit holds cash at. */
  private readonly reserve: PaperReserve;
  /** The risk module's view of the broker's market data (its stocks' flags), once {@link PaperAccount.guard} was given it. */
  private market: RiskModule['market'] = undefined;
  /** The matcher: each polled book's liquidity taken once, across orders, polls and restarts. */
  private readonly books = new BookMatcher();
  /** The creates given and not yet judged, noted in the store. */
  private readonly creates: PaperPendingCreates;

  private constructor(
    private readonly o: PaperOptions,
    readonly ledger: Ledger,
    marks: MarkBook,
  ) {
    this.store = new PaperStore(
      o.db,
      () => ({
        ledger: this.ledger.snapshot(),
        orders: this.orders.snapshot(),
        liquidity: this.books.snapshot(),
      }),
      o.logger,
      (error, where) => o.onError?.(error, where),
      (event) => this.stored.emit(event),
    );
    // the simulator's matcher: a polled book's levels are taken once, across orders and polls,
    // until the book shows them with another volume
    this.creates = new PaperPendingCreates(o.db, o.logger, (error, where) => o.onError?.(error, where));
    // what the last run's fills took of the books it polled (a book polled again after a restart,
    // the market unchanged, is not taken twice; before, a partly filled order restored filled again
    // against the very levels it had taken)
    const books = this.books;
    books.restore(o.db.strategyState.get(PAPER_STATE_ID, 'liquidity'));
    const changes = this.changes;
    const reserve = new PaperReserve(marks);
    this.reserve = reserve;
    const sim = new SimulatedVenue<PaperBook>({
      // a CLS order trades in the closing auction only (PaperCloseAuction), never against the book;
      // nothing fills while the store refuses writes (the next order of the same book included): the
      // events wait for the store meanwhile, and a crash undoes what they hold
      fillModel: {
        // nor against a book the broker made before the order was placed or modified (paper-book-age.ts;
        // the venue hands its fill model its own orders)
        // and a market order, or a KR stock's not on the alternative exchange, in the regular session
        // only (paper-session-rules.ts)
        match: (order, book, nowMs) =>
          order.timeInForce === TimeInForce.CLS ||
          this.store.refusing ||
          changes.older(order as SimulatedOrder, book) ||
          !paperOrderMayTrade(
            order,
            book.askedAtMs,
            nowMs,
            this.market?.instrument(order.symbol)?.flags.nxtSupported,
            this.market,
          )
            ? []
            : books.match(order, book, nowMs),
      },
      ledger,
      clock: o.clock,
      // an order with no limit holds cash at the broker's last price, else the run's (PaperReserve)
      lastPrice: (symbol) => reserve.price(symbol),
      // a paper order belongs to the trading day it is placed in, as at the broker
      dayOf: 'acceptance',
      // broker order ids unique across paper runs (each run's venue counts from 1; the store links
      // an id to one order only): the run's start on the engine clock, base 36. An order restored
      // from an earlier run keeps that run's id (restoreOrders), which this prefix never makes
      idPrefix: `paper-${o.clock.nowMs().toString(36)}`,
    });
    this.sim = sim;
    this.bookPolls = new PaperBookPolls(sim, o.onBook);
    this.atClose = new PaperCloseAuction({
      sim,
      client: o.client,
      clock: o.clock,
      refusing: () => this.store.refusing,
      onError: o.onError,
    });
    // the store takes each event before the runtime hears of it (the runtime and the risk module
    // listen to `venue`, which the store tells), as live stores a fill before its strategy hears of it
    sim.events$.subscribe((event) => this.onEvent(event));
    const stored = this.stored;
    this.venue = {
      execute: (command) => sim.execute(command),
      executeNow: (command) => sim.executeNow(command),
      events$: stored.events$,
      dispose: async () => {
        await sim.dispose();
        stored.complete();
      },
    };
  }

  /**
   * Opens the account over the ledger the last paper run saved, else the configured cash, else
   * (with `paperFromAccount`) a copy of the real account's cash and holdings ({@link openPaperLedger}).
   */
  static async open(o: PaperOptions, marks: MarkBook): Promise<PaperAccount> {
    return new PaperAccount(o, await openPaperLedger(o), marks);
  }

  /**
   * Follows one event of the venue: stores its rows with the ledger and the open orders it changed
   * (one transaction), then tells it to the runtime (the store does, after what waits before it);
   * polls the books needed.
   */
  private onEvent(event: OrderEvent): void {
    if (event.type === 'OrderAccepted') this.atClose.noteAccepted(event.clientOrderId);
    this.changes.onEvent(event);
    const filled = event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled';
    const changed = this.orders.onEvent(event) || filled;
    this.store.onEvent(event, changed);
    this.bookPolls.watch();
  }

  /**
   * What the run's timer tick does for the account: the closing auctions due, the DAY orders whose
   * trading day is over, and the store's writes it refused, tried again.
   */
  tick(): void {
    this.atClose.run();
    this.expireDayOrders();
    this.store.retry();
  }

  /**
   * Ends the DAY orders whose trading day is over, as the broker cancels them then (KR 20:00 KST of
   * the order date, US 20:00 New York of its trading date): each gets its `OrderExpired`, stamped
   * with that time as live's is with the broker's `canceledAt`. Before,
   * an order ended only at the first book of a later session (the next morning's pre-market), and
   * its strategy saw it working all night. Call it often (the run's timer tick).
   */
  expireDayOrders(): void {
    // an order whose end is now or earlier (the broker cancels at 20:00:00.000)
    this.sim.expireDayOrdersBefore(this.o.clock.nowMs() + 1);
  }

  /** The open orders with their strategies (to cancel them on stop). */
  openOrders(): { clientOrderId: string; strategyId: string }[] {
    return this.orders.openOrders();
  }

  /**
   * Works again the orders saved by the last run, each as it stood (its whole quantity, what filled
   * of it, the rest reserved anew) under its `clientOrderId` and the broker id its strategy was told
   * (the row's current one; a new one, linked as its `create`, only when no row has one; before,
   * each restart linked a new id as one more `create`), and each is tracked by its strategy again
   * as the store lists it (the strategy's `openOrders()` shows it in `onStart`), with no event, as
   * live tracks an earlier run's order again. Before, only its unfilled part was submitted again as
   * a new order: the strategy got `OrderSubmitted` and `OrderAccepted` for it, saw a partly filled
   * order as an order of the rest with nothing filled, and its next fill's `cumulativeQuantity`
   * counted from 0. Orders of an earlier session have ended (DAY): see
   * {@link PaperAccount.expireUnrestored}. The fills a killed run stored and never told are told
   * once the orders are tracked, before those ends (`tellUntold`).
   *
   * @param runtime - the run's strategies
   * @param book - the risk module's book (it knows the orders as open, as live's)
   * @param tellUntold - tells the strategies the fills a killed run stored and never told
   *   (`tellUntoldEvents`, paper's notes)
   */
  async restoreOrders(
    runtime: EngineRuntime,
    book: RiskBook,
    tellUntold: () => void = () => undefined,
  ): Promise<void> {
    const now = this.o.clock.nowMs();
    const restored = restorablePaperOrders(this.o.db.strategyState.get(PAPER_STATE_ID, 'orders'), now);
    // an order with no limit holds cash (or shares) at a price: the broker's, when the run has none
    // of its symbol yet (before, 0: a restored market buy held nothing)
    const unpriced = restored.filter((o) => o.intent.orderType !== OrderType.LIMIT);
    await this.reserve.readMissing(
      unpriced.map((o) => o.intent.instrument.symbol),
      this.o.client,
    );
    for (const order of restored) {
      const id = order.intent.clientOrderId;
      const stored = this.o.db.orders.get(id);
      const fills = stored === null ? 0 : this.o.db.fills.byOrder(stored.id).length;
      const kept = stored?.brokerOrderId ?? undefined; // linked to it already
      const { intent, filledQuantity, filledAmount } = order;
      const brokerOrderId = this.sim.restore(intent, filledQuantity, filledAmount, fills, kept);
      this.orders.restore(order);
      const host = runtime.hosts.find((h) => h.strategyId === order.strategyId);
      try {
        if (kept === undefined) this.o.db.orders.linkBrokerOrderId(id, brokerOrderId, 'create', now);
        const row = this.o.db.orders.get(id);
        if (host !== undefined && row !== null) trackStoredOrder(host, book, row);
      } catch (error) {
        this.o.onError?.(error, 'paper-orders-table');
      }
      // an order no row lists (an older hoga's): as its intent and fills say
      if (host !== undefined && !host.owns(id)) {
        host.track({
          ...trackedOrderOf(order.intent),
          state: order.filledQuantity.isZero() ? 'ACCEPTED' : 'PARTIALLY_FILLED',
          filledQuantity: order.filledQuantity,
        });
      }
    }
    tellUntold();
    if (restored.length > 0) this.save();
    this.expireUnrestored(now, runtime);
    // the creates an earlier run gave and never judged (killed meanwhile): denied, told once
    try {
      this.creates.settle(runtime, now, (event) => this.stored.emit(event));
    } catch (error) {
      this.o.onError?.(error, 'paper-orders-table');
    }
    await runtime.settle();
  }

  /**
   * Every paper order of an earlier session that the `orders` table lists as working and that is
   * not back on the venue has ended with its session (a DAY order): one the saved orders held, and
   * a row an older hoga left working (it dropped such orders from the saved ones and left the
   * table as it was). Each gets its `OrderExpired`, stamped with the end of its trading day, through
   * the venue: the strategy, the journal and the table get it as live's reconciliation hands over
   * a DAY order the broker ended while the engine was down (before, paper wrote it to the journal
   * and the table only, and the strategy never heard of it). The saved orders follow (`onEvent`).
   * Its strategy tracks it again first, as the row has it, so that in the `onOrderEvent` of its
   * `OrderExpired` `ctx.order(id)` is the order as it ended (`EXPIRED`, its fills so far), as live's
   * `trackStoredOpenOrders` does (before, `undefined` there). A row of the current session is left
   * as it is.
   */
  private expireUnrestored(now: number, runtime: EngineRuntime): void {
    const working = new Set<string>(this.orders.openOrders().map((o) => o.clientOrderId));
    const ended = this.o.db.orders
      .list({ mode: 'paper', state: OPEN_ORDER_STATES, limit: Number.MAX_SAFE_INTEGER })
      .filter(
        (row) =>
          !working.has(row.clientOrderId) &&
          paperSession(row.symbol, row.createdAt) !== paperSession(row.symbol, now),
      );
    if (ended.length === 0) return;
    this.o.logger.info(
      { orders: ended.map((row) => row.clientOrderId) },
      'paper orders of an earlier session expired with it',
    );
    const hosts = new Map(runtime.hosts.map((h) => [h.strategyId as string, h]));
    for (const row of ended) {
      const host = row.strategyId === null ? undefined : hosts.get(row.strategyId);
      if (host !== undefined && !host.owns(row.clientOrderId)) host.track(storedView(row));
      const end = Math.min(now, dayOrderExpiry(marketOfSymbol(row.symbol), row.createdAt));
      this.sim.expireEarlier(
        {
          clientOrderId: row.clientOrderId,
          strategyId: (row.strategyId ?? undefined) as StrategyId | undefined,
        },
        end,
      );
    }
    this.save();
  }

  /** Starts polling the books of the symbols with working orders, from the run's streams. */
  attach(streams: BrokerStreams): void {
    this.bookPolls.attach(streams);
  }

  /** The ledger and the open orders, stored together (with the events still waiting, then told). */
  save(): void {
    this.store.save();
  }

  /**
   * The risk module's `gate`, closed to new orders and modifies while the store refuses writes, and
   * to a market buy with no price to hold its cash at; the risk module's `market`, its view of the
   * broker's market data, gives the last prices paper holds orders with no limit at. With the risk
   * module disabled (`config.enabled` false) what the broker would refuse is refused by the
   * broker's rules against that view, the paper ledger and the module's `book`
   * ({@link PaperBrokerRules}) as the broker answers it live, by the paper venue as it takes it (a
   * new order: `OrderSubmitted`, then `OrderRejected`; a modify or cancel: requested, then refused,
   * `sent: true`); the gate refuses only a modify live would not send ({@link PaperStoreGate}).
   */
  guard(gate: RiskGate, risk: Pick<RiskModule, 'market' | 'book' | 'config'>): RiskGate {
    const { market } = risk;
    this.market = market;
    this.reserve.useMarket(market);
    const rules = risk.config.enabled
      ? undefined
      : new PaperBrokerRules({ market, orders: risk.book, clock: this.o.clock });
    this.sim.judgeOrdersBy(
      rules === undefined
        ? undefined
        : (command) => {
            const verdict = rules.check(command);
            return verdict.accepted ? null : verdict;
          },
    );
    return new PaperStoreGate(gate, this.store, this.reserve, rules, this.creates);
  }

  /** Whether the paper store refused its last write (what it holds waits for it). */
  get storeRefusing(): boolean {
    return this.store.refusing;
  }

  /** How many orders work on the venue. */
  get workingCount(): number {
    return this.sim.workingCount;
  }

  /**
   * At the run's stop, before the strategies stop: stores what waits for the store now (however
   * recently it refused a write), and tells the runtime what it stored. Whether all is stored.
   */
  flush(): boolean {
    return this.store.flush();
  }

  /**
   * At the run's stop, once the strategies have stopped: stores the ledger and the open orders,
   * unless events still wait for the store (they are neither stored nor told then: see
   * {@link PaperStore.close}); says what the store is left without (`onError`).
   *
   * @returns null when all is stored, else how many order events the store is left without (0:
   *   the ledger and the open orders only)
   */
  close(): number | null {
    return this.store.close();
  }

  /** Stops polling books. */
  detach(): void {
    this.bookPolls.detach();
  }
}
