/**
 * The broker commands: `quote`, `orderbook`, `candles`, `stock`, `fx`, `calendar`, `accounts`,
 * `holdings`, `orders`, `buying-power`. Connection from flags, a profile or `HOGA_*` variables; a
 * table by default, `--csv` or `--json` for machines; errors are one or two sentences with an exit
 * code from the README's table. The connector loads only when a command runs.
 *
 * @module
 */
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { Tabular } from '../output/emit.js';
import type { ConnectionFlags } from './broker/connection-flags.js';
import { withConnection } from './broker/connection-flags.js';

type Flags = ConnectionFlags & Record<string, unknown>;
type Client = import('@hoga/connector').BrokerClient;
type Views = typeof import('./broker/broker-views.js');

function positiveInt(name: string, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max) {
      throw new InvalidArgumentError(`${name}: expected an integer from 1 to ${max}, found "${value}"`);
    }
    return n;
  };
}

/** A choice accepted in any case (`kr`, `Kr`, `KR`), given back in upper case. */
function upperChoice(name: string, choices: readonly string[]): (value: string) => string {
  return (value) => {
    const upper = value.toUpperCase();
    if (!choices.includes(upper)) {
      throw new InvalidArgumentError(`${name}: expected ${choices.join(' or ')}, found "${value}"`);
    }
    return upper;
  };
}

const upperSymbols = (symbols: readonly string[]) => symbols.map((s) => s.toUpperCase());

/**
 * A commander action: loads the views and the connection lazily, runs the view under the
 * `--timeout` deadline and prints its rows in the chosen format.
 */
function action(
  view: (
    views: Views,
    client: Client,
    args: readonly unknown[],
    flags: Flags,
    touch: () => void,
  ) => Promise<Tabular<never>>,
) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args.at(-1) as Command;
    const flags = command.opts<Flags>();
    const [{ runWithClient }, views, { emit, formatOf }] = await Promise.all([
      import('./broker/connection.js'),
      import('./broker/broker-views.js'),
      import('../output/emit.js'),
    ]);
    await runWithClient(flags, async (client, touch) => {
      const result = await view(views, client, args.slice(0, -2), flags, touch);
      await emit(result as unknown as Tabular<unknown>, formatOf(flags));
      return undefined;
    });
  };
}

/** Registers the broker commands on the program. */
export function registerBrokerCommands(program: Command): void {
  withConnection(
    program.command('quote').description('last prices').argument('<symbols...>', 'symbols (any case)'),
  ).action(action((v, client, [symbols]) => v.quoteView(client, upperSymbols(symbols as string[])) as never));

  withConnection(
    program
      .command('orderbook')
      .description('best levels of the orderbook (JSON too honours --depth)')
      .argument('<symbol>', 'symbol')
      .option('--depth <n>', 'levels a side', positiveInt('--depth', 50), 5),
  ).action(
    action(
      (v, client, [symbol], flags) =>
        v.orderbookView(client, (symbol as string).toUpperCase(), flags.depth as number) as never,
    ),
  );

  withConnection(
    program
      .command('candles')
      .description('candles, oldest first (a progress line on a terminal while reading)')
      .argument('<symbol>', 'symbol')
      .addOption(
        new Option('--interval <interval>', 'candle interval, 1m or 1d (required)')
          .choices(['1m', '1d'])
          .makeOptionMandatory(),
      )
      .option(
        '--count <n>',
        'number of candles (default 20, or all of the range with --from)',
        positiveInt('--count', 10_000_000),
      )
      .option(
        '--from <date>',
        "oldest candle to include: 2026-11-01 (the market's day) or an ISO date-time with offset",
      )
      .option(
        '--to <date>',
        'only candles before this: a date (that day included) or an ISO date-time with offset',
      ),
  ).action(
    action(async (v, client, [rawSymbol], flags, touch) => {
      const symbol = (rawSymbol as string).toUpperCase();
      const interval = flags.interval as '1m' | '1d';
      const { parseRange } = await import('./broker/dates.js');
      const range = parseRange(flags as { from?: string; to?: string }, symbol, interval, 'candles');
      const show = process.stderr.isTTY === true ? terminalProgress(range.from) : undefined;
      const progress = (fetched: number, reached: import('luxon').DateTime | null): void => {
        touch();
        show?.(fetched, reached);
      };
      return v.candlesView(
        client,
        symbol,
        { interval, ...(typeof flags.count === 'number' ? { count: flags.count } : {}), ...range },
        progress,
      ) as never;
    }),
  );

  withConnection(
    program
      .command('stock')
      .description('stock reference data (an unknown symbol exits 1)')
      .argument('<symbols...>', 'symbols'),
  ).action(action((v, client, [symbols]) => v.stockView(client, upperSymbols(symbols as string[])) as never));

  withConnection(program.command('fx').description('USD/KRW display exchange rate')).action(
    action((v, client) => v.fxView(client) as never),
  );

  withConnection(
    program
      .command('calendar')
      .description(
        'market calendar: previous, current and next business day (KR hours in KST, US in New York time)',
      )
      .addArgument(
        new Argument('<market>', 'KR or US (any case)').argParser(upperChoice('market', ['KR', 'US'])),
      )
      .option('--date <YYYY-MM-DD>', 'reference date'),
  ).action(
    action(
      (v, client, [market], flags) =>
        v.calendarView(
          client,
          market as 'KR' | 'US',
          typeof flags.date === 'string' ? flags.date : undefined,
        ) as never,
    ),
  );

  withConnection(program.command('accounts').description('your accounts')).action(
    action((v, client) => v.accountsView(client) as never),
  );

  withConnection(program.command('holdings').description('holdings with valuation and P/L')).action(
    action((v, client) => v.holdingsView(client) as never),
  );

  withConnection(
    program
      .command('orders')
      .description('orders: OPEN (all) or CLOSED (newest first)')
      .addOption(
        new Option('--status <status>', 'OPEN or CLOSED (any case)')
          .argParser(upperChoice('--status', ['OPEN', 'CLOSED']))
          .default('OPEN'),
      )
      .option('--limit <n>', 'CLOSED orders to show at most', positiveInt('--limit', 10_000), 50),
  ).action(
    action(
      (v, client, _args, flags) =>
        v.ordersView(client, flags.status as 'OPEN' | 'CLOSED', flags.limit as number) as never,
    ),
  );

  withConnection(program.command('buying-power').description('cash buying power in KRW and USD')).action(
    action((v, client) => v.buyingPowerView(client) as never),
  );
}

/** A one-line progress display on stderr (terminals only): candles read, how far back, percent. */
function terminalProgress(from: import('luxon').DateTime | undefined) {
  const started = Date.now();
  let span: number | null = null;
  return (fetched: number, reached: import('luxon').DateTime | null): void => {
    if (reached === null) {
      process.stderr.write('\r\x1b[K');
      return;
    }
    let pct = '';
    if (from !== undefined) {
      const now = Date.now();
      span ??= Math.max(1, now - from.toMillis());
      const done = Math.min(1, Math.max(0, (now - reached.toMillis()) / span));
      const width = 20;
      const bar = '#'.repeat(Math.round(done * width)).padEnd(width, '.');
      const elapsed = (now - started) / 1000;
      const eta = done > 0.01 ? ` ETA ${Math.round((elapsed / done) * (1 - done))} s` : '';
      pct = ` [${bar}] ${Math.round(done * 100)}%${eta}`;
    }
    process.stderr.write(
      `\r\x1b[Kread ${fetched.toLocaleString('en-US')} candles, back to ${reached.toISO()}${pct}`,
    );
  };
}
