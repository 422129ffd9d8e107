/**
 * `ctx.subscribeTrades` in paper and live runs (both take the trades from the connector's
 * `trades$`):
 * - `onTrade` gets the trades printed after the subscription. Before, the first poll of the
 *   broker's recent trades list (up to 50) counted every trade in it as new, so a strategy got a
 *   burst of trades printed before the run started, as if they had just happened;
 * - more trades between two polls than a poll lists (50) is said on the run's log, naming the symbol
 *   and the strategies. Before, the trades missed were dropped without a word (the stream flagged
 *   the gap; nothing read the flag), and a strategy summing volume was short, unaware.
 */
import type { Trade } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../backtest/backtest-fixture.test-helper.js';
import type { MarketTrade } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Subscribes to the trades of 000660 at start and records them. */
class Prints extends Strategy {
  static trades: MarketTrade[] = [];
  override onStart(): void {
    this.ctx.subscribeTrades('000660');
  }
  override onTrade(trade: MarketTrade): void {
    Prints.trades.push(trade);
  }
}

/** A trade's identity as the broker lists it (time, price, volume). */
const keyOf = (ms: number, price: Decimal, volume: Decimal): string =>
  `${ms}|${price.toFixed()}|${volume.toFixed()}`;

describe('onTrade in paper and live runs', () => {
  it.each(['paper', 'live'] as const)(
    '%s: hands over only trades printed after the subscription, none of the recent trades listed before',
    async (mode) => {
      const s = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, `hoga-trades-${mode}-`, s.clock);
      // the simulated market has traded for a while: the broker lists recent trades
      let before: readonly Trade[] = [];
      for (let i = 0; i < 60 && before.length === 0; i++) {
        before = await s.client.getTrades('000660', { count: 50 });
        if (before.length === 0) await new Promise((r) => setTimeout(r, 500));
      }
      expect(before.length).toBeGreaterThan(0);
      const listed = new Set(before.map((t) => keyOf(t.timestamp.toMillis(), t.price, t.volume)));
      Prints.trades = [];
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `t-trades-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(1_000_000),
          strategies: [{ strategyClass: Prints }],
        },
        { streamIntervals: { candles1m: 300, trades: 200 } },
      );
      try {
        await until(() => Prints.trades.length >= 3, 60_000);
      } finally {
        await handle.stop();
      }
      const old = Prints.trades.filter((t) => listed.has(keyOf(t.tsEvent, t.price, t.quantity)));
      expect(old.map((t) => keyOf(t.tsEvent, t.price, t.quantity))).toEqual([]);
      const newest = Math.max(...before.map((t) => t.timestamp.toMillis()));
      for (const t of Prints.trades) expect(t.tsEvent).toBeGreaterThanOrEqual(newest);
    },
    90_000,
  );

  it('says on the log when trades were missed between two polls, naming the symbol and the strategy', async () => {
    // at ×600 the simulated market prints well over 50 trades in the 5 s (50 simulated minutes) between two polls
    const s = await startSimulatedBroker(closers, { speed: 600 });
    const db = openTempDb(closers, 'hoga-trades-gap-', s.clock);
    const { logger, records } = recordingLogger('info');
    Prints.trades = [];
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-trades-gap',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Prints, id: 'prints' }],
      },
      { streamIntervals: { candles1m: 300, trades: 5_000 }, logger },
    );
    const said = () => records.filter((r) => String(r.msg).includes('trades of 000660'));
    try {
      await until(() => said().length > 0 && Prints.trades.length > 0, 60_000);
    } finally {
      await handle.stop();
    }
    expect(said()[0]).toMatchObject({ level: 40, symbol: '000660' });
    expect(String(said()[0]?.msg)).toContain(
      'trades of 000660: more were printed between two polls than a poll lists (50); some never reached onTrade (strategy prints)',
    );
    // said once for the symbol, not at every poll
    expect(said()).toHaveLength(1);
  }, 90_000);
});
