/**
 * The strategy base class. A strategy is a class in its own `.ts` file that extends
 * {@link Strategy}, declares its config as a zod schema in the static `configSchema`, and
 * implements the hooks it needs. The engine constructs it with its context and validated config.
 *
 * @example
 * ```ts
 * import type { Bar } from '@hoga/core';
 * import { Strategy, z } from '@hoga/engine';
 * const Config = z.object({ quantity: z.number().int().positive().default(1) });
 * export default class BuyOnce extends Strategy<z.infer<typeof Config>> {
 *   static readonly configSchema = Config;
 *   override onBar(bar: Bar): void {
 *     if (this.ctx.position(bar.symbol) === undefined) this.ctx.buy(bar.symbol, this.config.quantity);
 *   }
 * }
 * ```
 *
 * @module
 */
import type { Bar, Fill, OrderEvent } from '@hoga/core';
import type { ZodType } from 'zod';
import type { MarketTrade, OrderbookSnapshot, PriceTick, TimerFired } from './market-events.js';
import type { StrategyContext } from './strategy-context.js';

/** What a hook may return: nothing, or a promise the engine waits for before the next event. */
export type HookResult = void | Promise<void>;

/**
 * Base class of every strategy. Hooks are optional; the engine calls only those defined.
 *
 * A hook that throws stops the run: the engine reports which strategy and which hook, calls no
 * further hook of any strategy except `onStop`, and leaves the store consistent.
 *
 * @typeParam Config - the parsed config type (the output of `configSchema`)
 */
export abstract class Strategy<Config = Record<string, unknown>> {
  /** How this strategy reaches the engine. */
  readonly ctx: StrategyContext;
  /** The validated config. */
  readonly config: Config;

  /**
   * Called by the engine only. Subclasses that define a constructor pass both arguments on.
   *
   * @param ctx - the strategy's context
   * @param config - the config, already validated by `configSchema`
   */
  constructor(ctx: StrategyContext, config: Config) {
    this.ctx = ctx;
    this.config = config;
  }

  /**
   * Once, before the first bar: subscribe here, set timers; orders are allowed in every mode (a
   * backtest's market order fills at the first bar's open).
   */
  onStart?(): HookResult;
  /** A bar closed (the bar object is reused by the engine: copy what you keep). */
  onBar?(bar: Bar): HookResult;
  /** A subscribed symbol's price changed. */
  onPrice?(tick: PriceTick): HookResult;
  /** A subscribed symbol's order book changed. */
  onOrderbook?(book: OrderbookSnapshot): HookResult;
  /** A subscribed symbol traded on the market (a trade printed after the subscription). */
  onTrade?(trade: MarketTrade): HookResult;
  /** Any event of one of this strategy's orders (fills included). */
  onOrderEvent?(event: OrderEvent): HookResult;
  /** One of this strategy's orders filled (partly or completely); after the portfolio is updated. */
  onFill?(fill: Fill): HookResult;
  /** A timer set through `ctx.setTimer` fired. */
  onTimer?(timer: TimerFired): HookResult;
  /** Once, at the end of the run (also after another hook failed). */
  onStop?(): HookResult;
}

/**
 * The static side of a strategy class: how the engine loads and configures it. (The constructor's
 * config parameter is typed `never` so that every subclass, whatever its config type, fits.)
 */
export interface StrategyClass {
  new (ctx: StrategyContext, config: never): Strategy<unknown>;
  /**
   * The config schema; omitted, the strategy gets `{}`, or a `--config` file as it is, unchecked
   * (the CLI warns).
   */
  readonly configSchema?: ZodType | undefined;
  /**
   * Bars per symbol delivered before the run's start, with orders denied (default 0). A strategy
   * with indicators that need a history asks for it here.
   */
  readonly warmupBars?: number | undefined;
  readonly name: string;
}

/** Every hook the engine calls, by name. */
export const STRATEGY_HOOKS = [
  'onStart',
  'onBar',
  'onPrice',
  'onOrderbook',
  'onTrade',
  'onOrderEvent',
  'onFill',
  'onTimer',
  'onStop',
] as const;

/** The hooks, by name (for error messages and dispatch). */
export type StrategyHook = (typeof STRATEGY_HOOKS)[number];

/** Whether a value is a strategy class (a constructor whose prototype derives from {@link Strategy}). */
export function isStrategyClass(value: unknown): value is StrategyClass {
  return typeof value === 'function' && value.prototype instanceof Strategy;
}
