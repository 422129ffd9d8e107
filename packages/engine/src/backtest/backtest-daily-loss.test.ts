import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, MINUTE, minuteBars, recordingLogger, T0 } from './backtest-fixture.test-helper.js';

// A backtest's daily loss limit counts what live and paper count: realised PnL today plus what the
// positions made today at the bars' closes (from the last close before the day), not realised only.
// The strategy's limit is the default 1,000,000 KRW.

const DAY = 86_400_000;
const RICH = { KRW: new Decimal('1e10'), USD: new Decimal(0) };

/** Monday's and Tuesday's minute bars of 005930 (09:01 KST on). */
function twoDays(monday: readonly number[], tuesday: readonly number[]): Bar[] {
  return [...minuteBars('005930', monday), ...minuteBars('005930', tuesday, T0 + DAY)];
}

/**
 * Places the orders `plan` gives for each bar of the run (numbered from 1) and notes in `seen` what
 * became of them (with the number of the last bar it saw).
 */
function planned(plan: Record<number, (ctx: Strategy['ctx']) => void>, seen: string[] = []) {
  return class Planned extends Strategy {
    n = 0;
    override onBar(): void {
      this.n += 1;
      plan[this.n]?.(this.ctx);
    }
    override onOrderEvent(event: OrderEvent): void {
      if (event.type === 'OrderDenied') seen.push(`${this.n} denied ${event.code}`);
      if (event.type === 'OrderCanceled') seen.push(`${this.n} canceled`);
      if (event.type === 'OrderFilled') seen.push(`${this.n} filled ${event.fill.price.toFixed()}`);
    }
  };
}

