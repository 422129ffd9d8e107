/**
 * One live or paper session as the CLI runs it (`hoga run`, `pnpm start`): the engine's live run,
 * a printed line per order event, a status line at a steady interval, and a summary at the end.
 *
 * @module
 */

import type { BrokerClient } from '@hoga/connector';
import { type BarInterval, type Clock, counted, Decimal, type OrderEvent } from '@hoga/core';
import {
  type CancelOnStopResult,
  type LiveRunHandle,
  type LiveStatus,
  type OrderManagerAlert,
  type RiskConfig,
  type StrategySpec,
  startLiveRun,
} from '@hoga/engine';
import type { HogaDatabase } from '@hoga/store';
import { createRunLogger } from '../runtime/cli-logger.js';
import { refusals } from './backtest-report.js';
import { RepeatedWarnings } from './repeated-warnings.js';
import { alertLine } from './run-alert-line.js';

/** What a session needs. */
export interface SessionOptions {
  readonly mode: 'live' | 'paper';
  /** The strategies (class, config, id), one or several. */
  readonly strategies: readonly StrategySpec[];
  /** Their file(s), for the stored run. */
  readonly strategyPath?: string;
  readonly symbols: readonly string[];
  readonly interval: BarInterval;
  readonly client: BrokerClient;
  readonly db: HogaDatabase;
  readonly clock: Clock;
  /** Paper starting cash (KRW, USD). */
  readonly cash: { readonly KRW: Decimal; readonly USD: Decimal };
  readonly paperFromAccount?: boolean;
  /** The risk configuration (`--risk-config`, `$HOGA_RISK_CONFIG`); the defaults when absent. */
  readonly risk?: RiskConfig;
  /** Real ms between two status lines. */
  readonly statusEveryMs: number;
  /** Real ms between two order polls (live). */
  readonly pollIntervalMs?: number;
  /**
   * Real ms between two candle polls of a symbol, for the run's `interval` (1m or 1d; a strategy's
   * subscribed candles of the other interval keep theirs); the streams' defaults (5 s, 60 s) when
   * absent. The chart group's rate limit still spaces the polls of many symbols further apart.
   */
  readonly candlePollMs?: number;
  readonly print: (line: string) => void;
}

/** A decimal as it is, every digit kept, with thousands separators (`2.233937`, `70,500`). */
export function fmt(d: Decimal): string {
  return grouped(d.toFixed());
}

