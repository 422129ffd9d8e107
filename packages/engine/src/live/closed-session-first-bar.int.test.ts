/**
 * A run's first minute bar of a symbol is the newest completed candle when it starts; when that
 * candle is of a trading day whose sessions ended (the first poll at the open, of a run started
 * while the market was closed or at the open before the day's first candle completed) it is the previous session's last bar, not news:
 * a strategy with a warm-up gets it as its last warm-up bar (`ctx.isWarmingUp`, its indicators
 * count it), the others do not get it, and the first bar they can order on is the next session's
 * first. Before, it was handed over as a new bar at the open: a run started on the weekend, or at
 * Monday 08:00 before the first candle completed, handed Friday's 20:00 bar to every strategy at
 * Monday 08:00, and a strategy ordering on each bar ordered on Friday's close. Over the simulator
 * on 127.0.0.1, its clock at × 60 (the streams do not poll a closed market: a run started on
 * Saturday gets its first bars at Monday's open, the same way).
 */
import { type Bar, Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Records the bars it is handed, as `ts` (KST) and whether as warm-up. */
function recorder(list: string[]) {
  return (bar: Bar, warming: boolean) => {
    list.push(
      `${new Date(bar.ts + 9 * 3_600_000).toISOString().slice(0, 16)} ${warming ? 'warm-up' : 'new'}`,
    );
  };
}

const plain: string[] = [];
const warm: string[] = [];

class Plain extends Strategy {
  override onBar(bar: Bar): void {
    recorder(plain)(bar, this.ctx.isWarmingUp);
  }
}

class WarmsUp extends Strategy {
  static warmupBars = 1;
  override onBar(bar: Bar): void {
    recorder(warm)(bar, this.ctx.isWarmingUp);
  }
}

async function run005930(start: string): Promise<void> {
  plain.length = 0;
  warm.length = 0;
  const s = await startSimulatedBroker(closers, { speed: 60, start, rateLimit: false });
  const db = openTempDb(closers, 'hoga-closed-first-bar-', s.clock);
  const { handle } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'closed',
      mode: 'paper',
      symbols: ['005930'],
      cashKrw: new Decimal(10_000_000),
      // the plain strategy first: once the other has a bar, the plain one's turn for it has passed
      strategies: [{ strategyClass: Plain }, { strategyClass: WarmsUp }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
  );
  closers.add(() => handle.stop());
}

describe("a run's first minute bar, of a session that ended", () => {
  it.each([
    ['started before the pre-market', '2026-11-30T07:58:00+09:00'],
    ['started in the pre-market before its first candle completed', '2026-11-30T08:00:05+09:00'],
  ])(
    "%s: Friday's 20:00 bar is a warm-up bar, the first new bar is Monday's 08:01",
    async (_, start) => {
      await run005930(start);
      await until(() => plain.length > 0 && warm.some((b) => b.endsWith(' new')), 60_000);
      expect(plain[0]).toBe('2026-11-30T08:01 new');
      expect(warm.filter((b) => b.endsWith(' new'))[0]).toBe('2026-11-30T08:01 new');
      expect(warm).toContain('2026-11-27T20:00 warm-up');
    },
    90_000,
  );
});
