import { setTimeout as sleep } from 'node:timers/promises';
import {
  admitCancel,
  admitModify,
  checkHighValue,
  checkStillOpen,
  minOrderAmountRejection,
  workingOrderValueKrw,
} from '@hoga/broker-model';
import { BrokerOrderStatus, type Clock, type KnownBrokerOrderStatus } from '@hoga/core';
import type { DateTime } from 'luxon';
import { type MarketModel, type SimInstrument, tradableInstrument } from '../market/market-model.js';
import { AccountRegistry, defaultAccounts } from './accounts.js';
import { type AdmissionContext, accountView, checkAdmission, marketMoment } from './admission.js';
import { invalidRequest, orThrow } from './brokerage-errors.js';
import { commissionsPayload } from './fees.js';
import { holdingsPayload } from './holdings-view.js';
import { type CreateResult, IdempotencyWindow } from './idempotency.js';
import { MarketLook } from './market-look.js';
import { MatchingEngine } from './matching-engine.js';
import { OrderCounters } from './order-counters.js';
import { buildCancelRecord, buildOrder, type NewOrderFields } from './order-factory.js';
import { toOrderRecord } from './order-records.js';
import { OrderStore } from './order-store.js';
import type { SimOrder } from './order-types.js';
import { modifyRequestOf, parseCreateOrder, parseModifyShape } from './order-validation.js';
import { buyingPowerPayload, sellableQuantityPayload } from './reservations.js';
import { type BrokerageCounters, type BrokerageState, readState } from './state-file.js';
import { StateSaver } from './state-saver.js';

/** Options of {@link Brokerage}. */
export interface BrokerageOptions {
  /** The simulated market the brokerage trades against. */
  readonly market: MarketModel;
  /** The simulated clock. */
  readonly clock: Clock;
  /** Seed of the order ids (each instance adds a random part of its own). */
  readonly seed: number;
  /** JSON file the state is saved to and restored from (`--state`). */
  readonly statePath?: string;
  /**
   * Receives a failed save after a create, modify or cancel (the change stands in memory and is
   * answered as done); default writes one line to stderr.
   */
  readonly onSaveError?: (error: unknown) => void;
}

/** Options of one order operation. */
export interface OperationOptions {
  /** Fault "slow order processing": keep the request in progress this many real milliseconds. */
  readonly processingDelayMs?: number;
}

/**
 * The simulated brokerage: accounts, cash and holdings, buying power, order
 * creation, modification and cancellation with every order rule of the spec,
 * the `clientOrderId` window, order history, and the matching engine that
 * fills orders against the simulated market as the clock advances.
 */
export class Brokerage {
  private readonly market: MarketModel;
  private readonly clock: Clock;
  private accountsRegistry: AccountRegistry;
  private store: OrderStore;
  private idempotency = new IdempotencyWindow();
  private readonly engine: MatchingEngine;
  private lastAdvancedMs: number;
  private hideWindowEndMs = 0;
  private hideDurationMs = 0;
  private orderCounters = new OrderCounters();
  private readonly saver: StateSaver;

  constructor(private readonly options: BrokerageOptions) {
    this.market = options.market;
    this.clock = options.clock;
    this.saver = new StateSaver(options.statePath, options.onSaveError);
    this.accountsRegistry = new AccountRegistry(defaultAccounts());
    this.store = new OrderStore(options.seed);
    this.engine = new MatchingEngine(this.market, (seq) => this.accountsRegistry.get(seq).ledger);
    this.lastAdvancedMs = this.clock.nowMs();
  }

  /** Creates a brokerage, restoring `statePath` when the file exists. */
  static async open(options: BrokerageOptions): Promise<Brokerage> {
    return Brokerage.restored(
      options,
      options.statePath === undefined ? null : await readState(options.statePath),
    );
  }

  /** Creates a brokerage from a state already read with `readState` (null: a fresh one). */
  static restored(options: BrokerageOptions, state: BrokerageState | null): Brokerage {
    const brokerage = new Brokerage(options);
    if (state) brokerage.restore(state);
    return brokerage;
  }

