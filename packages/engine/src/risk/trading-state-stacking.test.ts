import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { buy, setup } from './risk-engine.test-helper.js';

const S1 = { kind: 'strategy', strategyId: 's1' } as const;
/** The next trading day's start after T0 (2026-11-23 10:00 KST). */
const NEXT_DAY = Date.parse('2026-11-24T08:00:00+09:00');

describe('trading states of several sources, through the risk engine', () => {
  it("keeps an operator's REDUCING under the kill switch's HALTED: the next trading day s1 may only sell", () => {
    // before, the kill switch replaced the operator's REDUCING, and s1 could buy again the next day
    const { submit, fill, engine, book, gateway, cancels, clock } = setup({
      strategies: { s1: { dailyLossLimitKrw: '500000' } },
    });
    const entry = buy('005930', '100', '70000');
    expect(submit(entry).accepted).toBe(true);
    fill(entry, '70000');
    const resting = buy('005930', '10', '60000');
    expect(submit(resting).accepted).toBe(true);
    // `hoga risk set REDUCING --strategy s1`
    gateway.set(S1, 'REDUCING', 'manual', 'winding down');
    book.notePrice('005930', new Decimal(65000), clock.nowMs()); // -500,000
    engine.evaluate();
    expect(gateway.entry(S1)).toMatchObject({ state: 'HALTED', source: 'daily-loss', untilMs: NEXT_DAY });
    expect(cancels).toHaveLength(1);

    clock.set(NEXT_DAY + 3_600_000);
    engine.evaluate();
    expect(gateway.entry(S1)).toMatchObject({ state: 'REDUCING', source: 'manual', reason: 'winding down' });
    expect(submit(buy('005930', '1', '65000'))).toMatchObject({ accepted: false, code: 'risk-reducing' });
    expect(submit(buy('005930', '10', '65000', 's1', 'SELL')).accepted).toBe(true);
  });

  it("lets an operator loosen the kill switch's HALTED to REDUCING by hand, without the switch tripping again", () => {
    // before, the next evaluation counted the whole day's loss again and halted s1 once more
    const { submit, fill, engine, book, gateway, clock } = setup({
      strategies: { s1: { dailyLossLimitKrw: '500000' } },
    });
    const entry = buy('005930', '100', '70000');
    expect(submit(entry).accepted).toBe(true);
    fill(entry, '70000');
    book.notePrice('005930', new Decimal(65000), clock.nowMs());
    engine.evaluate();
    expect(gateway.state(S1)).toBe('HALTED');
    // `hoga risk set REDUCING --strategy s1`: let it sell out of its position
    gateway.set(S1, 'REDUCING', 'manual', 'let it exit');
    engine.evaluate();
    expect(gateway.entry(S1)).toMatchObject({ state: 'REDUCING', source: 'manual' });
    expect(submit(buy('005930', '100', '65000', 's1', 'SELL')).accepted).toBe(true);
  });
});
