/**
 * The broker commands: `quote`, `orderbook`, `candles`, `stock`, `fx`, `calendar`, `accounts`,
 * `holdings`, `orders`, `buying-power`. Connection from flags or `HOGA_*` variables; a table by
 * default, `--json` for machines; errors print the code, message and request id and exit non-zero.
 *
 * @module
 */
import type { BrokerClient } from '@hoga/connector';
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import {
  accountsView,
  buyingPowerView,
  calendarView,
  candlesView,
  fxView,
  holdingsView,
  orderbookView,
  ordersView,
  quoteView,
  stockView,
} from './broker/broker-views.js';
import { type ConnectionFlags, runWithClient, withConnection } from './broker/connection.js';

type View = (json: boolean) => string;
type Flags = ConnectionFlags & Record<string, unknown>;

function positiveInt(name: string, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max) {
      throw new InvalidArgumentError(`${name}: expected an integer from 1 to ${max}, found "${value}"`);
    }
    return n;
  };
}

/**
 * A commander action: commander passes the positional arguments, the options and the command;
 * the view gets the client, the positional arguments and the options.
 */
function action(view: (client: BrokerClient, args: readonly unknown[], flags: Flags) => Promise<View>) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args.at(-1) as Command;
    const flags = command.opts<Flags>();
    await runWithClient(flags, async (client) =>
      (await view(client, args.slice(0, -2), flags))(flags.json ?? false),
    );
  };
}

/** Registers the broker commands on the program. */
export function registerBrokerCommands(program: Command): void {
  withConnection(
    program.command('quote').description('last prices').argument('<symbols...>', 'symbols'),
  ).action(action((client, [symbols]) => quoteView(client, symbols as string[])));

  withConnection(
    program
      .command('orderbook')
      .description('best levels of the orderbook')
      .argument('<symbol>', 'symbol')
      .option('--depth <n>', 'levels a side', positiveInt('--depth', 50), 5),
  ).action(
    action((client, [symbol], flags) => orderbookView(client, symbol as string, flags.depth as number)),
  );

  withConnection(
    program
      .command('candles')
      .description('candles, oldest first')
      .argument('<symbol>', 'symbol')
      .addOption(
        new Option('--interval <interval>', 'candle interval').choices(['1m', '1d']).makeOptionMandatory(),
      )
      .option(
        '--count <n>',
        'number of candles (default 20, or all of the range with --from)',
        positiveInt('--count', 100_000),
      )
      .option('--from <iso>', 'oldest candle stamp to include (ISO 8601 with offset)')
      .option('--to <iso>', 'only candles stamped before this (ISO 8601 with offset)'),
  ).action(
    action((client, [symbol], flags) =>
      candlesView(client, symbol as string, {
        interval: flags.interval as '1m' | '1d',
        ...(typeof flags.count === 'number' ? { count: flags.count } : {}),
        ...(typeof flags.from === 'string' ? { from: flags.from } : {}),
        ...(typeof flags.to === 'string' ? { to: flags.to } : {}),
      }),
    ),
  );

  withConnection(
    program.command('stock').description('stock reference data').argument('<symbols...>', 'symbols'),
  ).action(action((client, [symbols]) => stockView(client, symbols as string[])));

  withConnection(program.command('fx').description('USD/KRW display exchange rate')).action(
    action((client) => fxView(client)),
  );

  withConnection(
    program
      .command('calendar')
      .description('market calendar: previous, current and next business day')
      .addArgument(new Argument('<market>', 'KR or US').choices(['KR', 'US']))
      .option('--date <YYYY-MM-DD>', 'reference date'),
  ).action(
    action((client, [market], flags) =>
      calendarView(client, market as 'KR' | 'US', typeof flags.date === 'string' ? flags.date : undefined),
    ),
  );

  withConnection(program.command('accounts').description('your accounts')).action(
    action((client) => accountsView(client)),
  );

  withConnection(program.command('holdings').description('holdings with valuation and P/L')).action(
    action((client) => holdingsView(client)),
  );

  withConnection(
    program
      .command('orders')
      .description('orders: OPEN (all) or CLOSED (newest first)')
      .addOption(
        new Option('--status <status>', 'OPEN or CLOSED').choices(['OPEN', 'CLOSED']).default('OPEN'),
      )
      .option('--limit <n>', 'CLOSED orders to show at most', positiveInt('--limit', 10_000), 50),
  ).action(
    action((client, _args, flags) =>
      ordersView(client, flags.status as 'OPEN' | 'CLOSED', flags.limit as number),
    ),
  );

  withConnection(program.command('buying-power').description('cash buying power in KRW and USD')).action(
    action((client) => buyingPowerView(client)),
  );
}