describe('the daily loss limit in a backtest', () => {
  it('counts a carried position from the last close before the day, not from its cost', async () => {
    // Monday: 100 bought at 70,000, closing at 61,000 (−900,000, under the limit). Tuesday at
    // 60,000: today's loss is 100,000; the sale realises −1,000,000 against the cost, of which
    // 900,000 was Monday's. The buy after it is accepted; counted as realised, it was denied.
    const Cls = planned({
      1: (ctx) => ctx.buy('005930', 100),
      7: (ctx) => ctx.sell('005930', 100),
      9: (ctx) => ctx.buy('005930', 10),
    });
    const { outcome } = await backtestBars(
      [{ strategyClass: Cls }],
      twoDays([70_000, 70_000, 65_000, 61_000, 61_000], [60_000, 60_000, 60_000, 60_000, 60_000]),
      { cash: RICH },
    );
    expect(outcome.refused).toEqual({});
    expect(outcome.trades.map((t) => `${t.side} ${t.quantity.toFixed()} @ ${t.price.toFixed()}`)).toEqual([
      'BUY 100 @ 70000',
      'SELL 100 @ 60000',
      'BUY 10 @ 60000',
    ]);
  });

  it('halts a strategy whose positions lost the limit today, cancels its orders, and lets it trade the next day', async () => {
    // 100 bought at 70,000; a limit buy at 50,000 works. At 59,000 the position has lost
    // 1,100,000 today: the kill switch cancels the limit order at the next bar time, and the buy
    // after it is denied. Tuesday counts from Monday's last close: trading again.
    const seen: string[] = [];
    const Cls = planned(
      {
        1: (ctx) => ctx.buy('005930', 100),
        3: (ctx) => ctx.buy('005930', 10, new Decimal(50_000)),
        7: (ctx) => ctx.buy('005930', 10),
        9: (ctx) => ctx.buy('005930', 10),
      },
      seen,
    );
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [{ strategyClass: Cls }],
      twoDays([70_000, 70_000, 69_000, 65_000, 59_000, 59_000, 59_000], [59_000, 59_000, 59_500]),
      { cash: RICH, logger },
    );
    // the halt is told: when it happened (info), and once more at the end (a warning)
    const risk = records.filter((r) => r.component === 'risk');
    expect(risk.map((r) => [r.level, r.msg])).toEqual([
      [
        30, // the position's 1,100,000 and the buy's commission
        'halted strategy Planned: daily loss 1,101,050 KRW reached the limit of 1,000,000 KRW',
      ],
      [
        40,
        'the daily loss limit halted strategy Planned once: its orders were denied and its working orders ' +
          'canceled until the next trading day (a larger dailyLossLimitKrw in --risk-config lets it trade on)',
      ],
    ]);
    expect(risk[0]).toMatchObject({
      at: '2026-02-23T09:05:00.000+09:00',
      until: '2026-02-24T08:00:00.000+09:00',
    });
    expect(seen).toEqual([
      '1 filled 70000',
      '5 canceled',
      '7 denied risk-daily-loss-strategy',
      '9 filled 59000',
    ]);
    expect(outcome.refused).toEqual({ 'risk-daily-loss-strategy': 1 });
    expect(outcome.halts).toEqual({ 'strategy:Planned': 1 });
    expect(outcome.trades.map((t) => `${t.time} ${t.side} ${t.price.toFixed()}`)).toEqual([
      `${T0 + MINUTE} BUY 70000`,
      `${T0 + DAY + 2 * MINUTE} BUY 59000`,
    ]);
  });

  it('judges an order of a timer due on an earlier day by that day’s PnL, though the next bar is of a later day', async () => {
    // Day 1: 100 bought at 70,000, closing at 62,000. Day 2 closes at 59,500: it lost 250,000 today
    // (1,050,000 since the buy). A timer due at 15:40 on day 2 fires as day 3's first bar begins,
    // with the clock at 15:40 of day 2: its buy is judged by day 2's loss, and accepted.
    const seen: string[] = [];
    class AtTheClose extends Strategy {
      n = 0;
      override onBar(): void {
        this.n += 1;
        if (this.n === 1) this.ctx.buy('005930', 100);
        if (this.n === 4) this.ctx.setTimer('close', { at: T0 + DAY + 6 * 3_600_000 + 39 * MINUTE });
      }
      override onTimer(): void {
        this.ctx.buy('005930', 1, new Decimal(59_000));
      }
      override onOrderEvent(event: OrderEvent): void {
        if (event.type === 'OrderDenied') seen.push(`denied ${event.code}`);
        if (event.type === 'OrderAccepted') seen.push(`accepted at ${new Date(event.tsEvent).toISOString()}`);
      }
    }
    const bars = [
      ...minuteBars('005930', [70_000, 70_000, 62_000]),
      ...minuteBars('005930', [60_000, 59_500], T0 + DAY),
      ...minuteBars('005930', [59_500, 59_500], T0 + 2 * DAY),
    ];
    const { outcome } = await backtestBars([{ strategyClass: AtTheClose }], bars, { cash: RICH });
    expect(outcome.refused).toEqual({});
    expect(seen).toEqual(['accepted at 2026-02-23T00:01:00.000Z', 'accepted at 2026-02-24T06:40:00.000Z']);
  });

  it('halts the account when its strategies together lost the account’s limit, each under its own', async () => {
    // two strategies hold 100 each from 70,000; at 64,000 each lost 600,000 (+ its commission)
    // today, under its 1,000,000, and together 1,200,000: over the account's limit of 1,000,000
    const seen: string[] = [];
    const make = (name: string) =>
      class extends Strategy {
        n = 0;
        override onBar(): void {
          this.n += 1;
          if (this.n === 1) this.ctx.buy('005930', 100);
          if (this.n === 5) this.ctx.buy('005930', 1);
        }
        override onOrderEvent(event: OrderEvent): void {
          if (event.type === 'OrderDenied') seen.push(`${name} denied ${event.code}`);
        }
      };
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [
        { strategyClass: make('a'), id: 'a' },
        { strategyClass: make('b'), id: 'b' },
      ],
      minuteBars('005930', [70_000, 70_000, 67_000, 64_000, 64_000, 64_000]),
      { cash: RICH, logger, risk: { account: { dailyLossLimitKrw: '1000000' } } },
    );
    expect(outcome.trades.filter((t) => t.side === 'BUY')).toHaveLength(2);
    expect(seen.sort()).toEqual(['a denied risk-daily-loss-account', 'b denied risk-daily-loss-account']);
    // the warning at the end names the account's limit (before: dailyLossLimitKrw, a strategy's)
    expect(records.filter((r) => r.component === 'risk' && r.level === 40).map((r) => r.msg)).toEqual([
      'the daily loss limit halted the account once: its orders were denied and its working orders ' +
        'canceled until the next trading day (a larger account.dailyLossLimitKrw in --risk-config lets it trade on)',
    ]);
  });

  it('tells a denied strategy what ends its halt in a backtest, not hoga risk reset, which cannot reach it', async () => {
    // 100 bought at 70,000; at 59,000 the kill switch halts the strategy: a buy is denied by the
    // limit. The price comes back to 69,000 (1,000,000 is no longer lost today) and the strategy is
    // still halted: a buy is denied by the halt. Before, both denials said to run hoga risk reset
    // (with --mode paper for paper), which cannot reach a backtest's states.
    const reasons: string[] = [];
    class Probe extends Strategy {
      n = 0;
      override onBar(): void {
        this.n += 1;
        if (this.n === 1) this.ctx.buy('005930', 100);
        if (this.n === 4 || this.n === 6) this.ctx.buy('005930', 10);
      }
      override onOrderEvent(event: OrderEvent): void {
        if (event.type === 'OrderDenied') reasons.push(`${event.code}: ${event.reason}`);
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: Probe }],
      minuteBars('005930', [70_000, 70_000, 59_000, 59_000, 69_000, 69_000]),
      { cash: RICH },
    );
    expect(outcome.halts).toEqual({ 'strategy:Probe': 1 });
    const wayOut =
      'hoga risk reset does not reach a backtest: a larger dailyLossLimitKrw in --risk-config lets it trade on';
    expect(reasons).toEqual([
      'risk-daily-loss-strategy: Strategy Probe lost 1,101,050 KRW today, at or over its limit of 1,000,000 KRW; ' +
        `frees at 2026-02-24 08:00 KST (Tue); ${wayOut}`,
      'risk-halted: Trading is halted for strategy Probe: only cancels are accepted. Set by the daily loss limit ' +
        '(daily loss 1,101,050 KRW reached the limit of 1,000,000 KRW) since 2026-02-23 09:03 KST (Mon), ' +
        `until 2026-02-24 08:00 KST (Tue); ${wayOut}`,
    ]);
  });
});

