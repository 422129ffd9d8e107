/**
 * A hook that awaits its own order's fill (a promise `onFill` resolves) waits forever: the engine
 * routes the fill only once the hook's promise settled. Before, the run hung without a word (a
 * backtest too); now the strategy's logger warns, naming the hook and the likely cause. Here the
 * strategy ends its own wait once it sees the warning, so the run goes on to its end.
 */
import { Writable } from 'node:stream';
import type { Bar } from '@hoga/core';
import { createLogger } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  backtestBars,
  dailyKrBar,
  minuteBars,
  recordingLogger,
} from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';
import { HOOK_WAIT_WARNING_MS } from './hook-watch.js';

const saved = HOOK_WAIT_WARNING_MS.value;
afterEach(() => {
  HOOK_WAIT_WARNING_MS.value = saved;
});

describe('a hook whose promise does not settle', () => {
  it("is named in a warning on the strategy's logger (a hook awaiting its own order's fill)", async () => {
    HOOK_WAIT_WARNING_MS.value = 100;
    const records: { msg?: string; strategyId?: string; level?: number }[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line !== '') records.push(JSON.parse(line));
        done();
      },
    });
    const warned = () => records.some((r) => r.msg?.includes('has not settled') === true);
    class AwaitsItsFill extends Strategy {
      private waited = false;
      override async onBar(bar: Bar): Promise<void> {
        if (this.waited) return;
        this.waited = true;
        this.ctx.buy(bar.symbol, 1);
        // stands for `await this.fillOf(id)`: resolved here only once the warning came
        await new Promise<void>((resolve) => {
          const poll = setInterval(() => {
            if (!warned()) return;
            clearInterval(poll);
            resolve();
          }, 10);
        });
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: AwaitsItsFill }],
      minuteBars('005930', [70000, 70100, 70200]),
      { logger: createLogger({ level: 'info', destination }) },
    );
    expect(outcome.status).toBe('completed');
    const warning = records.find((r) => r.msg?.includes('has not settled'));
    expect(warning?.strategyId).toBe('AwaitsItsFill');
    expect(warning?.msg).toMatch(
      /^onBar has not settled after \d+ s: the engine waits for a hook's promise before the next event, so a hook that awaits an event of the run \(its own order's fill\) waits forever/,
    );
  });

  it('says nothing while an order placed in onStart waits for the bars it subscribed to there', async () => {
    // the order waits in the gate until the subscribed symbol's bars are opened (a download): no
    // hook is unsettled meanwhile (onStart's promise settled at once)
    HOOK_WAIT_WARNING_MS.value = 50;
    class SubscribesAndBuys extends Strategy {
      override async onStart(): Promise<void> {
        this.ctx.subscribeBars('000660');
        this.ctx.buy('000660', 1);
      }
    }
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [{ strategyClass: SubscribesAndBuys }],
      [...minuteBars('005930', [70_000, 70_100]), ...minuteBars('000660', [200_000, 201_000])],
      {
        symbols: ['005930'],
        logger,
        openDelayMs: 200,
        priorBars: (symbols) => symbols.map((s) => dailyKrBar('2026-02-20', 199_000, 200_000, { symbol: s })),
      },
    );
    expect(outcome.status).toBe('completed');
    expect(records.filter((r) => String(r.msg).includes('has not settled'))).toEqual([]);
    expect(outcome.trades.map((t) => [t.symbol, t.quantity.toFixed()])).toEqual([['000660', '1']]);
  });
});
