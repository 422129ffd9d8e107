/**
 * The risk module's configuration: one zod schema, parsed once at the edge, with a default for
 * every value (an empty object is a valid configuration).
 *
 * @module
 */
import { Decimal } from '@hoga/core';
import { z } from 'zod';

/** What an amount must look like, said when it does not (zod would show its pattern). */
const AMOUNT = 'expected an amount of 0 or more, digits only (a string such as "30000000", or a number)';

/** The message of a value that is no amount, naming it. */
const notAmount = (issue: { readonly input?: unknown }): string =>
  `${AMOUNT}, found ${JSON.stringify(issue.input)}`;

const decimalText = z
  .union(
    [z.string().regex(/^\d+(\.\d+)?$/, { error: notAmount }), z.number().nonnegative({ error: notAmount })],
    { error: notAmount },
  )
  .transform((v) => new Decimal(v));

/** What the kill switch does when a daily loss limit is reached (see {@link DailyLossAction}). */
const dailyLossAction = z.enum(['halt', 'reduce'], {
  error: (issue) => `expected "halt" or "reduce", found ${JSON.stringify(issue.input)}`,
});

/**
 * What a scope's kill switch does when its daily loss limit is reached: `halt` sets it HALTED (every
 * order denied, exits included) and cancels all its working orders; `reduce` sets it REDUCING (only
 * orders that reduce a position pass) and cancels only its working buys.
 */
export type DailyLossAction = z.output<typeof dailyLossAction>;

const limitsShape = {
  /** Most KRW value of one symbol's position plus open buys, after the order. */
  maxPositionValuePerSymbolKrw: decimalText.optional(),
  /** Most KRW value of all positions plus open buys of the strategy, after the order. */
  maxTotalPositionValueKrw: decimalText.optional(),
  /** Most open orders of the strategy (a new order is the next one). */
  maxOpenOrders: z.number().int().positive().optional(),
  /** Most KRW value of one order. */
  maxOrderValueKrw: decimalText.optional(),
  /** Symbols the strategy may trade (upper-cased, as `--symbols` takes them); absent or null: all. */
  allowedSymbols: z
    .array(
      z
        .string()
        .min(1)
        .transform((symbol) => symbol.toUpperCase()),
    )
    .nullable()
    .optional(),
  /** Loss (KRW, positive) of today's PnL that trips the strategy's kill switch. */
  dailyLossLimitKrw: decimalText.optional(),
  /** What the strategy's kill switch does: `halt` (default) or `reduce` (exits still pass). */
  dailyLossAction: dailyLossAction.optional(),
};

const limitsSchema = z.object(limitsShape).strict();

/** The limits of one strategy, resolved (every field set). */
export interface StrategyLimits {
  readonly maxPositionValuePerSymbolKrw: Decimal;
  readonly maxTotalPositionValueKrw: Decimal;
  readonly maxOpenOrders: number;
  readonly maxOrderValueKrw: Decimal;
  /** Null: every symbol. */
  readonly allowedSymbols: readonly string[] | null;
  readonly dailyLossLimitKrw: Decimal;
  readonly dailyLossAction: DailyLossAction;
}

/** hoga's defaults for a strategy that configures nothing. */
export const DEFAULT_STRATEGY_LIMITS: StrategyLimits = Object.freeze({
  maxPositionValuePerSymbolKrw: new Decimal('50000000'),
  maxTotalPositionValueKrw: new Decimal('200000000'),
  maxOpenOrders: 20,
  maxOrderValueKrw: new Decimal('30000000'),
  allowedSymbols: null,
  dailyLossLimitKrw: new Decimal('1000000'),
  dailyLossAction: 'halt',
});

