/**
 * Modify and cancel in the three modes: one strategy file (`change-script.test-helper.ts`) run
 * unchanged live (the simulator over HTTP on 127.0.0.1 is the broker), on paper (its own simulator,
 * same seed and start: market data only) and as a backtest over the live run's candles, with the
 * risk module disabled (the broker's own answers decide) and with it on (its broker rules refuse
 * before anything is sent, in every mode). For each scenario (a modify the broker takes, modifies
 * it refuses for their price or quantity, a US modify of the quantity, a cancel given twice, a
 * modify of a market order, a cancel and a modify of a filled order) the order events the strategy
 * heard (type; for a refusal its code and whether it was sent) and the order as it last saw it
 * (state, price, quantity) must be live's in paper and in the backtest: live is the reference.
 *
 * One scenario differs by how live learns of a cancel, and is compared apart: live hears a cancel
 * done (`OrderCanceled`) only when it next polls the order, paper and backtests at once. So a second
 * cancel given in the same hook as the first is, with the risk module off, sent live
 * (`OrderCancelRequested`) and refused by the broker (`already-canceled`) before the first's
 * `OrderCanceled`, and refused by the venue after it in paper and backtests; with the risk module
 * on, it is refused unsent in every mode, live `already-processing` (the order still pending its
 * cancel as far as the engine knows), paper and backtests `already-canceled`. For it the events
 * are compared as a set, its refusal by `sent` (the code checked per mode), and its end.
 */
import { type BrokerClient, candleToBar } from '@hoga/connector';
import { type Bar, createLogger, Decimal } from '@hoga/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../backtest/run-backtest.js';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import ChangeScript, {
  allAnswered,
  firstBars,
  recorded,
  SCENARIOS,
  type ScenarioRecord,
} from './change-script.test-helper.js';
import {
  Closers,
  KR_OPEN,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterAll(() => closers.closeAll());

const SYMBOLS = ['005930', 'AAPL'] as const;
const CASH = { KRW: new Decimal(10_000_000), USD: new Decimal(10_000) };
const SPEED = 30;

type Outcome = Record<string, ScenarioRecord>;

/** A copy of what the strategy recorded in its run. */
function snapshot(): Outcome {
  const out: Outcome = {};
  for (const [name, r] of recorded) out[name] = { events: [...r.events], last: r.last, changes: r.changes };
  return out;
}

/** The refusal of `cancel-twice`'s second cancel: `OrderCancelRejected <code> sent=<sent>`. */
const SECOND_CANCEL = /^OrderCancelRejected (\S+) (sent=\S+)$/;

/**
 * An outcome as compared across modes: `cancel-twice`'s events as a set, its refusal without its
 * code (see the module description).
 */
function compared(outcome: Outcome): Outcome {
  const twice = outcome['cancel-twice'];
  if (twice === undefined) return outcome;
  const events = [...new Set(twice.events.map((e) => e.replace(SECOND_CANCEL, 'OrderCancelRejected $2')))];
  return { ...outcome, 'cancel-twice': { ...twice, events: events.sort() } };
}

/** The code the second cancel of `cancel-twice` was refused with. */
function secondCancelCode(outcome: Outcome): string | undefined {
  for (const e of outcome['cancel-twice']?.events ?? []) {
    const code = SECOND_CANCEL.exec(e)?.[1];
    if (code !== undefined) return code;
  }
  return undefined;
}

interface ModeRun {
  readonly outcome: Outcome;
  readonly client: BrokerClient;
  /** Each symbol's first bar in the run. */
  readonly firstBars: ReadonlyMap<string, number>;
}

async function runMode(mode: 'live' | 'paper', risk: unknown): Promise<ModeRun> {
  const { clock, client } = await startSimulatedBroker(closers, { start: KR_OPEN, speed: SPEED });
  const db = openTempDb(closers, `hoga-chg-${mode}-`, clock);
  recorded.clear();
  firstBars.clear();
  const run = await startTestRun(
    { client, clock, db },
    {
      runId: `changes-${mode}`,
      mode,
      symbols: SYMBOLS,
      cashKrw: CASH.KRW,
      cashUsd: CASH.USD,
      strategies: [{ strategyClass: ChangeScript }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk },
  );
  try {
    await until(allAnswered, 60_000);
  } finally {
    await run.handle.stop();
  }
  return { outcome: snapshot(), client, firstBars: new Map(firstBars) };
}

/** The simulator's 1m candles of `symbol` from `fromTs` on, as bars. */
async function barsFrom(client: BrokerClient, symbol: string, fromTs: number | undefined): Promise<Bar[]> {
  const page = await client.getCandles(symbol, { interval: '1m', count: 200 });
  return page.candles.map((c) => candleToBar(c, symbol, '1m')).filter((b) => b.ts >= (fromTs ?? 0));
}

/** A backtest over the candles of the live run from each symbol's first bar in it. */
async function runBacktestOver(live: ModeRun, risk: unknown): Promise<Outcome> {
  const bars: Bar[] = [];
  for (const symbol of SYMBOLS)
    bars.push(...(await barsFrom(live.client, symbol, live.firstBars.get(symbol))));
  bars.sort((a, b) => a.closeTime - b.closeTime || a.symbol.localeCompare(b.symbol));
  recorded.clear();
  const outcome = await runBacktest({
    settings: { runId: 'changes-backtest', mode: 'backtest', symbols: SYMBOLS, interval: '1m', cash: CASH },
    strategies: [{ strategyClass: ChangeScript }],
    startMs: Math.min(...live.firstBars.values()),
    // the market buys fill whole at the next bar's open, as the broker fills them at once
    volumeFraction: Number.POSITIVE_INFINITY,
    db: openTempDb(closers, 'hoga-chg-backtest-'),
    logger: createLogger({ level: 'silent' }),
    fx: new FixedFxRates(1400),
    risk,
    openStream: async () => {
      let i = -1;
      return {
        next: () => ++i < bars.length,
        get current() {
          return bars[i] as Bar;
        },
      };
    },
  });
  expect(outcome.status).toBe('completed');
  return snapshot();
}

for (const [label, risk] of [
  ['risk module off', { enabled: false }],
  ['risk module on', undefined],
] as const) {
  const off = risk !== undefined;
  describe(`modify and cancel heard alike in live, paper and backtest (${label})`, () => {
    let live: ModeRun;

    it('live: every scenario ran and each change was answered', async () => {
      live = await runMode('live', risk);
      expect(Object.keys(live.outcome).sort()).toEqual([...SCENARIOS].sort());
      // the broker's answer (off); the risk module's, the engine still waiting for the first cancel's end (on)
      expect(secondCancelCode(live.outcome)).toBe(off ? 'already-canceled' : 'already-processing');
    }, 90_000);

    it('paper: the same events and the same orders as live', async () => {
      const paper = await runMode('paper', risk);
      expect(compared(paper.outcome)).toEqual(compared(live.outcome));
      expect(secondCancelCode(paper.outcome)).toBe('already-canceled');
    }, 90_000);

    it('backtest over the live candles: the same events and the same orders as live', async () => {
      const backtest = await runBacktestOver(live, risk);
      expect(compared(backtest)).toEqual(compared(live.outcome));
      expect(secondCancelCode(backtest)).toBe('already-canceled');
    }, 60_000);
  });
}