  private restore(state: BrokerageState): void {
    this.accountsRegistry = new AccountRegistry(state.accounts);
    this.store = new OrderStore(this.options.seed, state.orders, state.sequence);
    this.idempotency = new IdempotencyWindow(state.idempotency);
    this.orderCounters = new OrderCounters(state.counters);
    if (state.lastAdvancedMs !== null)
      this.lastAdvancedMs = Math.max(this.lastAdvancedMs, state.lastAdvancedMs);
  }

  /** Payload of `GET /api/v1/accounts`. */
  accounts(): unknown {
    return this.accountsRegistry.payload();
  }

  /** Resolves the account header: 400 `account-header-required`, 404 `account-not-found`. */
  requireAccount(header: string | undefined): number {
    return this.accountsRegistry.require(header);
  }

  /** Payload of `GET /api/v1/holdings`. */
  holdings(accountSeq: number, query: URLSearchParams): unknown {
    this.advanceTo(this.clock.now());
    return holdingsPayload(this.market, this.ledger(accountSeq), query, this.clock.now());
  }

  /** Payload of `GET /api/v1/buying-power`. */
  buyingPower(accountSeq: number, query: URLSearchParams): unknown {
    this.advanceTo(this.clock.now());
    return buyingPowerPayload(this.ledger(accountSeq), this.store.openOf(accountSeq), query);
  }

  /** Payload of `GET /api/v1/sellable-quantity`. */
  sellableQuantity(accountSeq: number, query: URLSearchParams): unknown {
    this.advanceTo(this.clock.now());
    return sellableQuantityPayload(
      this.market,
      this.ledger(accountSeq),
      this.store.openOf(accountSeq),
      query,
    );
  }

  /** Payload of `GET /api/v1/commissions`. */
  commissions(accountSeq: number): unknown {
    this.ledger(accountSeq);
    return commissionsPayload();
  }

  /**
   * `POST /api/v1/orders`: validation (400/404), the `clientOrderId` window
   * (replay, 409, 422), the high-value confirmation (400), business rules
   * (422), buying power or sellable quantity (422); then the order is stored
   * and matched at once if marketable.
   */
  async createOrder(accountSeq: number, body: unknown, options: OperationOptions = {}): Promise<unknown> {
    this.ledger(accountSeq);
    this.advanceTo(this.clock.now());
    const intent = parseCreateOrder(this.market, body);
    const now = this.clock.now();
    const moment = marketMoment(this.market, intent.instrument, now);
    orThrow(
      checkHighValue(
        workingOrderValueKrw(tradableInstrument(intent.instrument), intent, moment),
        intent.confirmHighValueOrder,
      ),
    );
    const clientOrderId = intent.clientOrderId;
    if (clientOrderId !== null) {
      const decision = this.idempotency.check(accountSeq, clientOrderId, intent.fingerprint, now.toMillis());
      if (decision.kind === 'replay') return decision.result;
      this.idempotency.begin(accountSeq, clientOrderId, intent.fingerprint, now.toMillis());
    }
    try {
      if (options.processingDelayMs !== undefined && options.processingDelayMs > 0) {
        await sleep(options.processingDelayMs);
        this.advanceTo(this.clock.now());
      }
      const fields: NewOrderFields = {
        accountSeq,
        instrument: intent.instrument,
        side: intent.side,
        orderType: intent.orderType,
        timeInForce: intent.timeInForce,
        price: intent.price,
        quantity: intent.quantity,
        orderAmount: intent.orderAmount,
        originOrderId: null,
      };
      const order = this.admit(fields, this.clock.now());
      this.orderCounters.orderCreated(clientOrderId);
      const result: CreateResult = { orderId: order.orderId, clientOrderId };
      if (clientOrderId !== null) this.idempotency.complete(accountSeq, clientOrderId, result);
      // a failed save is reported, never answered: the order exists, and a 500 would have the
      // client retry it (twice placed, without a `clientOrderId`)
      await this.saver.reportFailure(() => this.save());
      return result;
    } catch (error) {
      if (clientOrderId !== null) this.idempotency.abandon(accountSeq, clientOrderId);
      throw error;
    }
  }

