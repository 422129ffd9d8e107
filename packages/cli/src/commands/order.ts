/**
 * `hoga order buy|sell <symbol> [quantity] [--limit PRICE | --market] [--amount USD]
 * [--client-order-id ID] [--confirm-high-value] [--strategy ID] [--check] [--json]`, `hoga order
 * modify <order> [--limit PRICE | --market] [--quantity N] [--confirm-high-value] [--strategy ID]`
 * and `hoga order cancel <order>`: a manual order through the same risk module and order manager as a strategy's;
 * a modify or cancel judged as the strategy whose order it is. `--check` prints the verdict and
 * sends nothing; exit 0 when accepted, 3 when denied (1 when the broker refuses what was sent).
 * `--client-order-id` names the order's idempotency key: the same command run again reports the
 * order placed the first time (order-rerun.ts).
 *
 * @module
 */
import { type Command, InvalidArgumentError } from 'commander';
import { type ConnectionFlags, describeStoreDb, withConnection } from './broker/connection-flags.js';

/** Flags of the order commands: the connection's (`withConnection`) and their own. */
export interface OrderFlags extends ConnectionFlags {
  readonly limit?: string;
  readonly market?: boolean;
  readonly amount?: string;
  readonly quantity?: string;
  readonly confirmHighValue?: boolean;
  readonly check?: boolean;
  readonly riskConfig?: string;
  readonly strategy?: string;
  readonly at?: string;
  readonly simClock?: boolean;
  readonly clientOrderId?: string;
}

function decimalText(name: string): (value: string) => string {
  return (value) => {
    if (!/^\d+(\.\d+)?$/.test(value))
      throw new InvalidArgumentError(`${name}: expected a positive decimal, found "${value}"`);
    return value;
  };
}

/** Broker order ids may start with '-', which the parser would take for an option. */
const ORDER_ARGUMENT =
  "the order: hoga's clientOrderId, or the broker's orderId (an id starting with - goes last, after --: hoga order cancel -- -bFr…)";

/**
 * The flags every `hoga order` subcommand takes: the connection's, the store, and the risk check's
 * (`--check`, `--at`, `--risk-config`, `--sim-clock`). Each subcommand adds its own after (before,
 * all four took one set: `cancel --confirm-high-value` and `cancel --strategy` were taken and did
 * nothing).
 */
function common(command: Command): Command {
  const connected = withConnection(command);
  // an order's answer is a line of text or JSON: --csv is refused (order-actions), not offered
  connected.options.find((o) => o.long === '--csv')?.hideHelp();
  return describeStoreDb(connected, 'the orders hoga placed (written before they are sent)')
    .option('--check', 'print the risk verdict and send nothing (exit 0 accepted, 3 denied)', false)
    .option('--risk-config <file>', 'risk configuration (JSON; default $HOGA_RISK_CONFIG, else the defaults)')
    .option('--at <time>', 'with --check: judge the order at this instant (ISO 8601) instead of now')
    .option(
      '--sim-clock',
      "insist on the simulator's clock (GET /_sim/clock; followed anyway when the broker serves it)",
      false,
    );
}

/** `--confirm-high-value`: the broker asks for it on a create and on a modify, not on a cancel. */
function confirmHighValue(command: Command, what: string): Command {
  return command.option(
    '--confirm-high-value',
    `confirm ${what} 100,000,000 KRW or more (confirmHighValueOrder)`,
    false,
  );
}

/**
 * Registers `hoga order`.
 *
 * @param program - the `hoga` program
 */
export function registerOrderCommand(program: Command): void {
  const order = program
    .command('order')
    .description('place, check, modify or cancel an order through the risk module');
  for (const side of ['buy', 'sell'] as const) {
    const command = common(
      order
        .command(side)
        .description(
          `${side} a stock: a limit order with --limit, a market order with --market, a US amount order with --amount`,
        )
        .argument('<symbol>', 'stock symbol, e.g. 005930 or AAPL')
        .argument(
          '[quantity]',
          'number of shares (fractions only for US market sells)',
          decimalText('quantity'),
        )
        .option('--limit <price>', 'limit price', decimalText('--limit'))
        .option('--market', 'market order', false)
        .option(
          '--amount <usd>',
          'US market order for this many dollars (orderAmount)',
          decimalText('--amount'),
        )
        .option(
          '--client-order-id <id>',
          "the order's idempotency key (1-36 of A-Z a-z 0-9 _ -; default: a new cli-… id): the same command again with the same id places nothing new",
        ),
    );
    confirmHighValue(command, 'an order of').option(
      '--strategy <id>',
      'the strategy the order counts against. A live run of a strategy of this id takes the order over: ' +
        'one running now gets its fills (its onFill; hoga order leaves them to it) but does not ' +
        'work it (--cancel-on-stop leaves it open: end it with hoga order cancel); one started later works it ' +
        "among the strategy's open orders (--cancel-on-stop cancels it). hoga run takes over manual, the default, " +
        'only with --take-over-manual',
      'manual',
    );
    command.action(async (symbol: string, quantity: string | undefined, flags: OrderFlags) => {
      const { runOrderCommand } = await import('./order-actions.js');
      await runOrderCommand({ kind: side, symbol, ...(quantity === undefined ? {} : { quantity }), flags });
    });
  }
  const modify = common(
    order
      .command('modify')
      .description('change the price (and, KR, the quantity) of a working order')
      .argument('<order>', ORDER_ARGUMENT)
      .option('--limit <price>', 'new limit price', decimalText('--limit'))
      .option('--market', 'turn it into a market order', false)
      .option(
        '--quantity <n>',
        'new quantity of the unfilled part (KR only; default: the unfilled rest)',
        decimalText('--quantity'),
      ),
  );
  // the risk module judges a modify (and a cancel) as a command of the order's own strategy, as a
  // running engine judges that strategy's own change (before, as this flag's, default manual)
  confirmHighValue(modify, 'a modified order worth').option(
    '--strategy <id>',
    "the strategy of an order hoga recorded none for (one adopted from another channel; default: manual): its trading state and risk limits judge the modify. An order placed through hoga is judged as its own strategy's, which the store records; naming another is refused",
  );
  modify.action(async (target: string, flags: OrderFlags) => {
    const { runOrderCommand } = await import('./order-actions.js');
    await runOrderCommand({ kind: 'modify', target, flags });
  });
  common(
    order.command('cancel').description('cancel a working order').argument('<order>', ORDER_ARGUMENT),
  ).action(async (target: string, flags: OrderFlags) => {
    const { runOrderCommand } = await import('./order-actions.js');
    await runOrderCommand({ kind: 'cancel', target, flags });
  });
}
