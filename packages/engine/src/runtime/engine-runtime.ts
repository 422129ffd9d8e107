/**
 * The engine's centre in every mode: it hosts the strategies, sends their order commands through
 * the risk gate to the venue, and routes every order event to the strategy's order view, the
 * portfolio, the store and then the strategy's hooks. What differs between modes is only what the
 * container binds behind its tokens; the mode's driver (the backtest loop, a live feed) delivers
 * market data and fires timers.
 *
 * @module
 */
import {
  type BarInterval,
  type ClientOrderId,
  type Clock,
  type Fill,
  judgeOrderIntent,
  type Logger,
  type OrderEvent,
  strategyId as toStrategyId,
} from '@hoga/core';
import { inject, optional } from 'inversify';
import {
  type CancelOrder,
  type ModifyOrder,
  modifyPrice,
  modifyQuantity,
  type SubmitOrder,
} from '../commands/order-commands.js';
import { EngineError, EngineErrorCode, StrategyHookError } from '../engine-error.js';
import { AccountViewToken } from '../portfolio/account-view.js';
import { Portfolio } from '../portfolio/portfolio.js';
import { RiskGate } from '../risk/risk-gate.js';
import { EventRecorder } from '../store/event-recorder.js';
import { StrategyStateStore } from '../store/strategy-state-store.js';
import { sayMisnamedHooks } from '../strategy/hook-names.js';
import type { StrategyClass, StrategyHook } from '../strategy/strategy.js';
import { parseStrategyConfig } from '../strategy/strategy-config.js';
import type {
  AccountView,
  DecimalInput,
  OrderRequest,
  TimerSpec,
  Universe,
} from '../strategy/strategy-context.js';
import { ExecutionVenue } from '../venue/execution-venue.js';
import { CommandPath } from './command-path.js';
import { EventQueue } from './event-queue.js';
import { HookWatch } from './hook-watch.js';
import type { HostServices } from './host-services.js';
import {
  checkOrderChange,
  decimalOf,
  intentInput,
  orderIdOf,
  orderRequestOf,
  symbolOf,
  timerDueOf,
} from './intent-input.js';
import type { OrderHours } from './market-order-hours.js';
import { OrderIdFactory } from './order-ids.js';
import type { LastPriceLookup, PriceLimitsLookup } from './strategy-budget.js';
import { StrategyHost } from './strategy-host.js';
import { StrategyOrderChecks } from './strategy-order-checks.js';
import { type Subscription, SubscriptionBook } from './subscription-book.js';
import { TimerQueue } from './timer-queue.js';
import {
  ClockToken,
  type InstrumentLookup,
  InstrumentsToken,
  LastPriceToken,
  LoggerToken,
  OrderHoursToken,
  PriceLimitsToken,
  RunSettings,
} from './tokens.js';

export type { Subscription } from './subscription-book.js';

/** How a strategy is added to a run. */
export interface StrategySpec {
  readonly strategyClass: StrategyClass;
  /** The raw config (validated against the class's `configSchema`). */
  readonly config?: unknown;
  /** Instance id (default: the class name). */
  readonly id?: string;
  /** Starting cash of this strategy (default: the run's cash). */
  readonly cash?: RunSettings['cash'];
}

/** Hosts strategies and routes commands and events. */
export class EngineRuntime implements HostServices {
  /** The strategies, in the order added. */
  readonly hosts: StrategyHost[] = [];
  /** The first hook failure; the run stops once set. */
  failure: StrategyHookError | null = null;
  /** Nesting depth of hook calls: events are queued while a hook runs and routed after it. */
  inHook = 0;
  /** Extra data subscriptions made by strategies (what is subscribed now; `listen` to follow them). */
  readonly subscriptionBook: SubscriptionBook;
  /** A backtest's symbols whose bars it loaded after `onStart` (a later one's are said); null in paper and live. */
  barsLoaded: ReadonlySet<string> | null = null;
  readonly mode: RunSettings['mode'];
  readonly universe: Universe;
  private readonly queue = new EventQueue();
  /** Routes one event (made once: the queue is drained with it on every order event). */
  private readonly routeEvent = (event: OrderEvent): void => this.route(event);
  private pending: Promise<void> | null = null;
  /** The hooks' promises alone among {@link pending} (not the gate's checks): see {@link settleHooks}. */
  private hooksPending: Promise<void> | null = null;
  private readonly fillListeners: ((fill: Fill, event: OrderEvent) => void)[] = [];
  private readonly log: Logger;
  /** Its own checks of the strategies' commands, before the gate. */
  private readonly checks: StrategyOrderChecks;
  /** The way of the strategies' commands through the risk gate to the venue. */
  private readonly path: CommandPath;
  /** Warns of a hook's promise unsettled for long (a hook awaiting its own order's fill). */
  private readonly hookWatch = new HookWatch(() => this.hooksPending !== null);
  private commands = 0;

