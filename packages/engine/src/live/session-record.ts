/**
 * A live or paper session as a stored run (`hoga db runs --kind live|paper`): written when it
 * starts (status `running`), each fill of its strategies' orders appended as it is routed, its equity at the start and at the
 * end of each trading day stored once that day ended, and at the stop its last equity point,
 * statistics with each strategy's part of this session (`byStrategy`: its earlier sessions' PnL and
 * charges, which its books open with, left out), the orders refused and the bars handed over,
 * and how it ended (`stopped`, or `failed` after a strategy hook threw). A session killed outright
 * stays `running` in the store, with the equity of the days it ended. A run id stored before (a
 * restart under the same id) is stored with a suffix (`-2`, `-3`, …); a store failure is logged and
 * never stops the session.
 *
 * @module
 */
import { isSessionDay } from '@hoga/broker-model';
import { type Currency, Decimal, type Logger, type Market, marketOfSymbol } from '@hoga/core';
import { type HogaDatabase, RunRepository, type RunTrade } from '@hoga/store';
import type { Portfolio } from '../portfolio/portfolio.js';
import type { CurrencyTotals } from '../portfolio/strategy-book.js';
import { groupDigits } from '../risk/valuation.js';
import type { EngineRuntime, StrategySpec } from '../runtime/engine-runtime.js';
import type { RunSettings } from '../runtime/tokens.js';
import { SESSION_DAY_SHIFT_MS, sessionDayKey } from '../stats/equity-stats.js';
import { performanceStats } from '../stats/performance-stats.js';
import { type StrategyMoney, strategyStats } from '../stats/strategy-stats.js';

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** A day number as `YYYY-MM-DD`. */
const isoDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** A day number as `YYYY-MM-DD (Mon)`. */
const dayLabel = (day: number): string => `${isoDay(day)} (${WEEKDAYS[new Date(day * DAY_MS).getUTCDay()]})`;
/** A number with its sign (`+1,200`, `-0.25`), to `digits` decimals, digits grouped. */
const signed = (n: number, digits: number): string =>
  `${n >= 0 ? '+' : '-'}${groupDigits(Math.abs(n).toFixed(digits))}`;
const CURRENCIES: readonly Currency[] = ['KRW', 'USD'];
/** How often (wall-clock ms) a session looks whether its trading day ended. */
const DAY_CHECK_MS = 1_000;

/** A fill of the session as its stored run holds it. */
type SessionTrade = RunTrade & { readonly strategyId?: string };

/** What a session's run record needs. */
export interface SessionRecordOptions {
  readonly settings: RunSettings;
  readonly strategies: readonly StrategySpec[];
  /** The strategy file(s), when loaded from files. */
  readonly strategyPath?: string | null | undefined;
  readonly db: HogaDatabase;
  readonly runtime: EngineRuntime;
  readonly portfolio: Portfolio;
  readonly now: () => number;
  readonly logger: Logger;
  /**
   * What the session's end says besides its statistics, read at the finish: the orders refused
   * (denied by the risk module or rejected by the broker) by code, the risk halts and the bars
   * handed over.
   */
  readonly counts?: () => {
    readonly refused: Readonly<Record<string, number>>;
    /** The daily loss limit's halts by scope (`strategy:<id>`, `account`). */
    readonly halts?: Readonly<Record<string, number>>;
    readonly bars: number;
  };
}

/** The stored run of one session. */
export class SessionRecord {
  private readonly runs: RunRepository;
  /**
   * The session's fills the store refused, with their place among the fills routed: the others are
   * read back from the store at the finish (a session left running for weeks holds no list of them).
   */
  private readonly unstored: { readonly at: number; readonly trade: SessionTrade }[] = [];
  /** How many of its strategies' fills the session routed. */
  private routed = 0;
  /**
   * The session's own strategies, the one set its figures are counted by: its trades (and the
   * status line's fills) and its refused orders are of these strategies' orders only. A live
   * engine's order polls count the fills and ends of strategies it does not run too (another
   * engine's that is down, `hoga order`'s), which go to their strategies' books, not to this
   * session's figures.
   */
  readonly own: ReadonlySet<string>;
  private finished = false;
  /** The day (`sessionDayKey`) of the last look for a day's end: every day before it ended. */
  private day: number;
  /** The markets of the session's symbols, whose trading days the equity curve has points of. */
  private readonly markets: readonly Market[];
  /** How many of the equity curve's points are stored. */
  private storedPoints = 0;
  private readonly dayCheck: ReturnType<typeof setInterval>;
  /** The id the session is stored under (null when it could not be stored). */
  runId: string | null = null;
  /**
   * Each strategy's book totals per currency when the session started: its books open with the
   * fills of its earlier sessions, whose PnL and charges are not this session's.
   */
  private readonly atStart = new Map<string, Map<Currency, CurrencyTotals>>();

