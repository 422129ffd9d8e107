/**
 * The kill switch's halts of a backtest, told to its user: a strategy halted by its daily loss limit
 * has its orders denied and its working orders canceled until the next trading day (with
 * `dailyLossAction` `reduce`, set REDUCING: its buys denied and its working buys canceled), which
 * changes what the backtest trades. Each halt is logged (info: `--verbose`, `--log-file`) when it happens,
 * with the backtest's time; a warning at the end counts them per scope, so that a run with halts
 * says so once rather than a line per day; the run's report, JSON and stored statistics count them
 * too (`risk halts`). A paper or live session counts its halts the same way for its stored run,
 * without these log lines (its journal and status line tell of each change).
 *
 * @module
 */
import type { Logger } from '@hoga/core';
import { TradingState } from '../risk/risk-types.js';
import { type TradingStateChanged, TradingStateSource } from '../risk/trading-state-persistence.js';
import { isoKst } from '../risk/valuation.js';

/** The halts of one scope: how many, the first one's time, and whether they set it REDUCING. */
interface ScopeHalts {
  count: number;
  readonly firstMs: number;
  readonly reducing: boolean;
}

/** Collects a backtest's daily-loss halts from its trading-state changes. */
export class BacktestHalts {
  private readonly byScope = new Map<string, ScopeHalts>();

  /** @param logger - the run's logger (none: count only) */
  constructor(private readonly logger?: Logger) {}

  /** A trading-state change of the run (only the daily loss limit's halts, HALTED or REDUCING, are kept). */
  note(change: TradingStateChanged): void {
    if (change.to === TradingState.ACTIVE || change.source !== TradingStateSource.DAILY_LOSS) return;
    const reducing = change.to === TradingState.REDUCING;
    const halts = this.byScope.get(change.scope);
    if (halts === undefined) this.byScope.set(change.scope, { count: 1, firstMs: change.tsEvent, reducing });
    else halts.count += 1;
    this.logger?.info(
      {
        component: 'risk',
        scope: change.scope,
        at: isoKst(change.tsEvent),
        until: change.untilMs === null ? null : isoKst(change.untilMs),
      },
      `${reducing ? 'set' : 'halted'} ${describe(change.scope)}${reducing ? ' REDUCING' : ''}: ${change.reason}`,
    );
  }

  /** The halts per scope (`strategy:Sma`, `account`), scopes sorted: the run's outcome and stored statistics have them. */
  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const scope of [...this.byScope.keys()].sort())
      out[scope] = (this.byScope.get(scope) as ScopeHalts).count;
    return out;
  }

  /** Warns of the halts, one line per scope that had any. */
  summarise(): void {
    for (const [scope, h] of this.byScope) {
      this.logger?.warn(
        { component: 'risk', scope, halts: h.count, first: isoKst(h.firstMs) },
        `the daily loss limit ${h.reducing ? 'set' : 'halted'} ${describe(scope)}${h.reducing ? ' REDUCING' : ''} ` +
          `${h.count === 1 ? 'once' : `${h.count} times`}: ` +
          `its ${h.reducing ? 'buys' : 'orders'} were denied and its working ${h.reducing ? 'buys' : 'orders'} ` +
          'canceled until the next trading day ' +
          `(a larger ${scope === 'account' ? 'account.dailyLossLimitKrw' : 'dailyLossLimitKrw'} in --risk-config lets it trade on)`,
      );
    }
  }
}

/** `strategy:Sma` as `strategy Sma`, `account` as `the account`. */
function describe(scope: string): string {
  if (scope === 'account') return 'the account';
  const colon = scope.indexOf(':');
  return colon < 0 ? scope : `${scope.slice(0, colon)} ${scope.slice(colon + 1)}`;
}