  constructor(
    @inject(ClockToken) readonly clock: Clock,
    @inject(RunSettings) private readonly settings: RunSettings,
    @inject(RiskGate) risk: RiskGate,
    @inject(ExecutionVenue) private readonly venue: ExecutionVenue,
    @inject(Portfolio) readonly portfolio: Portfolio,
    @inject(EventRecorder) private readonly recorder: EventRecorder,
    @inject(StrategyStateStore) private readonly states: StrategyStateStore,
    @inject(AccountViewToken) readonly account: AccountView,
    @inject(TimerQueue) readonly timers: TimerQueue,
    @inject(OrderIdFactory) private readonly ids: OrderIdFactory,
    @inject(LoggerToken) logger: Logger,
    @inject(InstrumentsToken) @optional() private readonly instruments?: InstrumentLookup,
    @inject(OrderHoursToken) @optional() readonly orderHours?: OrderHours,
    @inject(PriceLimitsToken) @optional() limits?: PriceLimitsLookup,
    @inject(LastPriceToken) @optional() brokerLast?: LastPriceLookup,
  ) {
    this.mode = settings.mode;
    // frozen, and a copy: a strategy that pushed to `ctx.universe.symbols` changed the run's own
    // list (the report's header) and every other strategy's universe
    this.universe = Object.freeze({
      symbols: Object.freeze([...settings.symbols]),
      interval: settings.interval,
    });
    this.log = logger.child({ component: 'engine' });
    this.subscriptionBook = new SubscriptionBook(this.universe, this.mode, this.log);
    this.path = new CommandPath(risk, venue, recorder, this.log, {
      enqueue: (event) => this.enqueue(event),
      await: (promise) => this.await(promise),
      venueFailed: (strategyId, error) => {
        const host = this.hosts.find((h) => h.strategyId === strategyId);
        if (host !== undefined) this.fail(host, 'venue', error);
      },
    });
    this.checks = new StrategyOrderChecks(
      this.path,
      this.hosts,
      portfolio,
      () => this.account,
      limits,
      brokerLast,
    );
    venue.events$.subscribe((event) => this.enqueue(event));
  }

  /**
   * Adds a strategy: validates its config, opens its books and constructs it.
   *
   * @throws {@link StrategyConfigError} when the config fails the class's schema
   * @throws {@link StrategyHookError} (hook `constructor`) when its constructor throws
   */
  addStrategy(spec: StrategySpec): StrategyHost {
    const cls = spec.strategyClass;
    const id = toStrategyId(spec.id ?? cls.name);
    if (this.hosts.some((h) => h.strategyId === id)) {
      throw new EngineError(EngineErrorCode.INVALID_RUN_OPTIONS, `two strategies share the id ${id}`);
    }
    const config = parseStrategyConfig(
      cls.name,
      cls.configSchema,
      spec.config === undefined ? {} : spec.config,
    );
    const log = this.log.child({ component: 'strategy', strategyId: id });
    const book = this.portfolio.open(id, spec.cash ?? this.settings.cash);
    const host = new StrategyHost(id, cls, this, log, this.states.forStrategy(id), book, config);
    // Among the run's strategies while it is constructed, its events held until it is: an order it
    // places in its constructor is answered at once by a backtest's venue (before, those events
    // found no strategy, and its view of the order stayed INITIALIZED, open, to the run's end)
    this.hosts.push(host);
    this.inHook++;
    try {
      host.strategy = new cls(host, config as never);
    } catch (error) {
      this.hosts.splice(this.hosts.indexOf(host), 1);
      throw new StrategyHookError(id, 'constructor', error, cls);
    } finally {
      this.inHook--;
    }
    sayMisnamedHooks(host.strategy, id, log);
    this.drain();
    return host;
  }

  /** Registers a callback for every fill routed (after the portfolio and the store saw it). */
  onFillRouted(listener: (fill: Fill, event: OrderEvent) => void): void {
    this.fillListeners.push(listener);
  }

  /** Calls a hook of one strategy: a throw or a rejected promise is its failure (then only `onStop` is called). */
  call(host: StrategyHost, hook: StrategyHook, argument?: unknown): void {
    if (this.failure !== null && hook !== 'onStop') return;
    const fn = host.strategy[hook] as ((arg?: unknown) => unknown) | undefined;
    if (fn === undefined) return;
    this.inHook++;
    try {
      const result = fn.call(host.strategy, argument);
      if (result !== undefined && typeof (result as Promise<void>).then === 'function') {
        this.awaitHook(host, hook, result as Promise<void>);
      }
    } catch (error) {
      this.fail(host, hook, error);
    } finally {
      this.inHook--;
    }
    if (this.inHook === 0) this.drain();
  }