/** The zod schema of the risk configuration (input: JSON; output: {@link RiskConfig}). */
export const riskConfigSchema = z
  .object({
    /** False switches the module off (every command accepted): the parity test's second run. */
    enabled: z.boolean().default(true),
    /** Limits of every strategy that does not name its own. */
    defaults: limitsSchema.default({}),
    /** Per strategy id, the limits that differ from `defaults`. */
    strategies: z.record(z.string(), limitsSchema).default({}),
    account: z
      .object({
        /** Loss (KRW, positive) of the account's PnL today that trips the account's kill switch. */
        dailyLossLimitKrw: decimalText.default(new Decimal('3000000')),
        /** What the account's kill switch does: `halt` (default) or `reduce` (exits still pass). */
        dailyLossAction: dailyLossAction.default('halt'),
      })
      .strict()
      .default({ dailyLossLimitKrw: new Decimal('3000000'), dailyLossAction: 'halt' }),
    throttle: z
      .object({
        /** Sliding window of the action caps, ms. */
        windowMs: z.number().int().positive().default(60_000),
        /** Order actions (create, modify, cancel) per symbol in the window. */
        perSymbol: z.number().int().positive().default(30),
        /** Order actions per account in the window. */
        perAccount: z.number().int().positive().default(120),
        /** Most replaces (modifies, or cancel then re-place) of one strategy/symbol/side in the loop window. */
        loopMaxReplaces: z.number().int().positive().default(10),
        /** The cancel/replace loop window, ms. */
        loopWindowMs: z.number().int().positive().default(60_000),
      })
      .strict()
      .default({
        windowMs: 60_000,
        perSymbol: 30,
        perAccount: 120,
        loopMaxReplaces: 10,
        loopWindowMs: 60_000,
      }),
    staleness: z
      .object({
        /** No successful order-history poll for this long moves the account to REDUCING, ms. */
        orderPollMs: z.number().int().positive().default(120_000),
        /** No price of a symbol for this long (while it trades) moves the symbol to REDUCING, ms. */
        priceMs: z.number().int().positive().default(300_000),
      })
      .strict()
      .default({ orderPollMs: 120_000, priceMs: 300_000 }),
    /** Buying power and sellable quantity older than this are re-read from the broker before an order, ms. */
    accountInfoMaxAgeMs: z.number().int().nonnegative().default(5_000),
    /** KST hour (0–23) at which a new trading day starts for the daily loss limit and the kill switch. */
    tradingDayStartHourKst: z.number().int().min(0).max(23).default(8),
  })
  .strict();

/** The parsed risk configuration. */
export type RiskConfig = z.output<typeof riskConfigSchema>;

/** Parses a risk configuration (throws zod's error on a bad one). */
export function parseRiskConfig(input: unknown = {}): RiskConfig {
  return riskConfigSchema.parse(input ?? {});
}

/** The limits of one strategy: its own values over the configured defaults over hoga's. */
export function limitsFor(config: RiskConfig, strategyId: string): StrategyLimits {
  const pick = <K extends keyof StrategyLimits>(key: K): StrategyLimits[K] => {
    const own = config.strategies[strategyId]?.[key];
    if (own !== undefined) return own as StrategyLimits[K];
    const dflt = config.defaults[key];
    if (dflt !== undefined) return dflt as StrategyLimits[K];
    return DEFAULT_STRATEGY_LIMITS[key];
  };
  return {
    maxPositionValuePerSymbolKrw: pick('maxPositionValuePerSymbolKrw'),
    maxTotalPositionValueKrw: pick('maxTotalPositionValueKrw'),
    maxOpenOrders: pick('maxOpenOrders'),
    maxOrderValueKrw: pick('maxOrderValueKrw'),
    allowedSymbols: pick('allowedSymbols'),
    dailyLossLimitKrw: pick('dailyLossLimitKrw'),
    dailyLossAction: pick('dailyLossAction'),
  };
}

/**
 * The ids under `strategies` that name none of `strategyIds` (ids are case-sensitive): their limits
 * apply to no strategy of the run, which is worth saying (a misspelt id leaves its strategy at the
 * defaults unseen). Not an error: one file may hold the limits of strategies run apart.
 *
 * @param config - the parsed configuration
 * @param strategyIds - the run's strategy ids
 */
export function unmatchedStrategyLimits(config: RiskConfig, strategyIds: readonly string[]): string[] {
  return Object.keys(config.strategies).filter((id) => !strategyIds.includes(id));
}
