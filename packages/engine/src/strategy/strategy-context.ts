/**
 * The context a strategy speaks to the engine through: data subscriptions, orders, its own
 * positions and cash, the clock, timers, a logger and persistent state. The same interface is
 * bound to different machinery in backtest, paper and live; a strategy never sees which.
 *
 * @module
 */
import type {
  BarInterval,
  ClientOrderId,
  Clock,
  Currency,
  Decimal,
  Logger,
  OrderSide,
  OrderState,
  OrderType,
  StrategyId,
} from '@hoga/core';
import type { TradingMode } from '@hoga/store';
import type { RegularSession } from '../runtime/market-order-hours.js';

export type { RegularSession };

/** A number, a decimal string or a `Decimal`: how a strategy may give a price or a quantity. */
export type DecimalInput = Decimal | number | string;

/** The run's universe: the command line's `--symbols` and `--interval`. */
export interface Universe {
  readonly symbols: readonly string[];
  readonly interval: BarInterval;
}

/** An order a strategy asks for (see {@link StrategyContext.submit}). */
export type OrderRequest =
  | {
      readonly symbol: string;
      readonly side: OrderSide;
      /** Shares; whole except US market sells (up to 6 decimals). */
      readonly quantity: DecimalInput;
      /** A limit price makes a LIMIT order; without one the order is MARKET. */
      readonly price?: DecimalInput | undefined;
      /** `CLS` for a US limit order at the close; `DAY` otherwise (default). */
      readonly timeInForce?: 'DAY' | 'CLS' | undefined;
      /** Confirms an order worth 100,000,000 KRW or more (the broker's `confirmHighValueOrder`); else it is denied. */
      readonly confirmHighValue?: boolean | undefined;
      /**
       * A sell of the account's shares: past the strategy's own position it may take what the
       * account holds and no strategy of the run does (else such a sell is denied
       * `risk-strategy-shares`).
       */
      readonly fromAccount?: boolean | undefined;
    }
  | {
      readonly symbol: string;
      readonly side: 'BUY';
      /** US market buys only: the USD amount to spend. */
      readonly amount: DecimalInput;
      /** Confirms an order worth 100,000,000 KRW or more (the broker's `confirmHighValueOrder`); else it is denied. */
      readonly confirmHighValue?: boolean | undefined;
    };

/** A strategy's view of one of its orders. */
export interface OrderView {
  readonly clientOrderId: ClientOrderId;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  /** Limit price, or null. */
  readonly price: Decimal | null;
  /** Ordered quantity, or null for an amount order. */
  readonly quantity: Decimal | null;
  /** Ordered amount (amount orders), or null. */
  readonly amount: Decimal | null;
  readonly state: OrderState;
  readonly filledQuantity: Decimal;
  /** Average fill price, null before the first fill. */
  readonly averageFillPrice: Decimal | null;
}

/** A strategy's position in one symbol, built from its own fills only. */
export interface PositionView {
  readonly symbol: string;
  readonly currency: Currency;
  /** Shares held (never negative: the broker has no short selling). */
  readonly quantity: Decimal;
  /** Average purchase price, rounded as the broker rounds its holdings. */
  readonly averagePrice: Decimal;
  /**
   * Realized PnL of this symbol so far, in its currency, before commissions and taxes (the
   * portfolio counts those apart, as `hoga backtest` reports them): a partial sell's amount less the
   * average price (as the broker rounds it, 4 places) times its quantity, and the sell that closes
   * the position its amount less the rest of what the shares cost, so that a position bought and
   * sold off realizes what its cash moved by (before, the average's rounding stayed in it: 100 at
   * 10.01 and 200 at 10.02, sold at 10.00, realized −5.01 for −5.00). Gone with the position once
   * flat; a position opened again in the symbol starts from what the earlier ones realized (it is
   * the symbol's, not the round trip's).
   */
  readonly realizedPnl: Decimal;
}

/** One holding of the whole account (read-only; shares bought elsewhere included). */
export interface AccountHolding {
  readonly symbol: string;
  readonly quantity: Decimal;
  readonly averagePrice: Decimal;
}

/** The account as the broker (or the simulated venue) keeps it: read-only. */
export interface AccountView {
  /**
   * Cash of the whole account in a currency that a new order can use: the cash less what the
   * account's open buys hold back (the broker's cash buying power), in every mode.
   */
  cash(currency: Currency): Decimal;
  /** Every holding of the account. */
  holdings(): readonly AccountHolding[];
}

