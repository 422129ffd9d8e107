/**
 * Buying power and sellable quantity as the broker states them (`GET /buying-power`,
 * `GET /sellable-quantity`, group `ORDER_INFO`), re-read before an order when older than a
 * configurable age (the spec: "Call these just before order creation for accurate validation"),
 * and reduced by what each order hoga lets through holds back until the next read.
 *
 * @module
 */
import type { ReservingOrder } from '@hoga/broker-model';
import { reservedCash, reservedShares } from '@hoga/broker-model';
import type { Clock, Currency, Decimal } from '@hoga/core';
import type { FundsView } from './broker-rules-check.js';
import type { ReadOptions } from './market-info-source.js';

/** The two ORDER_INFO reads (the connector's `BrokerClient` has them, rate-limited in its ORDER_INFO bucket). */
export interface AccountInfoSource {
  getBuyingPower(
    currency: 'KRW' | 'USD',
    options?: ReadOptions,
  ): Promise<{ readonly cashBuyingPower: Decimal }>;
  getSellableQuantity(symbol: string, options?: ReadOptions): Promise<{ readonly sellableQuantity: Decimal }>;
}

interface Stamped {
  value: Decimal;
  readonly atMs: number;
}

/** Caches the broker's buying power per currency and sellable quantity per symbol. */
export class AccountInfoProvider implements FundsView {
  private readonly cash = new Map<Currency, Stamped>();
  private readonly shares = new Map<string, Stamped>();
  private readonly inFlight = new Map<string, Promise<void>>();
  /**
   * How often each figure (`cash:KRW`, `shares:005930`) was changed here (`reserve`, `forget`;
   * `invalidate`: all of them, `epoch`): a read sent before a change answers with the figure of
   * before it, which is kept stale (the next order re-reads it). Before, it was taken as fresh: a
   * sell's fill forgotten during a background read came back as the sellable quantity of before it.
   */
  private readonly changes = new Map<string, number>();
  private epoch = 0;
  /** Reads made (for tests and the status line). */
  reads = 0;

  /**
   * @param source - the broker (a `BrokerClient`)
   * @param clock - engine clock (age of the cached figures)
   * @param maxAgeMs - figures older than this are re-read before an order
   */
  constructor(
    private readonly source: AccountInfoSource,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
  ) {}

  /**
   * Re-reads the buying power of `currency` and, for a sell, the sellable quantity of `symbol`, when stale.
   *
   * @param options - how the reads are queued (the background refresh passes the `POLL` priority
   *   and its stop signal); an order's read (no options) never joins a background read
   */
  async refresh(
    currency: Currency,
    symbol: string | null,
    force = false,
    options: ReadOptions = {},
  ): Promise<void> {
    const jobs: Promise<void>[] = [];
    const tag = options.priority === undefined ? '' : `@${options.priority}`;
    if (force || this.stale(this.cash.get(currency))) {
      jobs.push(
        this.once(`cash:${currency}${tag}`, async () => {
          const sent = this.sent(`cash:${currency}`);
          const answer = await this.source.getBuyingPower(currency, options);
          this.reads += 1;
          this.cash.set(currency, { value: answer.cashBuyingPower, atMs: this.stampOf(sent) });
        }),
      );
    }
    if (symbol !== null && (force || this.stale(this.shares.get(symbol)))) {
      jobs.push(
        this.once(`shares:${symbol}${tag}`, async () => {
          const sent = this.sent(`shares:${symbol}`);
          const answer = await this.source.getSellableQuantity(symbol, options);
          this.reads += 1;
          this.shares.set(symbol, { value: answer.sellableQuantity, atMs: this.stampOf(sent) });
        }),
      );
    }
    await Promise.all(jobs);
  }

  /** @inheritdoc */
  cashBuyingPower(currency: Currency): Decimal | undefined {
    return this.cash.get(currency)?.value;
  }

  /** @inheritdoc */
  sellableQuantity(symbol: string): Decimal | undefined {
    return this.shares.get(symbol)?.value;
  }

  /**
   * Whether the account may hold shares of `symbol` to sell: not known yet, or the broker's last
   * answer was more than zero. The background refresh re-reads only these (a sell of another symbol
   * reads its figure itself, as it is then stale), so that a run over many symbols does not spend
   * the ORDER_INFO group's few requests a second on figures of zero.
   */
  mayHold(symbol: string): boolean {
    const shares = this.shares.get(symbol);
    return shares === undefined || !shares.value.isZero();
  }

  /** An order was let through: what it holds back leaves the cached figures until the next read. */
  reserve(order: ReservingOrder): void {
    this.changed(order.currency, order.symbol);
    const cash = this.cash.get(order.currency);
    if (cash !== undefined) cash.value = cash.value.minus(reservedCash(order));
    const shares = this.shares.get(order.symbol);
    if (shares !== undefined) shares.value = shares.value.minus(reservedShares(order));
  }

  /**
   * Marks the buying power of `currency` and the sellable quantity of `symbol` stale: an order of
   * them filled (a buy's shares and a sell's cash are the broker's now, not yet in the cached
   * figures) or ended without filling (what it held back is free again). The next order re-reads
   * them; a check already prepared still reads the figures it was prepared with (deleting them left
   * it with none, and the order was denied `risk-account-data-missing`).
   */
  forget(currency: Currency, symbol: string): void {
    this.changed(currency, symbol);
    const cash = this.cash.get(currency);
    if (cash !== undefined) this.cash.set(currency, { value: cash.value, atMs: Number.NEGATIVE_INFINITY });
    const shares = this.shares.get(symbol);
    if (shares !== undefined)
      this.shares.set(symbol, { value: shares.value, atMs: Number.NEGATIVE_INFINITY });
  }

  /** Forgets every figure (the next order re-reads). */
  invalidate(): void {
    this.epoch += 1;
    this.cash.clear();
    this.shares.clear();
  }

  private changed(currency: Currency, symbol: string): void {
    for (const key of [`cash:${currency}`, `shares:${symbol}`])
      this.changes.set(key, (this.changes.get(key) ?? 0) + 1);
  }

  /** A read of `key` is sent now: the clock and how often the figure was changed so far. */
  private sent(key: string): { key: string; atMs: number; changes: number; epoch: number } {
    return { key, atMs: this.clock.nowMs(), changes: this.changes.get(key) ?? 0, epoch: this.epoch };
  }

  /** The age stamp of a read's answer: when it was sent, or stale if its figure changed meanwhile. */
  private stampOf(sent: ReturnType<AccountInfoProvider['sent']>): number {
    const same = (this.changes.get(sent.key) ?? 0) === sent.changes && this.epoch === sent.epoch;
    return same ? sent.atMs : Number.NEGATIVE_INFINITY;
  }

  private stale(entry: Stamped | undefined): boolean {
    return entry === undefined || this.clock.nowMs() - entry.atMs > this.maxAgeMs;
  }

  private once(key: string, job: () => Promise<void>): Promise<void> {
    const running = this.inFlight.get(key);
    if (running !== undefined) return running;
    const p = job().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }
}
