/**
 * The status line of a live or paper run ({@link LiveStatus}): positions and open orders as the
 * mode's venue has them (live: the order manager's store; paper: the paper ledger and venue), the
 * fills, bars and refusals so far, the strategies' PnL and charges of this run and the unrealized
 * PnL of their positions at the last prices, the client's
 * requests and the risk module's trading states.
 *
 * @module
 */
import { type Currency, Decimal } from '@hoga/core';
import { type Portfolio, portfolioTotals } from '../portfolio/portfolio.js';
import type { RiskGateBinding } from '../risk/risk-gate-factory.js';
import type { RefusalTally } from '../runtime/refusal-tally.js';
import type { BarDelivery } from './bar-delivery.js';
import type { ModeVenue } from './mode-venue.js';
import type { LiveRunOptions, LiveStatus } from './run-live.js';

/** What a run's status is read from. */
export interface LiveStatusSources {
  readonly mode: ModeVenue;
  readonly portfolio: Portfolio;
  /** Fills the venue reported so far. */
  readonly fills: number;
  readonly bars: BarDelivery;
  readonly refusals: RefusalTally;
  readonly risk: RiskGateBinding;
  /**
   * The strategies' realized PnL and charges per currency when the run started (their books open
   * with the fills of earlier runs): the status counts this run's from there, as it counts its fills.
   */
  readonly atStart: Readonly<Record<Currency, RunPnl>>;
}

/** Realized PnL and charges (commissions and taxes) in one currency. */
export interface RunPnl {
  readonly realized: Decimal;
  readonly charges: Decimal;
}

/** The strategies' realized PnL and charges in `currency` so far, their earlier runs' included. */
export function booksPnl(portfolio: Portfolio, currency: Currency): RunPnl {
  const t = portfolioTotals(portfolio, currency);
  return { realized: t.realizedPnl, charges: t.commissions.plus(t.taxes) };
}

/**
 * What the strategies' positions in `currency` made or lost since they were bought, at the last
 * prices the run saw (a position with no price yet counts zero), earlier runs' positions included.
 */
export function unrealizedPnl(portfolio: Portfolio, currency: Currency): Decimal {
  let sum = new Decimal(0);
  for (const id of portfolio.strategies()) sum = sum.plus(portfolio.unrealizedPnl(id, currency));
  return sum;
}

/**
 * The run's status now.
 *
 * @param o - the run's options (its client's request counts)
 * @param run - the mode's venue, the portfolio, the counts so far, the risk gate
 */
export function liveStatus(o: Pick<LiveRunOptions, 'client'>, run: LiveStatusSources): LiveStatus {
  const { manager, paperAccount } = run.mode;
  const totals = (c: Currency): LiveStatus['pnl'][Currency] => {
    const now = booksPnl(run.portfolio, c);
    const start = run.atStart[c];
    return {
      realized: now.realized.minus(start.realized),
      unrealized: unrealizedPnl(run.portfolio, c),
      charges: now.charges.minus(start.charges),
    };
  };
  const positions = new Map<string, Decimal>();
  if (manager !== null) {
    for (const [s, q] of manager.store.positions()) if (!q.isZero()) positions.set(s, q);
  } else {
    for (const h of run.mode.account.holdings()) positions.set(h.symbol, h.quantity);
  }
  return {
    positions,
    openOrders: manager !== null ? manager.store.openExecutions().length : (paperAccount?.workingCount ?? 0),
    fills: run.fills,
    bars: run.bars.bars,
    barsWaiting: run.bars.waiting,
    refused: run.refusals.counts(),
    pnl: { KRW: totals('KRW'), USD: totals('USD') },
    requests: o.client.executor.stats.requests,
    rateLimited: o.client.executor.stats.rateLimited,
    risk: run.risk.gate.gateway.statusLine(),
  };
}