  /** Stores the run as `running` with its first equity point's time, and appends each fill as routed. */
  constructor(private readonly o: SessionRecordOptions) {
    this.runs = new RunRepository(o.db.connection);
    const { settings, runtime } = o;
    o.portfolio.recordEquity();
    for (const id of o.portfolio.strategies()) {
      const book = o.portfolio.book(id);
      this.atStart.set(id, new Map(CURRENCIES.map((c) => [c, book.totals(c)])));
    }
    this.day = sessionDayKey(o.now());
    const markets = new Set(settings.symbols.map(marketOfSymbol));
    this.markets = markets.size === 0 ? ['KR', 'US'] : [...markets];
    const run = {
      kind: settings.mode === 'paper' ? ('paper' as const) : ('live' as const),
      strategyPath: o.strategyPath ?? null,
      strategyName: runtime.hosts.map((h) => h.strategyId).join(', '),
      params: {
        symbols: settings.symbols,
        interval: settings.interval,
        strategies: o.strategies.map((s, i) => ({
          id: runtime.hosts[i]?.strategyId ?? s.id ?? s.strategyClass.name,
          // what it runs with (defaults applied), not only the fields given
          config: runtime.hosts[i]?.config ?? s.config ?? {},
        })),
      },
      startedAt: o.now(),
    };
    // a run id stored before (a restart under the same id) gets a suffix: -2, -3, …
    for (let n = 1; this.runId === null && n <= 100; n++) {
      const runId = n === 1 ? settings.runId : `${settings.runId}-${n}`;
      if (this.runs.get(runId) !== undefined) continue;
      try {
        this.runs.start({ ...run, runId });
        this.runId = runId;
      } catch (error) {
        o.logger.error({ err: error, runId }, 'could not store the run');
        break;
      }
    }
    // a session's trades are its own strategies' fills (see `own`; before, another strategy's
    // fills an engine's poll counted were among this session's trades and commissions)
    const own = new Set<string>(runtime.hosts.map((h) => h.strategyId));
    this.own = own;
    runtime.onFillRouted((fill, event) => {
      if (event.strategyId === undefined || !own.has(event.strategyId)) return;
      const trade: SessionTrade = {
        time: fill.tsEvent,
        ...(event.strategyId === undefined ? {} : { strategyId: event.strategyId }),
        symbol: fill.symbol,
        side: fill.side,
        quantity: fill.quantity,
        price: fill.price,
        currency: fill.commission.currency,
        commission: fill.commission.amount,
        tax: fill.tax?.amount ?? new Decimal(0),
      };
      const at = this.routed++;
      // a session not stored has no statistics to take at its finish
      if (this.runId === null) return;
      try {
        this.runs.appendTrades(this.runId, [trade]);
      } catch (error) {
        // the fill itself is stored by the order manager (live) or the journal (paper)
        this.unstored.push({ at, trade });
        o.logger.error({ err: error, runId: this.runId }, 'could not add a fill to the stored run');
      }
    });
    this.dayCheck = setInterval(() => this.endOfDay(), DAY_CHECK_MS);
    this.dayCheck.unref();
  }

  /**
   * When a trading day ended (23:00:30 UTC, as a backtest's curve counts days) since the last
   * look: one equity point stamped at the day's last millisecond, so that it is that day's, and the
   * points not yet stored are stored (a session killed later keeps them). Nothing trades between
   * the roll and this look, a second at most after it. A day on which none of the session's
   * markets traded (a weekend, an exchange holiday the broker model knows) gets no point, as a
   * backtest's curve has none: its daily returns and Sharpe (√252) count trading days only. When
   * several days ended since the last look (the machine was asleep), the point is the latest
   * trading day's among them.
   */
  private endOfDay(): void {
    if (this.finished) return;
    const day = sessionDayKey(this.o.now());
    if (day <= this.day) return;
    let ended = day - 1;
    while (ended >= this.day && !this.traded(ended)) ended--;
    const first = this.day;
    this.day = day;
    if (ended < first) return;
    this.o.portfolio.recordEquity((ended + 1) * DAY_MS - SESSION_DAY_SHIFT_MS - 1);
    this.storeEquity();
    this.sayDay(ended);
  }