describe('the daily loss limit with dailyLossAction "reduce"', () => {
  // 100 bought at 70,000; at bar 3 a limit sell of 50 at 80,000 works. At 59,000 the position has
  // lost 1,100,000 today: the kill switch trips. At bar 7 the strategy sells the 50 shares it does
  // not offer already; at bar 8 it cancels its limit sell; at bar 9 it buys 10 and sells the rest.
  // (The broker's rules refuse a buy while a sell works, so the limit sell is canceled first; the
  // kill switch's cancel of working buys alone is risk-engine.test.ts's.)
  const plan = (seen: string[]) => {
    let offer: ReturnType<Strategy['ctx']['sell']> | undefined;
    return planned(
      {
        1: (ctx) => ctx.buy('005930', 100),
        3: (ctx) => {
          offer = ctx.sell('005930', 50, new Decimal(80_000));
        },
        7: (ctx) => ctx.sell('005930', 50),
        8: (ctx) => ctx.cancel(offer!),
        9: (ctx) => {
          ctx.buy('005930', 10);
          ctx.sell('005930', 50);
        },
      },
      seen,
    );
  };
  const bars = minuteBars(
    '005930',
    [70_000, 70_000, 69_000, 65_000, 59_000, 59_000, 59_000, 59_000, 59_000, 59_000],
  );

  it('lets the strategy exit after the breach: its sells fill, a new buy is denied, its working sell is kept', async () => {
    const seen: string[] = [];
    const reasons: string[] = [];
    const Cls = plan(seen);
    class Probe extends Cls {
      override onOrderEvent(event: OrderEvent): void {
        super.onOrderEvent(event);
        if (event.type === 'OrderDenied') reasons.push(event.reason);
      }
    }
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars([{ strategyClass: Probe, id: 'Planned' }], bars, {
      cash: RICH,
      logger,
      risk: { defaults: { dailyLossAction: 'reduce' } },
    });
    // the kill switch did not cancel the limit sell of the long position: the strategy did, at bar 8
    expect(seen).toEqual([
      '1 filled 70000',
      '7 filled 59000',
      '8 canceled',
      '9 denied risk-reducing',
      '9 filled 59000',
    ]);
    expect(outcome.trades.map((t) => `${t.side} ${t.quantity.toFixed()} @ ${t.price.toFixed()}`)).toEqual([
      'BUY 100 @ 70000',
      'SELL 50 @ 59000',
      'SELL 50 @ 59000',
    ]);
    expect(outcome.refused).toEqual({ 'risk-reducing': 1 });
    expect(outcome.halts).toEqual({ 'strategy:Planned': 1 });
    // the loss at the buy: the position's 1,100,000, the buy's commission, the sell's costs
    expect(reasons).toEqual([
      'Strategy Planned lost 1,105,917 KRW today, at or over its limit of 1,000,000 KRW: only orders that ' +
        'reduce a position are accepted; frees at 2026-02-24 08:00 KST (Tue); hoga risk reset does not reach ' +
        'a backtest: a larger dailyLossLimitKrw in --risk-config lets it trade on',
    ]);
    const risk = records.filter((r) => r.component === 'risk').map((r) => [r.level, r.msg]);
    expect(risk).toEqual([
      [30, 'set strategy Planned REDUCING: daily loss 1,101,050 KRW reached the limit of 1,000,000 KRW'],
      [
        40,
        'the daily loss limit set strategy Planned REDUCING once: its buys were denied and its working buys ' +
          'canceled until the next trading day (a larger dailyLossLimitKrw in --risk-config lets it trade on)',
      ],
    ]);
  });

  it('denies a buy while its sell works for the reduced state first, as live and paper do', async () => {
    // Live and paper judge the trading states before the broker's rules: a buy of a REDUCING
    // strategy whose limit sell works is denied `risk-reducing`. Before, a backtest judged the
    // broker's rules first and answered `opposite-pending-order-exists` (KR's rule of the other side).
    const seen: string[] = [];
    const Cls = planned(
      {
        1: (ctx) => ctx.buy('005930', 100),
        3: (ctx) => ctx.sell('005930', 50, new Decimal(80_000)),
        7: (ctx) => ctx.buy('005930', 10),
      },
      seen,
    );
    const { outcome } = await backtestBars([{ strategyClass: Cls, id: 'Planned' }], bars, {
      cash: RICH,
      risk: { defaults: { dailyLossAction: 'reduce' } },
    });
    expect(seen).toEqual(['1 filled 70000', '7 denied risk-reducing']);
    expect(outcome.refused).toEqual({ 'risk-reducing': 1 });
  });

  it('by default halts as before: the exit sells are denied too, and the working sell is canceled', async () => {
    const seen: string[] = [];
    const { outcome } = await backtestBars([{ strategyClass: plan(seen), id: 'Planned' }], bars, {
      cash: RICH,
    });
    expect(seen).toEqual([
      '1 filled 70000',
      '5 canceled',
      '7 denied risk-daily-loss-strategy',
      '9 denied risk-daily-loss-strategy',
      '9 denied risk-daily-loss-strategy',
    ]);
    expect(outcome.trades).toHaveLength(1);
  });
});