  /** Waits for a hook's promise (a method: a closure in `call` would allocate a context per bar). */
  private awaitHook(host: StrategyHost, hook: string, result: Promise<void>): void {
    if (this.hooksPending === null) this.hookWatch.started(host, hook);
    const settled = result.then(undefined, (error: unknown) => this.fail(host, hook, error));
    this.await(settled);
    const previous = this.hooksPending;
    this.hooksPending = previous === null ? settled : previous.then(() => settled);
  }

  /** Calls a hook on every strategy, in order. */
  callAll(hook: StrategyHook, argument?: unknown): void {
    for (const host of this.hosts) this.call(host, hook, argument);
  }

  /**
   * Resolves once every promise a hook returned, and every command waiting for the gate, has settled
   * (the backtest awaits it per step).
   */
  async settle(): Promise<void> {
    while (this.pending !== null) {
      const p = this.pending;
      await p;
      if (this.pending === p) this.pending = null;
    }
    // (every hook's promise was among them)
    this.hooksPending = null;
    this.drain();
  }

  /**
   * Resolves once every promise a hook returned has settled, without waiting for the commands still
   * waiting for the gate (a backtest's `onStart` orders for symbols subscribed to there wait for
   * their last close before the run, read once their bars are opened, after `onStart` ended).
   */
  async settleHooks(): Promise<void> {
    while (this.hooksPending !== null) {
      const p = this.hooksPending;
      await p;
      if (this.hooksPending === p) this.hooksPending = null;
    }
    this.drain();
  }

  /** Whether an async hook is still running. */
  get busy(): boolean {
    return this.pending !== null;
  }

  /** Records a hook failure of a strategy (see {@link EngineRuntime.failWith}). */
  fail(host: StrategyHost, hook: string, error: unknown): void {
    this.failWith(new StrategyHookError(host.strategyId, hook, error, host.strategyClass), host.log);
  }

  /**
   * Records a failure, a hook's or a stray one (`watchStrayFailures`): the first one wins; logs it
   * and tells the listeners of the first. A later one (an `onStop` throwing after the failure that
   * stopped the run) is said as a warning: the caller reports the first alone.
   */
  failWith(failure: StrategyHookError, log: Logger = this.log): void {
    const first = this.failure === null;
    if (first) this.failure = failure;
    // The caller reports the first failure once; the stack is for --verbose.
    log.debug({ err: failure.cause, hook: failure.hook }, failure.message);
    if (first) for (const listener of this.failureListeners) listener(failure);
    else log.warn({ hook: failure.hook }, `${failure.message}, after the failure that stopped the run`);
  }

  /**
   * Calls `listener` once, at the first hook failure (at once when one happened already): a live
   * or paper run stops then, as a backtest does, instead of running on with no strategy called.
   */
  onFailure(listener: (failure: StrategyHookError) => void): void {
    if (this.failure !== null) listener(this.failure);
    else this.failureListeners.push(listener);
  }

  private readonly failureListeners: ((failure: StrategyHookError) => void)[] = [];

  /** Routes queued order events (unless a hook is running or routing is already under way). */
  drain(): void {
    if (this.inHook === 0) this.queue.drain(this.routeEvent);
  }

  /** Fires one due timer on its strategy. */
  fireTimer(owner: string, name: string, due: number): void {
    const host = this.hosts.find((h) => h.strategyId === owner);
    if (host !== undefined)
      this.call(host, 'onTimer', { type: 'TimerFired', name, tsEvent: due, tsInit: this.clock.nowMs() });
  }

  /** Ends the run: `onStop` on every strategy, pending events routed, the store flushed. */
  async stop(): Promise<void> {
    await this.settle();
    this.callAll('onStop');
    await this.settle();
    for (const host of this.hosts) host.end();
    this.drain();
    this.hookWatch.stop();
    this.recorder.flush();
    await this.venue.dispose();
  }

  // ---- HostServices -------------------------------------------------------------------------