/** Persistent key-value state of one strategy (JSON values; decimals come back as strings). */
export interface StrategyState {
  /** The value stored under `key`, or `undefined` when there is none. */
  get<T = unknown>(key: string): T | undefined;
  /**
   * Stores `value` under `key`; `undefined` removes the key (`get` then gives `undefined`). A value
   * JSON would lose (a Map, a Set, a function, NaN, a cycle, an `undefined` in an array) throws a
   * `StoreError` naming the key and the place, and what was stored stays.
   */
  set(key: string, value: unknown): void;
  /** Removes `key`; answers whether it was there. */
  delete(key: string): boolean;
}

/** When a timer fires: once at an instant, or every `every` ms from `at` (default: now + every). */
export interface TimerSpec {
  /** First firing, epoch ms (engine clock). */
  readonly at?: number | undefined;
  /** Repeat period: whole milliseconds from 1 (a repeating timer). */
  readonly every?: number | undefined;
}

/** The context handed to a strategy (as `this.ctx`). */
export interface StrategyContext {
  /** This strategy instance's id. */
  readonly strategyId: StrategyId;
  /** `backtest`, `paper` or `live`. A strategy has no reason to ask. */
  readonly mode: TradingMode;
  /** The run's symbols and bar interval, traded by default. */
  readonly universe: Universe;
  /** The engine's clock: the only time a strategy should read. */
  readonly clock: Clock;
  /** A pino child logger with `{component: 'strategy', strategyId}`. */
  readonly log: Logger;
  /** Persistent state, kept by the store. */
  readonly state: StrategyState;
  /** The account's holdings and cash (not this strategy's): read-only. */
  readonly account: AccountView;
  /** True while warm-up bars (before the run's start) are delivered: orders are denied then. */
  readonly isWarmingUp: boolean;

  /** Current time, epoch ms (`clock.nowMs()`). */
  now(): number;
  /**
   * Whether the broker takes a `MARKET` order of `symbol` now: in its market's regular session
   * only (KR 09:00–15:30 KST, US 09:30–16:00 New York; a day of special hours has its own, an
   * exchange holiday none): in paper and live by the broker's own market calendar, the one the
   * risk module judges the order by (false while it does not tell the hours), in a backtest by the
   * broker model's session rules and the holidays it knows (2026–2027). Outside it a market
   * order is refused (`order-type-not-allowed`, or `order-hours-closed` outside order hours): a
   * minute bar stamped 15:30 KST closes in the after-market. A backtest on daily bars answers true
   * (an order placed on a day's bar is for the next open). Cheap: no allocation per call.
   */
  marketOrderAllowed(symbol: string): boolean;
  /**
   * Whether the broker takes an amount order (`ctx.buyAmount`) or a fractional quantity (a US
   * market sell of part of a share) of `symbol` now: a US stock from its regular session's open to
   * an hour before its close (09:30–15:00 New York; a day of special hours its own, a NYSE early
   * close to 12:00), by the same hours as `marketOrderAllowed`. Outside that window such an order
   * is refused (`amount-order-outside-regular-hours`), though a market order of whole shares is
   * still taken in the last hour. A KR stock takes none (false). A backtest on daily bars answers
   * true for a US stock (an order placed on a day's bar is for the next open). Cheap: no
   * allocation per call.
   */
  amountOrderAllowed(symbol: string): boolean;
  /**
   * The regular session of `symbol`'s market on its trading day now (`{date, open, close}`, the
   * date in the market's calendar, open and close epoch ms: KR 09:00–15:30 KST, US 09:30–16:00 New
   * York, a day of special hours its own, a NYSE early close 13:00): in paper and live by the
   * broker's own market calendar (the one `marketOrderAllowed` and the risk module read, so a
   * special session the broker announces is known), in a backtest by the broker model's session
   * rules and the holidays it knows (2026–2027). Null on a day with no session (a weekend, an
   * exchange holiday); undefined in paper and live while the calendar does not tell the day (not
   * read yet). Cheap: the same object while the day and the calendar stay.
   */
  regularSession(symbol: string): RegularSession | null | undefined;

