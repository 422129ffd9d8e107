/**
 * `hoga backtest` stopped by Ctrl-C while a strategy's `onBar` awaits: the bar was delivered,
 * counted, matched and marked (its fills are stamped at its close), so the run ends there. The
 * report's `interrupted after N bars (at T)`, the clock `onStop` sees, and the stored run's last
 * equity point are all at that bar's close, after every stored trade.
 *
 * Before, they went back to the bar before: the clock moved backwards for `onStop`, the last equity
 * point repeated the day before's time (a second point at 2025-01-07 15:30 KST) and the fill of the
 * last bar (2025-01-08 15:30 KST) came after the curve's end. Stopped in an awaiting `onTimer` due
 * before a bar, the bar was counted though never delivered, and the clock went back the same way.
 * The strategy signals its own process
 * from `onBar` and waits for the signal to have been handled, so the test does not race it.
 * The real `hoga` in a child process, a real SQLite file, the embedded simulator.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';

/** Buys 10 on its 4th bar (filled on the 5th); on its 5th, sends itself SIGINT and awaits its handling. */
const SIGNALS_ITSELF = `
import type { Bar } from '@hoga/core';
import { Strategy } from '@hoga/engine';

export default class SignalsItselfMidBar extends Strategy {
  private bars = 0;

  override async onBar(bar: Bar): Promise<void> {
    this.bars++;
    if (this.bars === 4) this.ctx.buy(bar.symbol, 10);
    if (this.bars !== 5) return;
    // hoga's own listener was added first: it has run when this one does
    const handled = new Promise((resolve) => process.once('SIGINT', resolve));
    process.kill(process.pid, 'SIGINT');
    await handled;
  }

  override onStop(): void {
    this.ctx.log.info({ bars: this.bars }, 'stopping');
  }
}
`;

/** On its start, a timer at 2025-01-08 12:00 KST (before that day's bar, at 15:30), whose hook sends SIGINT and awaits its handling. */
const SIGNALS_ITSELF_IN_TIMER = `
import { Strategy } from '@hoga/engine';

export default class SignalsItselfInTimer extends Strategy {
  private bars = 0;

  override onStart(): void {
    this.ctx.setTimer('noon', { at: Date.parse('2025-01-08T12:00:00+09:00') });
  }

  override onBar(): void {
    this.bars++;
  }

  override async onTimer(): Promise<void> {
    const handled = new Promise((resolve) => process.once('SIGINT', resolve));
    process.kill(process.pid, 'SIGINT');
    await handled;
  }

  override onStop(): void {
    this.ctx.log.info({ bars: this.bars }, 'stopping');
  }
}
`;

/** Counts its bars and says how many it saw when it stops. */
const COUNTS_BARS = `
import { Strategy } from '@hoga/engine';

export default class CountsBars extends Strategy {
  private bars = 0;

  override onBar(): void {
    this.bars++;
  }

  override onStop(): void {
    this.ctx.log.info({ bars: this.bars }, 'stopping');
  }
}
`;

const dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-mid-bar-'));
const home = tempHome();
const strategy = join(dir, 'signals-itself-mid-bar.ts');
writeFileSync(strategy, SIGNALS_ITSELF);
const inTimer = join(dir, 'signals-itself-in-timer.ts');
writeFileSync(inTimer, SIGNALS_ITSELF_IN_TIMER);
const counts = join(dir, 'counts-bars.ts');
writeFileSync(counts, COUNTS_BARS);
const kst = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(0, 16);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga backtest interrupted while a strategy awaits in onBar', () => {
  it('ends the run at that bar: the report, onStop and the last equity point at its close, after its fill', async () => {
    const db = join(dir, 'runs.sqlite');
    const run = await hoga(
      [
        'backtest',
        strategy,
        ...`--symbols 005930 --interval 1d --from 2025-01-02 --to 2025-01-31 --usd-krw 1400 --db ${db}`.split(
          ' ',
        ),
      ],
      { cwd: dir, env: { HOME: home }, killAfterMs: 110_000 },
    );
    expect(run.code, run.err).toBe(130);
    // the 5th trading day of 2025 in the simulator's KR calendar: 1/2, 1/3, 1/6, 1/7, 1/8
    expect(run.err).toContain('log    SignalsItselfMidBar: stopping (bars=5)');
    expect(run.err).toContain('2025-01-08 15:30:00 KST log    SignalsItselfMidBar: stopping (bars=5)');
    expect(run.err).toContain('interrupted after 5 bars (at 2025-01-08 15:30:00 KST)');
    const runId = /the run is stored as ([\w-]+) \(stopped\)/.exec(run.err)?.[1] as string;
    expect(runId, run.err).toBeDefined();

    const store = HogaDatabase.open(db, { migrate: false, readonly: true });
    try {
      const c = store.connection;
      const equity = c
        .prepare('SELECT time, equity FROM run_equity WHERE run_id = ? ORDER BY seq')
        .all(runId) as { time: number; equity: number }[];
      const trades = c
        .prepare(
          'SELECT time, side, quantity, price, commission, tax FROM run_trades WHERE run_id = ? ORDER BY seq',
        )
        .all(runId) as {
        time: number;
        side: string;
        quantity: string;
        price: string;
        commission: string;
        tax: string;
      }[];
      const close = (day: string): number =>
        Number(
          c
            .prepare("SELECT close FROM candles WHERE symbol = '005930' AND interval = '1d' AND ts = ?")
            .pluck()
            .get(Date.parse(`${day}T00:00:00+09:00`)),
        );
      // the start, the ends of 1/2, 1/3, 1/6 and 1/7, and the stop at 1/8's close: no time twice
      expect(equity.map((p) => kst(p.time))).toEqual([
        '2025-01-02T00:00',
        '2025-01-02T15:30',
        '2025-01-03T15:30',
        '2025-01-06T15:30',
        '2025-01-07T15:30',
        '2025-01-08T15:30',
      ]);
      // the buy of the 4th bar filled on the 5th, within the curve
      expect(trades.map((t) => [kst(t.time), t.side, t.quantity])).toEqual([
        ['2025-01-08T15:30', 'BUY', '10'],
      ]);
      const [buy] = trades as [(typeof trades)[number]];
      // the last point: the cash after the buy and the 10 shares at 1/8's close (USD at 1,400)
      const cash =
        100_000_000 + 100_000 * 1_400 - 10 * Number(buy.price) - Number(buy.commission) - Number(buy.tax);
      expect(equity.at(-1)?.equity).toBe(cash + 10 * close('2025-01-08'));
      const stats = JSON.parse(
        c.prepare('SELECT stats FROM runs WHERE run_id = ?').pluck().get(runId) as string,
      );
      expect(stats).toMatchObject({ bars: 5, trades: 1, failure: null });
    } finally {
      store.close();
    }
  }, 120_000);

  it('in a timer before a bar: that bar is not counted, and the run ends at the timer, after the day before', async () => {
    const db = join(dir, 'timer.sqlite');
    const run = await hoga(
      [
        'backtest',
        inTimer,
        ...`--symbols 005930 --interval 1d --from 2025-01-02 --to 2025-01-31 --usd-krw 1400 --db ${db}`.split(
          ' ',
        ),
      ],
      { cwd: dir, env: { HOME: home }, killAfterMs: 110_000 },
    );
    expect(run.code, run.err).toBe(130);
    // before: 5 bars (the 5th counted, never delivered) and the clock back at 2025-01-07 15:30
    expect(run.err).toContain('2025-01-08 12:00:00 KST log    SignalsItselfInTimer: stopping (bars=4)');
    expect(run.err).toContain('interrupted after 4 bars (at 2025-01-08 12:00:00 KST)');
    const runId = /the run is stored as ([\w-]+) \(stopped\)/.exec(run.err)?.[1] as string;
    const store = HogaDatabase.open(db, { migrate: false, readonly: true });
    try {
      const c = store.connection;
      const times = c
        .prepare('SELECT time FROM run_equity WHERE run_id = ? ORDER BY seq')
        .pluck()
        .all(runId) as number[];
      expect(times.map(kst)).toEqual([
        '2025-01-02T00:00',
        '2025-01-02T15:30',
        '2025-01-03T15:30',
        '2025-01-06T15:30',
        '2025-01-07T15:30',
        '2025-01-08T12:00',
      ]);
      const stats = JSON.parse(
        c.prepare('SELECT stats FROM runs WHERE run_id = ?').pluck().get(runId) as string,
      );
      expect(stats).toMatchObject({ bars: 4, trades: 0, failure: null });
    } finally {
      store.close();
    }
  }, 120_000);

  it('with a second strategy: the bar under way still reaches it before the run stops ("after the current bar")', async () => {
    const db = join(dir, 'two.sqlite');
    const run = await hoga(
      [
        'backtest',
        strategy,
        counts,
        ...`--symbols 005930 --interval 1d --from 2025-01-02 --to 2025-01-31 --usd-krw 1400 --db ${db}`.split(
          ' ',
        ),
      ],
      { cwd: dir, env: { HOME: home }, killAfterMs: 110_000 },
    );
    expect(run.code, run.err).toBe(130);
    expect(run.err).toContain('stopping the backtest after the current bar');
    // before: CountsBars stopped with bars=4, the 5th bar (counted, matched) never reaching it
    expect(run.err).toContain('2025-01-08 15:30:00 KST log    CountsBars: stopping (bars=5)');
    expect(run.err).toContain('2025-01-08 15:30:00 KST log    SignalsItselfMidBar: stopping (bars=5)');
    expect(run.err).toContain('interrupted after 5 bars (at 2025-01-08 15:30:00 KST)');
  }, 120_000);
});