describe('the daily loss limit at the day edge in a backtest', () => {
  it('counts a bar stamped exactly at the day’s start (07:59–08:00 KST) in the day it closes', async () => {
    // 100 bought at 70,000 on Monday; a bar stamped Tuesday 08:00 KST (the minute 07:59–08:00,
    // as the US after-market's last is in winter) closes at 59,000: Monday lost 1,100,000. Live
    // sees that price before 08:00 and halts the strategy until 08:00; Tuesday counts from 59,000.
    // Before, the backtest counted the fall in Tuesday's PnL: halted all Tuesday, its buy denied.
    const seen: string[] = [];
    const Cls = planned({ 1: (ctx) => ctx.buy('005930', 100), 6: (ctx) => ctx.buy('005930', 10) }, seen);
    const edge = Date.parse('2026-02-24T08:00:00+09:00');
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [{ strategyClass: Cls }],
      [
        ...minuteBars('005930', [70_000, 70_000, 70_000]),
        ...minuteBars('005930', [59_000], edge),
        ...minuteBars('005930', [59_000, 59_000, 59_000], T0 + DAY),
      ],
      { cash: RICH, logger },
    );
    const halts = records.filter((r) => r.component === 'risk' && r.level === 30);
    expect(halts.map((r) => [r.at, r.until])).toEqual([
      ['2026-02-24T08:00:00.000+09:00', '2026-02-24T08:00:00.000+09:00'],
    ]);
    expect(seen).toEqual(['1 filled 70000', '6 filled 59000']);
    expect(outcome.refused).toEqual({});
    expect(outcome.halts).toEqual({ 'strategy:Planned': 1 });
  });
});
