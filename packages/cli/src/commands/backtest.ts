/**
 * `hoga backtest <strategy.ts>`: runs a strategy class over cached (or downloaded) bars and prints
 * net profit, total return, CAGR, maximum drawdown, Sharpe ratio, trades, win rate, commissions, taxes and the
 * orders refused by code; with several strategies, each one's part too (`stats.byStrategy` in `--json`).
 *
 * @module
 */
import type { Command } from 'commander';
import { listenForBacktestInterrupts } from './backtest-interrupts.js';
import { withConnection } from './broker/connection-flags.js';

/**
 * Registers `hoga backtest`.
 *
 * @param program - the root command
 */
export function registerBacktestCommand(program: Command): void {
  const command = withConnection(
    program
      .command('backtest')
      .description('run strategies over historical bars (downloaded once into the candle cache)')
      .argument(
        '<strategies...>',
        'strategy .ts files (classes extending Strategy from @hoga/engine), one engine for all; FILE:ID gives a strategy an id of its own (default: its class name)',
      )
      .option('--symbols <list>', "comma-separated symbols, e.g. 005930,AAPL (the run's universe)")
      .option('--interval <interval>', 'bar interval: 1m or 1d')
      .option('--from <date>', 'first trading date, inclusive (YYYY-MM-DD, or a date-time with offset)')
      .option('--to <date>', 'last trading date, inclusive (YYYY-MM-DD, or a date-time with offset)')
      .option(
        '--config <file>',
        "strategy config as JSON (validated by the strategy's schema); repeat it for several strategies, in their order",
        (value: string, previous: string[]) => [...previous, value],
        [] as string[],
      )
      .option(
        '--cash <amounts>',
        'starting cash, KRW=<won>,USD=<dollars>; a currency not named keeps its default (KRW=100000000,USD=100000)',
      )
      .option('--cash-krw <won>', 'starting cash in KRW, as hoga run takes it (the same as --cash KRW=<won>)')
      .option(
        '--cash-usd <dollars>',
        'starting cash in USD, as hoga run takes it (the same as --cash USD=<dollars>)',
      )
      .option('--usd-krw <rate>', "value USD at this fixed KRW rate (default: the broker's rate history)")
      .option('--volume-fraction <f>', "share of a bar's volume one order may fill (default 0.1)")
      .option(
        '--risk-config <file>',
        'risk configuration, as hoga run takes it (JSON; default $HOGA_RISK_CONFIG, else the defaults)',
      )
      .option('--id <strategyId>', "the strategy's id, for a run of one (default: its class name)"),
  );
  // The shared connection flags, as a backtest uses them: --db is where the candle cache and the
  // runs are, and CSV is refused (--json gives the trades and the equity curve).
  for (const option of command.options) {
    if (option.long === '--db') {
      option.description =
        'database of the candle cache and the stored runs (default $HOGA_DB, else ./data/hoga.sqlite; ./data/hoga-sim.sqlite when no broker is configured)';
    }
    if (option.long === '--csv') option.hideHelp();
  }
  command.action(async (strategies: string[], flags: Record<string, unknown>) => {
    // one listener of Ctrl-C and SIGTERM for the whole command, from before its code loads to its
    // end (backtest-interrupts.ts): imported with this module, so no signal finds none meanwhile
    const interrupts = listenForBacktestInterrupts();
    try {
      const { runBacktestCommand } = await import('./backtest-run.js');
      await runBacktestCommand(strategies, flags, interrupts);
    } finally {
      interrupts.release();
    }
  });
}
