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

  it("names what lies beneath the state in force in a denial: the kill switch over an operator's REDUCING", () => {
    // before, the denial named only the kill switch: lifting it looked like trading freely again
    const { submit, fill, engine, book, gateway, clock } = setup({
      strategies: { s1: { dailyLossLimitKrw: '500000' } },
    });
    const entry = buy('005930', '100', '70000');
    expect(submit(entry).accepted).toBe(true);
    fill(entry, '70000');
    gateway.set(S1, 'REDUCING', 'manual', 'winding down');
    book.notePrice('005930', new Decimal(65000), clock.nowMs());
    engine.evaluate();
    // the price recovers: the loss is under the limit again, the kill switch holds to the next day
    book.notePrice('005930', new Decimal(69000), clock.nowMs());

    const denied = submit(buy('005930', '1', '65000'));
    expect(denied).toMatchObject({ accepted: false, code: 'risk-halted' });
    const reason = denied.accepted ? '' : denied.reason;
    expect(reason).toMatch(
      /^Trading is halted for strategy s1: only cancels are accepted\. Set by the daily loss limit \(/,
    );
    expect(reason).toContain('; beneath it REDUCING (manual: winding down), in force once this ends;');
    expect(reason).toMatch(/; to lift them all sooner: hoga risk reset --strategy s1$/);
    expect(reason).not.toContain('\n');
    expect(denied.accepted ? undefined : denied.data).toMatchObject({
      source: 'daily-loss',
      beneath: [{ state: 'REDUCING', source: 'manual', reason: 'winding down', untilMs: null }],
    });

    // the next trading day the kill switch lapsed: the operator's REDUCING is in force, nothing beneath it
    clock.set(NEXT_DAY + 3_600_000);
    const reduced = submit(buy('005930', '1', '65000'));
    expect(reduced).toMatchObject({ accepted: false, code: 'risk-reducing' });
    const next = reduced.accepted ? '' : reduced.reason;
    expect(next).toBe(
      'strategy s1 is REDUCING: only orders that reduce a position are accepted. Set by an operator (hoga risk set) (winding down) since 2026-11-23 10:00 KST (Mon), until lifted by hand; to lift it: hoga risk reset --strategy s1',
    );
  });

  it('names every source beneath a REDUCING, and only those still in force', () => {
    const { submit, gateway, clock } = setup();
    const staleUntil = clock.nowMs() + 60_000;
    gateway.set(S1, 'REDUCING', 'daily-loss', 'daily loss 600,000 KRW reached the limit', staleUntil);
    gateway.set(S1, 'REDUCING', 'stale-data', 'no order-history poll for 90 s');
    gateway.set(S1, 'REDUCING', 'manual', 'winding down');

    const denied = submit(buy('005930', '1', '65000'));
    expect(denied).toMatchObject({ accepted: false, code: 'risk-reducing' });
    const reason = denied.accepted ? '' : denied.reason;
    expect(reason).toContain('Set by an operator (hoga risk set) (winding down)');
    expect(reason).toContain(
      '; beneath it REDUCING (daily-loss: daily loss 600,000 KRW reached the limit; until 2026-11-23 10:01 KST (Mon)) and REDUCING (stale-data: no order-history poll for 90 s), in force once this ends;',
    );

    // the kill switch's REDUCING beneath lapsed: no longer named
    clock.set(staleUntil + 1);
    const later = submit(buy('005930', '1', '65000'));
    expect(later.accepted ? '' : later.reason).toContain(
      '; beneath it REDUCING (stale-data: no order-history poll for 90 s), in force once this ends; to lift them all: hoga risk reset --strategy s1',
    );
  });
});
