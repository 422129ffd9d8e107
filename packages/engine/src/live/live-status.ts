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
import type { Portfolio } from '../portfolio/portfolio.js';
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
   * Each strategy's realized PnL and charges per currency when the run started (their books open
   * with the fills of earlier runs): the status counts this run's from there, as it counts its fills.
   */
  readonly atStart: ReadonlyMap<string, Readonly<Record<Currency, RunPnl>>>;
}

/** Realized PnL and charges (commissions and taxes) in one currency. */
export interface RunPnl {
  readonly realized: Decimal;
  readonly charges: Decimal;
}

/** Each strategy's realized PnL and charges per currency so far, their earlier runs' included. */
export function booksPnl(portfolio: Portfolio): ReadonlyMap<string, Readonly<Record<Currency, RunPnl>>> {
  const out = new Map<string, Record<Currency, RunPnl>>();
  for (const id of portfolio.strategies()) {
    const book = portfolio.book(id);
    const of = (c: Currency): RunPnl => {
      const t = book.totals(c);
      return { realized: t.realizedPnl, charges: t.commissions.plus(t.taxes) };
    };
    out.set(id, { KRW: of('KRW'), USD: of('USD') });
  }
  return out;
}

type StatusPnl = LiveStatus['pnl'];

const NONE: RunPnl = { realized: new Decimal(0), charges: new Decimal(0) };

/**
 * This run's PnL of each strategy per currency: realized and charges since `atStart`, and the
 * unrealized PnL of its positions at the last prices the run saw (a position with no price yet
 * counts zero; one bought in an earlier run included).
 */
function strategiesPnl(
  portfolio: Portfolio,
  atStart: ReadonlyMap<string, Readonly<Record<Currency, RunPnl>>>,
): Map<string, StatusPnl> {
  const out = new Map<string, StatusPnl>();
  for (const [id, now] of booksPnl(portfolio)) {
    const of = (c: Currency): StatusPnl[Currency] => {
      const start = atStart.get(id)?.[c] ?? NONE;
      return {
        realized: now[c].realized.minus(start.realized),
        unrealized: portfolio.unrealizedPnl(id, c),
        charges: now[c].charges.minus(start.charges),
      };
    };
    out.set(id, { KRW: of('KRW'), USD: of('USD') });
  }
  return out;
}

/** The sum of the strategies' PnL. */
function totalPnl(byStrategy: ReadonlyMap<string, StatusPnl>): StatusPnl {
  const zero = new Decimal(0);
  const sum = (c: Currency): StatusPnl[Currency] => {
    let realized = zero;
    let unrealized = zero;
    let charges = zero;
    for (const p of byStrategy.values()) {
      realized = realized.plus(p[c].realized);
      unrealized = unrealized.plus(p[c].unrealized);
      charges = charges.plus(p[c].charges);
    }
    return { realized, unrealized, charges };
  };
  return { KRW: sum('KRW'), USD: sum('USD') };
}

/**
 * The run's status now.
 *
 * @param o - the run's options (its client's request counts)
 * @param run - the mode's venue, the portfolio, the counts so far, the risk gate
 */
export function liveStatus(o: Pick<LiveRunOptions, 'client'>, run: LiveStatusSources): LiveStatus {
  const { manager, paperAccount } = run.mode;
  const byStrategy = strategiesPnl(run.portfolio, run.atStart);
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
    pnl: totalPnl(byStrategy),
    pnlByStrategy: byStrategy,
    requests: o.client.executor.stats.requests,
    rateLimited: o.client.executor.stats.rateLimited,
    risk: run.risk.gate.gateway.statusLine(),
  };
}
