import { Currency } from '@hoga/core';
import { type Command, InvalidArgumentError } from 'commander';
import { describeStoreDb, withConnection } from './broker/connection-flags.js';
import { cashAmountProblem } from './cash-amount.js';
import { decimalFlag, wholeFlag } from './number-flags.js';

/** Flags of `hoga run`. */
export interface RunFlags {
  readonly mode: 'live' | 'paper';
  readonly symbols: string;
  readonly interval: '1m' | '1d';
  /** Config files, one per strategy in their order (`--config` repeated). */
  readonly config: readonly string[];
  readonly statusEvery: number;
  readonly pollMs: number;
  /** `--candle-poll-ms`: real ms between two candle polls of a symbol; the stream's default when absent. */
  readonly candlePollMs?: number;
  readonly cashKrw: string;
  readonly cashUsd: string;
  readonly paperFromAccount: boolean;
  readonly cancelOnStop: boolean;
  /** `--take-over-manual`: a live strategy of id `manual` may take over `hoga order`'s orders. */
  readonly takeOverManual?: boolean;
  readonly riskConfig?: string;
  readonly baseUrl?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly accountSeq?: string;
  readonly db?: string;
  /** The shared `--json` and `--csv`, refused (hidden from the help). */
  readonly json?: boolean;
  readonly csv?: boolean;
}

function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value) => {
    if ((values as readonly string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(`expected one of ${values.join(', ')}, found "${value}"`);
  };
}

const seconds = decimalFlag(1, 3600, { what: 'seconds' });

/**
 * A cash amount of `currency`, by the rule `hoga backtest` takes it by (whole won, dollars to the
 * cent, at most 10^14 won or 10^11 dollars): before, `--cash-krw 1.5` ran with a budget of 1.5 won.
 */
function amountOf(currency: Currency): (value: string) => string {
  return (value) => {
    const text = value.trim();
    const problem = cashAmountProblem(currency, text);
    if (problem !== null) throw new InvalidArgumentError(`amount ${problem}`);
    return text;
  };
}

const milliseconds = wholeFlag(50, 60_000, { what: 'whole milliseconds' });

/** The least `--candle-poll-ms` (see {@link candlePollMilliseconds}). */
export const MIN_CANDLE_POLL_MS = 250;
/** The most `--candle-poll-ms`: an hour (a minute poll reaches back 200 candles, so none is skipped). */
export const MAX_CANDLE_POLL_MS = 3_600_000;

/**
 * Parses `--candle-poll-ms`: whole milliseconds from {@link MIN_CANDLE_POLL_MS} to
 * {@link MAX_CANDLE_POLL_MS}. The floor comes from the broker's rate limits (spec, Limits): every
 * candle request of a client counts against the `MARKET_DATA_CHART` group's 5 requests a second
 * (one each 200 ms; the broker may change it, `X-RateLimit-Limit` says), so one symbol polled
 * every 250 ms takes four fifths of it and leaves a fifth to the rest (a strategy's subscribed
 * candles, another hoga process of the same client). A faster ask would only be held back: the
 * poll scheduler and the rate limiter stay in charge whatever the flag, and many symbols share
 * the group's budget (40 symbols: each polled about every 8 s however low the flag).
 *
 * @throws InvalidArgumentError for anything else (commander names the flag; exit 2)
 */
export const candlePollMilliseconds: (value: string) => number = wholeFlag(
  MIN_CANDLE_POLL_MS,
  MAX_CANDLE_POLL_MS,
  { what: 'whole milliseconds', note: '(the floor: the broker allows 5 candle requests a second)' },
);

/**
 * Registers `hoga run <strategy.ts…> --mode live|paper`: runs one or several strategies in one
 * engine against the broker (live) or on live data with simulated fills (paper) until SIGINT or
 * SIGTERM.
 *
 * @param program - the `hoga` program
 */
export function registerRunCommand(program: Command): void {
  const command = withConnection(
    program
      .command('run')
      .description(
        'run a strategy live (orders to the broker) or paper (live data, simulated fills) until stopped',
      )
      .argument(
        '<strategies...>',
        'strategy files (.ts), one engine for all; FILE:ID gives a strategy an id of its own (default: its class name)',
      )
      .requiredOption('--mode <mode>', 'live or paper', oneOf(['live', 'paper'] as const))
      .option('--symbols <list>', 'comma-separated symbols', '005930')
      .option('--interval <interval>', '1m or 1d bars', oneOf(['1m', '1d'] as const), '1m')
      .option(
        '--config <file>',
        'strategy config (JSON); repeat it for several strategies, in their order',
        (value: string, previous: string[]) => [...previous, value],
        [] as string[],
      )
      .option('--status-every <seconds>', 'seconds between status lines', seconds, 10)
      .option('--poll-ms <ms>', 'real ms between order polls (live)', milliseconds, 1000)
      .option(
        '--candle-poll-ms <ms>',
        `real ms between two candle polls of a symbol, for the run's --interval (default: 5000 for 1m, 60000 for 1d; ${MIN_CANDLE_POLL_MS} to ${MAX_CANDLE_POLL_MS}); the symbols share the broker's 5 candle requests a second`,
        candlePollMilliseconds,
      )
      .option(
        '--cash-krw <amount>',
        "cash in KRW: the strategies' budget (their ctx.cash, shared), live and paper; paper also starts the simulated account with it at its first run",
        amountOf(Currency.KRW),
        '10000000',
      )
      .option(
        '--cash-usd <amount>',
        "cash in USD: the strategies' budget (their ctx.cash, shared), live and paper; paper also starts the simulated account with it at its first run",
        amountOf(Currency.USD),
        '10000',
      )
      .option(
        '--paper-from-account',
        "paper: start the simulated account from a copy of the real account's cash and holdings, at its first run (a later one keeps the account, and says so)",
        false,
      )
      .option('--cancel-on-stop', "cancel the run's open orders on stop (live and paper)", false)
      .option(
        '--take-over-manual',
        "live: let a strategy of id manual (FILE:manual) take over hoga order's orders, fills and positions (hoga order records them under manual unless --strategy is given); refused without it",
        false,
      )
      .option(
        '--risk-config <file>',
        'risk configuration (JSON; default $HOGA_RISK_CONFIG, else the defaults)',
      ),
  );
  describeStoreDb(command, "the run's orders, fills, strategy state and stored run");
  // A run prints lines as it goes: the shared --json and --csv are refused (see runCommand).
  for (const option of command.options) {
    if (option.long === '--json' || option.long === '--csv') option.hideHelp();
  }
  command.action(async (strategies: string[], flags: RunFlags) => {
    const { runCommand } = await import('./run-action.js');
    await runCommand(strategies, flags);
  });
}
