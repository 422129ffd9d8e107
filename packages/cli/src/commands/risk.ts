/**
 * `hoga risk status|reset|set`: the trading states (ACTIVE, REDUCING, HALTED) of the account, the
 * strategies and the symbols, kept in the store; `reset` lifts kill switches and every other
 * restriction by hand; `set` restricts a scope by hand. Every change is journalled with its reason.
 * Live and paper keep their states apart (`--mode`, live by default).
 *
 * @module
 */
import { type Command, InvalidArgumentError } from 'commander';

/** Flags of the risk commands. */
export interface RiskFlags {
  readonly db?: string;
  readonly json?: boolean;
  readonly account?: boolean;
  readonly strategy?: string;
  readonly symbol?: string;
  readonly reason?: string;
  /** Whose states: `live` (default; `hoga order` and live runs) or `paper` (paper runs). */
  readonly mode?: 'live' | 'paper';
  /** The broker: when it is the simulator, a kill switch's end is judged on its clock. */
  readonly baseUrl?: string;
}

function state(value: string): 'ACTIVE' | 'REDUCING' | 'HALTED' {
  const upper = value.toUpperCase();
  if (upper !== 'ACTIVE' && upper !== 'REDUCING' && upper !== 'HALTED') {
    throw new InvalidArgumentError(`expected ACTIVE, REDUCING or HALTED, found "${value}"`);
  }
  return upper;
}

function mode(value: string): 'live' | 'paper' {
  if (value !== 'live' && value !== 'paper') {
    throw new InvalidArgumentError(`expected live or paper, found "${value}"`);
  }
  return value;
}

/**
 * A `--strategy` or `--symbol` value: an empty one, or one with spaces around it, names no strategy
 * or symbol an order has, so a halt of it would hold nothing (before, it was kept, exit 0, as
 * `strategy: b1`, and b1's orders went on being accepted).
 */
function scopeId(what: string): (value: string) => string {
  return (value) => {
    if (value.trim() === '') throw new InvalidArgumentError(`the ${what} is empty: give one`);
    if (value.trim() !== value) {
      throw new InvalidArgumentError(`give the ${what} without spaces around it: "${value.trim()}"`);
    }
    return value;
  };
}

function scoped(command: Command): Command {
  return command
    .option(
      '--db <file>',
      "database file (default: $HOGA_DB, else the profile's db, else ./data/hoga.sqlite)",
    )
    .option('--mode <mode>', "live (hoga order's and live runs') or paper (paper runs') states", mode, 'live')
    .option('--account', 'the whole account')
    .option('--strategy <id>', 'one strategy', scopeId('strategy id'))
    .option('--symbol <symbol>', 'one symbol', scopeId('symbol'))
    .option(
      '--base-url <url>',
      "the broker (default: $HOGA_BASE_URL): when it is the simulator, a kill switch's end is judged on its clock, as the engine's",
    )
    .option('--json', 'print JSON', false);
}

/**
 * Registers `hoga risk`.
 *
 * @param program - the `hoga` program
 */
export function registerRiskCommand(program: Command): void {
  const risk = program.command('risk').description('trading states and kill switches of the risk module');
  scoped(
    risk
      .command('status')
      .description('the restricted scopes with their reasons, or the scopes named; changes nothing'),
  ).action(async (flags: RiskFlags) => {
    const { riskStatus } = await import('./risk-actions.js');
    await riskStatus(flags);
  });
  scoped(
    risk
      .command('reset')
      .description('lift kill switches and restrictions by hand: every scope, or the ones named')
      .option('--reason <text>', 'why, one line (journalled)', 'hoga risk reset'),
  ).action(async (flags: RiskFlags) => {
    const { riskReset } = await import('./risk-actions.js');
    await riskReset(flags);
  });
  scoped(
    risk
      .command('set')
      .description('set the trading state of a scope by hand')
      .argument('<state>', 'ACTIVE, REDUCING or HALTED', state)
      .option('--reason <text>', 'why, one line (journalled; shown in denials)', 'set by hand'),
  ).action(async (to: 'ACTIVE' | 'REDUCING' | 'HALTED', flags: RiskFlags) => {
    const { riskSet } = await import('./risk-actions.js');
    await riskSet(to, flags);
  });
}