  /** Bars of a symbol outside the universe (the universe's bars arrive without asking). */
  subscribeBars(symbol: string, interval?: BarInterval): void;
  /** Price updates of a symbol (paper and live; a bar backtest has none). */
  subscribePrices(symbol: string): void;
  /** Order book snapshots of a symbol (paper and live). */
  subscribeOrderbook(symbol: string): void;
  /** Market trades of a symbol (paper and live). */
  subscribeTrades(symbol: string): void;
  /**
   * Stops the bars of a symbol this strategy subscribed to (`interval` as subscribed; default the
   * universe's): none reach its `onBar` after the call, in any mode, and in paper and live their
   * poll stops once no strategy of the run wants them. The universe's bars reach every strategy and
   * cannot be stopped (said once). Subscribing again later resumes them (in a backtest, for bars
   * subscribed to in `onStart`: it loads no others).
   */
  unsubscribeBars(symbol: string, interval?: BarInterval): void;
  /** Stops the price updates of a symbol (see {@link StrategyContext.unsubscribeBars}). */
  unsubscribePrices(symbol: string): void;
  /** Stops the order book snapshots of a symbol (see {@link StrategyContext.unsubscribeBars}). */
  unsubscribeOrderbook(symbol: string): void;
  /** Stops the market trades of a symbol (see {@link StrategyContext.unsubscribeBars}). */
  unsubscribeTrades(symbol: string): void;

  /** Buys `quantity` shares: at market, or as a limit order when `price` is given. */
  buy(symbol: string, quantity: DecimalInput, price?: DecimalInput): ClientOrderId;
  /** Sells `quantity` shares (fractional only for US market sells). */
  sell(symbol: string, quantity: DecimalInput, price?: DecimalInput): ClientOrderId;
  /** US only: a market buy for `amount` USD. */
  buyAmount(symbol: string, amount: DecimalInput): ClientOrderId;
  /** Any order: see {@link OrderRequest}. Returns the order's id at once; outcomes arrive as events. */
  submit(request: OrderRequest): ClientOrderId;
  /**
   * Changes a working order's price and, KR only, the quantity of its unfilled part (the broker
   * replaces the rest with a new order of that quantity, at most the rest). A KR change of the price
   * alone keeps the unfilled rest; the order keeps its `clientOrderId` and its fills. A change that
   * leaves the order worth 100,000,000 KRW or more needs `confirmHighValue: true`.
   */
  modify(
    clientOrderId: ClientOrderId,
    change: {
      readonly price?: DecimalInput;
      readonly quantity?: DecimalInput;
      readonly confirmHighValue?: boolean;
    },
  ): void;
  /** Cancels a working order. */
  cancel(clientOrderId: ClientOrderId): void;

  /** This strategy's position in `symbol`, or undefined when flat. */
  position(symbol: string): PositionView | undefined;
  /** Every open position of this strategy. */
  positions(): readonly PositionView[];
  /** This strategy's cash in a currency (its allocation plus its own fills). */
  cash(currency: Currency): Decimal;
  /**
   * This strategy's total value in KRW now, as its share of the equity curve counts it: its cash
   * plus its positions at their last prices (a position with none yet at its average price), USD
   * through the USD/KRW rate valid now. A number, like the bars (for sizing, not for accounting).
   */
  equity(): number;
  /**
   * KRW per USD valid now: the rate {@link StrategyContext.equity} and the equity curve value
   * dollars at (a backtest: `--usd-krw`, else the broker's rate history as the run reads it; paper
   * and live: the rate the engine follows). A number, for sizing a US order against equity in KRW;
   * no order converts currency (the broker does not).
   */
  usdKrw(): number;
  /**
   * This strategy's unrealized PnL in a currency at the last prices: Σ quantity × last price − what
   * the shares held cost, over its positions in that currency (a position with no price yet counts
   * zero). The cost is quantity × average price but for the average's rounding (4 places), so that
   * realized + unrealized − commissions − taxes is what the strategy's equity moved by in that
   * currency (before, 300 bought for 3,005.00 at an average of 10.0167 and marked at 10.02 counted
   * 0.99, not 1.00).
   */
  unrealizedPnl(currency: Currency): Decimal;
  /**
   * This strategy's realized PnL in a currency so far (since its books opened: in paper and live,
   * its earlier runs' fills included), before commissions and taxes: the sum of its positions'
   * `realizedPnl`, flat ones included (a flat position is no longer listed).
   */
  realizedPnl(currency: Currency): Decimal;
  /** The commissions this strategy's fills paid in a currency so far (since its books opened). */
  commissions(currency: Currency): Decimal;
  /** The taxes (the KR transaction tax on sells) this strategy's fills paid in a currency so far. */
  taxes(currency: Currency): Decimal;
  /** This strategy's working orders (of one symbol when given). */
  openOrders(symbol?: string): readonly OrderView[];
  /**
   * One of this strategy's orders by id: of this run, or of an earlier run and still open when this
   * one started (an order that ended before the restart is undefined here).
   */
  order(clientOrderId: ClientOrderId): OrderView | undefined;

  /** Sets (or replaces) a named timer; `onTimer` receives it. */
  setTimer(name: string, spec: TimerSpec): void;
  /** Cancels a named timer; returns whether it existed. */
  cancelTimer(name: string): boolean;
}