  /**
   * Says the trading day `day` ended, with the session's equity then and its change since the
   * point before (the previous trading day's end, or the session's start): a run left running for
   * days tells each day's result as it ends, as its stop tells the session's.
   */
  private sayDay(day: number): void {
    const curve = this.o.portfolio.equityCurve();
    const last = curve[curve.length - 1];
    const before = curve[curve.length - 2];
    if (last === undefined || before === undefined) return;
    const change = Math.round(last.equity) - Math.round(before.equity);
    const pct = before.equity === 0 ? '' : `, ${signed((change / before.equity) * 100, 2)} %`;
    const since =
      curve.length === 2 ? 'the session started' : `the end of ${dayLabel(sessionDayKey(before.time))}`;
    this.o.logger.info(
      { component: 'session', day: isoDay(day), equityKrw: Math.round(last.equity), changeKrw: change },
      `trading day ${dayLabel(day)} ended: equity ${groupDigits(String(Math.round(last.equity)))} KRW, ${signed(change, 0)} KRW${pct} since ${since}`,
    );
  }

  /** Whether one of the session's markets trades on day `day` (a `sessionDayKey`, its KST date). */
  private traded(day: number): boolean {
    return this.markets.some((market) => isSessionDay(market, day));
  }

  /** Stops looking for the end of the trading day (a session whose start failed: never finished). */
  stopDayCheck(): void {
    clearInterval(this.dayCheck);
  }

  /** Stores the equity points recorded since the last store. */
  private storeEquity(): void {
    if (this.runId === null) return;
    const curve = this.o.portfolio.equityCurve();
    if (curve.length <= this.storedPoints) return;
    try {
      this.runs.appendEquity(this.runId, curve.slice(this.storedPoints));
      this.storedPoints = curve.length;
    } catch (error) {
      this.o.logger.error({ err: error, runId: this.runId }, 'could not add equity points to the stored run');
    }
  }

  /**
   * A strategy's realized PnL, commissions and taxes in a currency in this session, and the
   * unrealized PnL of what it holds at the end.
   */
  private sessionTotals(strategyId: string, currency: Currency): StrategyMoney {
    const now = this.o.portfolio.book(strategyId).totals(currency);
    // of the positions held at the end, an earlier session's included (as the stop's line counts it)
    const unrealizedPnl = this.o.portfolio.unrealizedPnl(strategyId, currency);
    const start = this.atStart.get(strategyId)?.get(currency);
    if (start === undefined) return { ...now, unrealizedPnl };
    return {
      unrealizedPnl,
      cash: now.cash,
      realizedPnl: now.realizedPnl.minus(start.realizedPnl),
      commissions: now.commissions.minus(start.commissions),
      taxes: now.taxes.minus(start.taxes),
    };
  }

  /** How many fills of its own strategies' orders the session routed so far (the status line's `fills`). */
  get fills(): number {
    return this.routed;
  }

  /** How many of the session's fills are held in memory: those the store refused. */
  get keptTrades(): number {
    return this.unstored.length;
  }

  /**
   * The session's fills in the order routed: those stored, read back, with those the store refused
   * put back in their places.
   */
  private trades(runId: string): SessionTrade[] {
    const stored: SessionTrade[] = this.runs
      .trades(runId)
      .map(({ strategyId, ...t }) => (strategyId == null ? t : { ...t, strategyId }));
    if (this.unstored.length === 0) return stored;
    const all: SessionTrade[] = [];
    let next = 0;
    for (const { at, trade } of this.unstored) {
      while (all.length < at && next < stored.length) all.push(stored[next++] as SessionTrade);
      all.push(trade);
    }
    while (next < stored.length) all.push(stored[next++] as SessionTrade);
    return all;
  }

  /** Records the last equity point, the statistics and how the session ended (once). */
  finish(): void {
    this.stopDayCheck();
    if (this.finished || this.runId === null) return;
    this.finished = true;
    const { runtime, portfolio } = this.o;
    try {
      portfolio.recordEquity();
      const equity = portfolio.equityCurve();
      this.runs.appendEquity(this.runId, equity.slice(this.storedPoints));
      const trades = this.trades(this.runId);
      const stats = performanceStats(equity, trades);
      // each strategy's part, in the order given, as a backtest stores it (hoga db runs --id prints
      // one row per strategy when there are several)
      const byStrategy = strategyStats(
        [...this.own],
        trades,
        Object.keys(stats.commissions).sort(),
        (id, currency) => this.sessionTotals(id, currency as Currency),
      );
      this.runs.finish(this.runId, {
        status: runtime.failure === null ? 'stopped' : 'failed',
        endedAt: this.o.now(),
        // beside the statistics, as a backtest's stored run has them (hoga db runs --id)
        stats: { ...stats, byStrategy, ...this.o.counts?.() },
      });
    } catch (error) {
      this.o.logger.error({ err: error, runId: this.runId }, 'could not finish the stored run');
    }
  }
}