  /** @inheritdoc */
  submit(host: StrategyHost, request: OrderRequest): ClientOrderId {
    request = orderRequestOf(request);
    // symbols are upper-case, as --symbols takes them (`aapl` is AAPL)
    const symbol = symbolOf(request.symbol, 'order: symbol');
    if (symbol !== request.symbol) request = { ...request, symbol };
    const clientOrderId = this.ids.next(host.strategyId);
    // an order the broker would refuse for its shape (a fractional buy) is denied, not thrown
    const { intent, refusal } = judgeOrderIntent(
      intentInput(host.strategyId, clientOrderId, request, this.instruments?.(request.symbol)),
    );
    const now = this.clock.nowMs();
    host.trackNew(intent);
    const command: SubmitOrder = {
      type: 'SubmitOrder',
      commandId: `${clientOrderId}:submit`,
      strategyId: host.strategyId,
      tsInit: now,
      intent,
    };
    const fromAccount = 'quantity' in request && request.fromAccount === true;
    if (!this.checks.refusesSubmit(command, host, fromAccount, refusal))
      this.path.send(command, clientOrderId);
    return clientOrderId;
  }

  /** @inheritdoc */
  modify(
    host: StrategyHost,
    id: ClientOrderId,
    change: { price?: DecimalInput; quantity?: DecimalInput; confirmHighValue?: boolean },
  ): void {
    orderIdOf(id, 'modify');
    checkOrderChange(change, id);
    const order = host.order(id);
    const quantity = modifyQuantity(
      change.quantity === undefined
        ? undefined
        : decimalOf(change.quantity, `modify of order ${id}: quantity`),
      order,
    );
    // a change of the quantity alone keeps the limit (the broker's modify needs a price)
    const price = modifyPrice(
      change.price === undefined ? undefined : decimalOf(change.price, `modify of order ${id}: price`),
      order,
    );
    const command: ModifyOrder = {
      type: 'ModifyOrder',
      commandId: `${id}:modify:${++this.commands}`,
      strategyId: host.strategyId,
      tsInit: this.clock.nowMs(),
      clientOrderId: id,
      orderType: order?.orderType ?? 'LIMIT',
      ...(price === undefined ? {} : { price }),
      ...(quantity === undefined ? {} : { quantity }),
      confirmHighValue: change.confirmHighValue === true,
    };
    if (!this.checks.refusesModify(command, host, order)) this.path.send(command, id);
  }

  /** @inheritdoc */
  cancel(host: StrategyHost, id: ClientOrderId): void {
    orderIdOf(id, 'cancel');
    const command: CancelOrder = {
      type: 'CancelOrder',
      commandId: `${id}:cancel:${++this.commands}`,
      strategyId: host.strategyId,
      tsInit: this.clock.nowMs(),
      clientOrderId: id,
    };
    if (!this.checks.refusesCancel(command, host)) this.path.send(command, id);
  }

  /** @inheritdoc */
  setTimer(host: StrategyHost, name: string, spec: TimerSpec): void {
    this.timers.set(host.strategyId, name, timerDueOf(name, spec, this.clock.nowMs()), spec.every);
  }

  /** @inheritdoc */
  cancelTimer(host: StrategyHost, name: string): boolean {
    return this.timers.cancel(host.strategyId, name);
  }

  /** @inheritdoc */
  subscribe(host: StrategyHost, kind: Subscription['kind'], asked: string, interval?: BarInterval): void {
    this.subscriptionBook.subscribe(host.strategyId, kind, asked, interval, this.barsLoaded);
  }

  /** @inheritdoc */
  unsubscribe(host: StrategyHost, kind: Subscription['kind'], asked: string, interval?: BarInterval): void {
    this.subscriptionBook.unsubscribe(host.strategyId, kind, asked, interval);
  }

  // ---- routing ------------------------------------------------------------------------------

  private enqueue(event: OrderEvent): void {
    // a create denied (by the runtime, the risk gate): closed for its strategy at once
    if (event.type === 'OrderDenied' && event.strategyId !== undefined)
      this.hostOf(event.strategyId)?.deniedNow(event.clientOrderId);
    this.queue.push(event);
    if (this.inHook === 0) this.drain();
  }

  private route(event: OrderEvent): void {
    const host = event.strategyId === undefined ? undefined : this.hostOf(event.strategyId);
    host?.apply(event);
    this.portfolio.onOrderEvent(event);
    this.recorder.record(event);
    const fill =
      event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled' ? event.fill : undefined;
    if (fill !== undefined) for (const listener of this.fillListeners) listener(fill, event);
    if (host === undefined) return;
    this.call(host, 'onOrderEvent', event);
    if (fill !== undefined) this.call(host, 'onFill', fill);
  }

  private hostOf(id: string): StrategyHost | undefined {
    const hosts = this.hosts;
    for (let i = 0; i < hosts.length; i++) if (hosts[i]?.strategyId === id) return hosts[i];
    return undefined;
  }

  private await(promise: Promise<void>): void {
    const previous = this.pending;
    this.pending = previous === null ? promise : previous.then(() => promise);
  }
}