  /**
   * `POST /api/v1/orders/{orderId}/modify`: replaces an open order by a new one
   * (new id; the original ends REPLACED with its fills kept).
   */
  async modifyOrder(
    accountSeq: number,
    orderId: string,
    body: unknown,
    options: OperationOptions = {},
  ): Promise<unknown> {
    this.advanceTo(this.clock.now());
    const shape = parseModifyShape(body);
    const original = this.store.require(accountSeq, orderId);
    const instrument = this.instrumentOf(original);
    const tradable = tradableInstrument(instrument);
    const now = this.clock.now();
    const open = this.store.openOf(accountSeq).filter((o) => o !== original);
    const modify = orThrow(
      admitModify({
        instrument: tradable,
        order: original,
        request: modifyRequestOf(shape),
        moment: marketMoment(this.market, instrument, now),
        account: accountView(this.ledger(accountSeq), open, tradable),
      }),
    );
    const fields: NewOrderFields = {
      accountSeq,
      instrument,
      side: original.side,
      orderType: shape.orderType,
      timeInForce: original.timeInForce,
      price: modify.price,
      quantity: modify.quantity,
      orderAmount: null,
      originOrderId: original.orderId,
      expiresAtMs: original.expiresAtMs,
    };
    await this.holdWhileProcessing(original, BrokerOrderStatus.PENDING_REPLACE, options);
    const at = this.clock.now();
    this.engine.close(original, BrokerOrderStatus.REPLACED, at.toMillis());
    const replacement = this.store.nextId();
    const order = buildOrder(this.market, fields, replacement, at, this.hiddenUntil(at.toMillis()));
    this.store.add(order);
    this.engine.match(order, new MarketLook(this.market, at.toMillis()));
    this.orderCounters.orderModified();
    await this.saver.reportFailure(() => this.save());
    return { orderId: order.orderId };
  }

