/**
 * A strategy method named like a hook but not one (`onBars`, `on_fill`, `onOrderBook`) is said when
 * the strategy is added, naming the hook it resembles: hoga runs a `.ts` file without checking its
 * types, so `override` does not catch it. Before, the method was never called, without a word (a
 * strategy with `onBars` ran a whole backtest placing no order). A method far from every hook
 * (`onSignal`, a helper of the strategy's own) is not said.
 */
import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars, recordingLogger, T0 } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

class Misnamed extends Strategy {
  onBars(_bar: Bar): void {}
  on_fill(): void {}
  onOrderBook(): void {}
  onSignal(): void {}
}

/** A base class with a misnamed hook, and a subclass defining a real one. */
class Base extends Strategy {
  onTrades(): void {}
}
class Sub extends Base {
  override onBar(): void {}
}

describe('a method named like a hook', () => {
  it('is said once per method when the strategy is added, naming the hook; the run goes on', async () => {
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [
        { strategyClass: Misnamed, id: 'm' },
        { strategyClass: Sub, id: 's' },
      ],
      minuteBars('005930', [70_000, 70_100]),
      { start: T0, logger },
    );
    expect(outcome.status).toBe('completed');
    const said = records.filter((r) => String(r.msg).includes('is not a hook')).map((r) => r.msg);
    expect(said.sort()).toEqual([
      'strategy m defines onBars, which is not a hook and is never called: did you mean onBar?',
      'strategy m defines onOrderBook, which is not a hook and is never called: did you mean onOrderbook?',
      'strategy m defines on_fill, which is not a hook and is never called: did you mean onFill?',
      'strategy s defines onTrades, which is not a hook and is never called: did you mean onTrade?',
    ]);
  });
});
