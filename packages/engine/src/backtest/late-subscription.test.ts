/**
 * A backtest loads the bars of the symbols subscribed to in `onStart`: a `ctx.subscribeBars` of
 * another symbol from a later hook delivers nothing, and the run says so once per strategy and
 * symbol, naming both (paper and live take later subscriptions). Before, the bars never came, without
 * a word: a strategy written for paper that subscribes on a signal ran its backtest blind.
 */
import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, minuteBars, recordingLogger, T0 } from './backtest-fixture.test-helper.js';

class SubscribesLate extends Strategy {
  static seen: string[] = [];
  override onStart(): void {
    this.ctx.subscribeBars('035420');
  }
  override onBar(bar: Bar): void {
    SubscribesLate.seen.push(bar.symbol);
    // every bar: said once all the same
    this.ctx.subscribeBars('000660');
  }
}

describe('a backtest subscription after onStart', () => {
  it('delivers nothing and is said once, naming the strategy and the symbol', async () => {
    SubscribesLate.seen = [];
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [{ strategyClass: SubscribesLate, id: 'late' }],
      [
        ...minuteBars('005930', [70_000, 70_100, 70_200]),
        ...minuteBars('035420', [200_000, 200_500, 201_000]),
      ],
      { start: T0, logger },
    );
    expect(outcome.status).toBe('completed');
    expect(SubscribesLate.seen).not.toContain('000660');
    const said = records.filter((r) => String(r.msg).includes('000660'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, strategyId: 'late', symbol: '000660' });
    expect(String(said[0]?.msg)).toBe(
      'strategy late subscribed to the bars of 000660 (ctx.subscribeBars) after onStart: a backtest loads the bars ' +
        'subscribed to in onStart only, so none of these come (subscribe in onStart; paper and live take either)',
    );
    // the symbol subscribed to in onStart is not said
    expect(records.filter((r) => String(r.msg).includes('035420'))).toEqual([]);
  });
});