/** A plain decimal text (`-1234.5`) with thousands separators in its whole part (`-1,234.5`). */
function grouped(text: string): string {
  const [whole = '0', fraction] = text.split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/**
 * An amount of money to the currency's unit (won, cent), rounded half up, cents always shown:
 * fractional US shares make a realized PnL of many decimals (`-0.8823999746`), which the status
 * line shows as `-0.88`, and a dollar of charges is `1.00`.
 */
export function fmtMoney(d: Decimal, currency: 'KRW' | 'USD'): string {
  return grouped(d.toFixed(currency === 'USD' ? 2 : 0, Decimal.ROUND_HALF_UP));
}

/**
 * Whose order an output line is about: with several strategies, each line names its strategy; an
 * order of a strategy not in the run (one renamed or left out, whose open order works on) is named
 * whatever the count, so that it is not taken for the run's own.
 *
 * @param runIds - the ids of the run's strategies
 */
export function ownerSuffix(e: OrderEvent, runIds: ReadonlySet<string>): string {
  const id = e.strategyId;
  if (id === undefined) return '';
  if (!runIds.has(id)) return `  [${id}, not in this run]`;
  return runIds.size > 1 ? `  [${id}]` : '';
}

/** One line per order event worth showing. */
export function describeEvent(e: OrderEvent, at: string): string | null {
  const id = e.clientOrderId;
  switch (e.type) {
    case 'OrderSubmitted': {
      const i = e.intent;
      const size = i.sizing === 'AMOUNT' ? `${fmt(i.amount)} ${i.instrument.currency}` : fmt(i.quantity);
      const price = i.sizing === 'QUANTITY' && i.orderType === 'LIMIT' ? ` @ ${fmt(i.price)}` : '';
      // a limit at the close says so: it waits for the closing auction
      const tif = i.sizing === 'QUANTITY' && i.timeInForce === 'CLS' ? ' at the close (CLS)' : '';
      return `${at} order  ${i.side} ${size} ${i.instrument.symbol} ${i.orderType}${price}${tif}  (${id})`;
    }
    case 'OrderAccepted':
      return `${at} accepted ${id} as broker order ${e.brokerOrderId}`;
    case 'OrderPartiallyFilled':
    case 'OrderFilled': {
      const f = e.fill;
      return (
        `${at} fill   ${f.side} ${fmt(f.quantity)} ${f.symbol} @ ${fmt(f.price)} ${f.commission.currency}` +
        ` (commission ${fmt(f.commission.amount)}${f.tax && !f.tax.amount.isZero() ? `, tax ${fmt(f.tax.amount)}` : ''})` +
        `${e.type === 'OrderFilled' ? ' — filled' : ''}`
      );
    }
    case 'OrderRejected':
    case 'OrderDenied':
      return `${at} ${e.type === 'OrderDenied' ? 'denied' : 'rejected'} ${id}: ${refusal(e.code, e.reason)}`;
    case 'OrderCanceled':
      // why, unless the strategy asked (e.g. `close`: a CLS order the closing price did not reach)
      return `${at} canceled ${id}${e.reason === undefined || e.reason === 'user' ? '' : ` (${e.reason})`}`;
    case 'OrderExpired':
      return `${at} expired ${id}`;
    case 'OrderModified': {
      const price = e.price === undefined ? '' : ` price ${fmt(e.price)}`;
      const quantity = e.quantity === undefined ? '' : ` quantity ${fmt(e.quantity)}`;
      return `${at} modified ${id}:${price}${quantity} (broker order ${e.brokerOrderId})`;
    }
    case 'OrderModifyRejected':
    case 'OrderCancelRejected':
      return `${at} ${e.type === 'OrderModifyRejected' ? 'modify' : 'cancel'} refused ${id}: ${refusal(e.code, e.reason)}`;
    default:
      return null;
  }
}

/** The connector's text of a broker's refusal: `<endpoint>: HTTP <status> <code>: <message>`. */
const BROKER_REFUSAL = /^(\w+): HTTP (\d+) (\S+): ([\s\S]*)$/;

/**
 * Why an order or a change was refused, after its code: a broker's refusal as hoga's errors say it,
 * its code once (`already-filled (HTTP 409 from cancelOrder): Order … is already filled (request …)`;
 * before, `already-filled cancelOrder: HTTP 409 already-filled: Order …`); any other reason as it is.
 */
function refusal(code: string | undefined, reason: string): string {
  const broker = BROKER_REFUSAL.exec(reason);
  if (broker !== null && broker[3] === code)
    return `${code} (HTTP ${broker[2]} from ${broker[1]}): ${broker[4]}`;
  return `${code ?? ''} ${reason}`;
}

/** A PnL per currency as the status line shows it (`KRW realized … unrealized … charges …; USD …`, or `0`). */
function pnlText(pnl: LiveStatus['pnl']): string {
  const text = (['KRW', 'USD'] as const)
    .filter((c) => !pnl[c].realized.isZero() || !pnl[c].unrealized.isZero() || !pnl[c].charges.isZero())
    .map(
      (c) =>
        `${c} realized ${fmtMoney(pnl[c].realized, c)} unrealized ${fmtMoney(pnl[c].unrealized, c)} charges ${fmtMoney(pnl[c].charges, c)}`,
    )
    .join('; ');
  return text || '0';
}

/**
 * With several strategies, a line of each one's PnL (`strategy low: PnL KRW realized …`), printed
 * after the last status line; none for one strategy (the status line is its own).
 */
export function strategyPnlLines(s: LiveStatus, at: string): string[] {
  if (s.pnlByStrategy.size < 2) return [];
  return [...s.pnlByStrategy].map(([id, pnl]) => `${at} strategy ${id}: PnL ${pnlText(pnl)}`);
}

/**
 * The status line. Its `holdings` are the account's (live: the broker's holdings and the run's
 * fills; paper: the paper account's), shares held before the run included; the strategies' own
 * positions are in their PnL. Before, labelled `positions`, they were read as the strategies'.
 */
export function statusLine(s: LiveStatus, at: string): string {
  const positions = [...s.positions].map(([sym, q]) => `${sym} ${fmt(q)}`).join(', ') || 'none';
  const pnl = pnlText(s.pnl);
  return (
    `${at} status  holdings: ${positions} | open orders ${s.openOrders} | fills ${s.fills} | bars ${s.bars}` +
    (s.barsWaiting > 0 ? ` (${s.barsWaiting} waiting for the open)` : '') +
    ` | PnL ${pnl} | requests ${s.requests} (429: ${s.rateLimited})` +
    (s.risk === undefined ? '' : ` | ${s.risk}`)
  );
}

/**
 * What `--cancel-on-stop` did: `cancel on stop: 2 open orders cancelled`, or, when a cancel was
 * refused (its `cancel refused` line came before), how many and which orders still work; and, in
 * paper while the store refuses writes, which the paper venue cancelled but the store still holds
 * working.
 */
export function cancelOnStopLine(r: CancelOnStopResult): string {
  const orders = (n: number) => counted(n, 'open order');
  const unstored = r.unstored;
  if (r.stillOpen.length === 0 && unstored.length === 0 && r.canceled === r.open) {
    return `cancel on stop: ${orders(r.open)} cancelled`;
  }
  const still =
    r.stillOpen.length === 0 ? '' : `; still working (cancel refused, above): ${r.stillOpen.join(', ')}`;
  const it = unstored.length === 1 ? 'it' : 'them';
  const notStored =
    unstored.length === 0
      ? ''
      : `; cancelled on the paper venue but not stored (the store refuses writes, above: the next paper run works ${it} again): ${unstored.join(', ')}`;
  return `cancel on stop: ${r.canceled} of ${orders(r.open)} cancelled${still}${notStored}`;
}

/** The stream intervals that poll the candles of `interval` every `ms` (the other interval's untouched). */
export function candleIntervals(
  interval: BarInterval,
  ms: number,
): { readonly candles1m: number } | { readonly candles1d: number } {
  return interval === '1d' ? { candles1d: ms } : { candles1m: ms };
}

/**
 * The engine time of the session's output lines, KST: `HH:mm:ss`, and on the first line of a new
 * day `yyyy-MM-dd HH:mm:ss`, so that a run left running for days says which day a line is of.
 * Before, every line had the time alone, and a status line at 08:59 after one at 10:13 did not say
 * that three days had passed between them.
 */
function lineTimes(clock: Clock): () => string {
  let day: string | undefined;
  return () => {
    const now = clock.now();
    const date = now.toFormat('yyyy-MM-dd');
    const time = now.toFormat('HH:mm:ss');
    const dated = day !== undefined && date !== day;
    day = date;
    return dated ? `${date} ${time}` : time;
  };
}

/** A running session. */
export interface Session {
  readonly run: LiveRunHandle;
  /** How many orders the run's strategies placed so far (submitted to the venue: not those denied). */
  placed(): number;
  /** Stops and prints the summary. */
  stop(): Promise<LiveStatus>;
}

/**
 * Starts a session.
 *
 * @param o - mode, strategy, connection, store, clock, output
 */
export async function startSession(o: SessionOptions): Promise<Session> {
  const at = lineTimes(o.clock);
  const logger = createRunLogger(o.print, at);
  const runIds = new Set(o.strategies.map((s) => s.id ?? s.strategyClass.name));
  // a broker outage fails every poll: each kind of failure is said once a minute, its repeats counted
  const warnings = new RepeatedWarnings(o.print);
  let placed = 0;
  const run = await startLiveRun({
    settings: {
      runId: `${o.mode}-${o.clock.nowMs()}`,
      mode: o.mode,
      symbols: o.symbols,
      interval: o.interval,
      cash: { KRW: o.cash.KRW, USD: o.cash.USD },
    },
    strategies: o.strategies,
    strategyPath: o.strategyPath ?? null,
    client: o.client,
    db: o.db,
    clock: o.clock,
    logger,
    ...(o.pollIntervalMs === undefined ? {} : { pollIntervalMs: o.pollIntervalMs }),
    ...(o.candlePollMs === undefined ? {} : { streamIntervals: candleIntervals(o.interval, o.candlePollMs) }),
    ...(o.paperFromAccount === true ? { paperFromAccount: true } : {}),
    ...(o.risk === undefined ? {} : { risk: o.risk }),
    onEvent: (e) => {
      if (e.type === 'OrderSubmitted' && !e.clientOrderId.startsWith('ext-')) placed++;
      if (e.clientOrderId.startsWith('ext-') && e.type !== 'OrderFilled' && e.type !== 'OrderPartiallyFilled')
        return;
      const line = describeEvent(e, at());
      if (line !== null) o.print(`${line}${ownerSuffix(e, runIds)}`);
    },
    onAlert: (a: OrderManagerAlert) => {
      const line = alertLine(a);
      if (line !== null) o.print(`${at()} ${line}`);
    },
    onError: (e, where) => warnings.warn(at(), where, e instanceof Error ? e.message : String(e)),
  });
  const timer = setInterval(() => o.print(statusLine(run.status(), at())), o.statusEveryMs);
  return {
    run,
    placed: () => placed,
    async stop(): Promise<LiveStatus> {
      clearInterval(timer);
      await run.stop();
      warnings.flush(at());
      const s = run.status();
      o.print(statusLine(s, at()));
      for (const line of strategyPnlLines(s, at())) o.print(line);
      // the orders denied (risk module) or rejected (broker) this session, by code
      if (Object.keys(s.refused).length > 0) o.print(`${at()} refused orders: ${refusals(s.refused)}`);
      return s;
    },
  };
}