  /**
   * `POST /api/v1/orders/{orderId}/cancel` (empty JSON object, or no body):
   * the original ends CANCELED with its fills kept; a new CANCELED record of
   * the cancelled remainder is created and its id answered.
   */
  async cancelOrder(
    accountSeq: number,
    orderId: string,
    body: unknown,
    options: OperationOptions = {},
  ): Promise<unknown> {
    this.advanceTo(this.clock.now());
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw invalidRequest('body', 'The cancel body must be an empty JSON object');
    }
    const original = this.store.require(accountSeq, orderId);
    const instrument = this.instrumentOf(original);
    orThrow(
      admitCancel({
        instrument: tradableInstrument(instrument),
        order: original,
        moment: marketMoment(this.market, instrument, this.clock.now()),
      }),
    );
    await this.holdWhileProcessing(original, BrokerOrderStatus.PENDING_CANCEL, options);
    const atMs = this.clock.nowMs();
    const record = buildCancelRecord(original, this.store.nextId(), atMs, this.hiddenUntil(atMs));
    this.engine.close(original, BrokerOrderStatus.CANCELED, atMs);
    this.store.add(record);
    this.orderCounters.orderCanceled();
    await this.saver.reportFailure(() => this.save());
    return { orderId: record.orderId };
  }

  /** Payload of `GET /api/v1/orders`. */
  listOrders(accountSeq: number, query: URLSearchParams): unknown {
    this.advanceTo(this.clock.now());
    const symbol = query.get('symbol');
    const canonical = symbol === null ? undefined : this.market.instrument(symbol)?.symbol;
    if (canonical !== undefined && canonical !== symbol) {
      const normalized = new URLSearchParams(query);
      normalized.set('symbol', canonical);
      return this.store.list(accountSeq, normalized, this.clock.nowMs());
    }
    return this.store.list(accountSeq, query, this.clock.nowMs());
  }

  /** Payload of `GET /api/v1/orders/{orderId}`. */
  orderDetail(accountSeq: number, orderId: string): unknown {
    this.advanceTo(this.clock.now());
    return toOrderRecord(this.store.require(accountSeq, orderId));
  }

  /**
   * Runs matching from the last call up to `now` (fills, expiries). Calling it
   * again with the same or an earlier instant does nothing; a clock set back
   * restarts from there.
   */
  advanceTo(now: DateTime): void {
    const nowMs = now.toMillis();
    if (nowMs > this.lastAdvancedMs) this.engine.advance(this.store.open(), this.lastAdvancedMs, nowMs);
    this.lastAdvancedMs = nowMs;
  }

  /** Fault: orders created in the next `ms` (simulated) stay out of list results for `ms` after creation. */
  hideNewOrdersFor(ms: number): void {
    this.hideWindowEndMs = this.clock.nowMs() + ms;
    this.hideDurationMs = ms;
  }

  /**
   * Orders actually created (modify and cancel records not counted), in total and per
   * `clientOrderId`, and the modifies and cancels done.
   */
  counters(): BrokerageCounters {
    return this.orderCounters.snapshot();
  }

  /**
   * Writes the state file (atomic rename); a no-op without `statePath`. Every
   * create, modify and cancel saves before answering; `close()` saves the
   * fills since. Saves run one after another.
   */
  save(): Promise<void> {
    return this.saver.save(
      (): BrokerageState => ({
        sequence: this.store.lastSequence(),
        lastAdvancedMs: this.lastAdvancedMs,
        accounts: this.accountsRegistry.all(),
        orders: this.store.all(),
        idempotency: this.idempotency.snapshot(this.clock.nowMs()),
        counters: this.counters(),
      }),
    );
  }

  private ledger(accountSeq: number) {
    return this.accountsRegistry.get(accountSeq).ledger;
  }

  private instrumentOf(order: SimOrder): SimInstrument {
    const instrument = this.market.instrument(order.symbol);
    if (!instrument) throw new Error(`Brokerage: order ${order.orderId} on unknown symbol ${order.symbol}`);
    return instrument;
  }

  private admissionContext(accountSeq: number): AdmissionContext {
    return { market: this.market, ledger: this.ledger(accountSeq), openOrders: this.store.open() };
  }

  private hiddenUntil(nowMs: number): number {
    return nowMs < this.hideWindowEndMs ? nowMs + this.hideDurationMs : 0;
  }

  /** Keeps a modify or cancel in progress (the order frozen, shown PENDING_*) for the fault's delay. */
  private async holdWhileProcessing(
    order: SimOrder,
    pending: KnownBrokerOrderStatus,
    options: OperationOptions,
  ): Promise<void> {
    if (options.processingDelayMs === undefined || options.processingDelayMs <= 0) return;
    const previous = order.status;
    order.status = pending;
    try {
      await sleep(options.processingDelayMs);
      this.advanceTo(this.clock.now());
    } finally {
      order.status = previous;
    }
    orThrow(checkStillOpen(order));
  }

  /** Checks and stores a new order, then matches it at once; amount orders under $1 end REJECTED. */
  private admit(fields: NewOrderFields, now: DateTime): SimOrder {
    checkAdmission(
      this.admissionContext(fields.accountSeq),
      tradableInstrument(fields.instrument),
      fields.accountSeq,
      fields,
      marketMoment(this.market, fields.instrument, now),
      null,
    );
    const order = buildOrder(this.market, fields, this.store.nextId(), now, this.hiddenUntil(now.toMillis()));
    this.store.add(order);
    if (minOrderAmountRejection(order.orderAmount ?? null) !== null) {
      order.status = BrokerOrderStatus.REJECTED;
      return order;
    }
    this.engine.match(order, new MarketLook(this.market, now.toMillis()));
    return order;
  }
}
